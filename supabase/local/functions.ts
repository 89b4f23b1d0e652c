/**
 * Edge functions host (/functions/v1/<name>[/<sub/path>]): runs `<functionsDir>/<name>/handler.ts`
 * in this Node process. On Supabase the Deno entry `index.ts` next to it serves the same handler
 * with Deno.serve, so both runtimes execute the same code. Like Supabase's gateway, a request
 * needs a valid JWT in `Authorization` unless supabase/config.toml sets `verify_jwt = false` for
 * the function; preflights go to the function itself; the client's address arrives in
 * `X-Forwarded-For` (or the header CLIENT_IP_HEADER names), set from the connection and never
 * taken from the client.
 */
import { existsSync, readFileSync } from 'node:fs';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import type { Duplex } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './config';
import { createFunctionSockets, type SocketRuntime } from './functionSockets';
import { json, remoteAddress, toUpgradeRequest } from './http';
import { bearerToken } from './shared';
import { verifyJwt } from './jwt';
import type { Service, StackContext } from './types';

/** A handler gets its request, its environment and, for WebSockets, the runtime's sockets. */
export type FunctionHandler = (request: Request, env: Record<string, string>, sockets: SocketRuntime) => Promise<Response>;

/** The functions service: HTTP requests, and WebSocket upgrades of `/functions/v1/<name>`. */
export interface FunctionsService extends Service {
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void>;
  /**
   * Closes the functions' WebSockets and waits for what they left in the background (a stream's
   * settlement, which still needs the stack's API): the first step of stopping the stack.
   */
  closeSockets(): Promise<void>;
}

/** Function slugs as the CLI creates them; `_shared` and other internals are never invokable. */
const FUNCTION_NAME = /^[a-z0-9][a-z0-9_-]*$/;

const notFound = () => json(404, { code: 'NOT_FOUND', message: 'Requested function was not found' });

/**
 * Reads `verify_jwt` of each `[functions.<name>]` table from a Supabase config.toml. Only that key
 * matters here, so a line-based reading suffices.
 */
export function verifyJwtSettings(toml: string): Map<string, boolean> {
  const settings = new Map<string, boolean>();
  let current: string | null = null;
  for (const rawLine of toml.split(/\r?\n/)) {
    const line = rawLine.replace(/\s+#.*$/, '').trim();
    const table = /^\[\s*functions\.(?:"([^"]+)"|([A-Za-z0-9_-]+))\s*\]$/.exec(line);
    if (table) {
      current = table[1] ?? table[2] ?? null;
      continue;
    }
    if (line.startsWith('[')) {
      current = null;
      continue;
    }
    const setting = /^verify_jwt\s*=\s*(true|false)$/.exec(line);
    if (current && setting) settings.set(current, setting[1] === 'true');
  }
  return settings;
}

/**
 * Supabase's `EdgeRuntime.waitUntil(promise)`: work a function hands over to outlive its response
 * (background tasks). The functions run in this process, so the work runs on by itself; the host
 * keeps track of it so that a stack waits for it before it closes its database, as an instance
 * stays up until its background tasks are done. One set for the process, since every stack in it
 * shares the global, as the handlers' modules are.
 */
const backgroundTasks = new Set<Promise<unknown>>();
const edgeRuntime = {
  waitUntil(task: Promise<unknown>): void {
    const tracked = task.then(
      () => undefined,
      () => undefined,
    );
    backgroundTasks.add(tracked);
    void tracked.finally(() => backgroundTasks.delete(tracked));
  },
};

/** How long a closing stack waits for background work (Supabase allows free projects 150 s). */
const BACKGROUND_WAIT_MS = 10_000;

async function backgroundSettled(): Promise<void> {
  if (backgroundTasks.size === 0) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, BACKGROUND_WAIT_MS);
  });
  await Promise.race([Promise.all([...backgroundTasks]), timeout]);
  clearTimeout(timer);
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

export function createFunctionsService(ctx: StackContext): FunctionsService {
  (globalThis as { EdgeRuntime?: unknown }).EdgeRuntime ??= edgeRuntime;
  const functionsDir = resolve(ctx.config.functionsDir ?? join(repoRoot, 'supabase', 'functions'));
  const configPath = join(dirname(functionsDir), 'config.toml');
  const loaded = new Map<string, Promise<FunctionHandler>>();

  // Read once, like the handlers: `supabase functions serve` also takes config.toml at start.
  let jwtSettings: Map<string, boolean> | null = null;
  function requiresJwt(name: string): boolean {
    if (jwtSettings === null) {
      try {
        jwtSettings = verifyJwtSettings(readFileSync(configPath, 'utf8'));
      } catch {
        jwtSettings = new Map(); // no config.toml: Supabase's default for every function
      }
    }
    return jwtSettings.get(name) ?? true;
  }

  async function importHandler(file: string): Promise<FunctionHandler> {
    const module: unknown = await import(pathToFileURL(file).href);
    const handle = typeof module === 'object' && module !== null ? (module as { handle?: unknown }).handle : undefined;
    if (typeof handle !== 'function') throw new Error(`${file} does not export handle(request, env)`);
    return handle as FunctionHandler;
  }

  /** Imported once per process, like a deployed function; restart the stack after editing one. */
  function handlerFor(file: string): Promise<FunctionHandler> {
    let handler = loaded.get(file);
    if (!handler) {
      handler = importHandler(file);
      loaded.set(file, handler);
      // A module that failed to load is retried on the next request, once it has been fixed.
      handler.catch(() => loaded.delete(file));
    }
    return handler;
  }

  const sockets = createFunctionSockets();
  const trustedHeader = () => ctx.config.functionEnv.CLIENT_IP_HEADER?.trim().toLowerCase() || 'x-forwarded-for';

  /** The function's file and the request as the function sees it, or the gateway's own answer. */
  async function prepare(request: Request, path: string): Promise<{ file: string; name: string; request: Request } | Response> {
    const [, name = '', ...rest] = path.split('/');
    if (!FUNCTION_NAME.test(name)) return notFound();
    const file = join(functionsDir, name, 'handler.ts');
    if (!existsSync(file)) return notFound();

    if (request.method !== 'OPTIONS' && requiresJwt(name)) {
      if (!request.headers.has('authorization')) return json(401, { code: 401, message: 'Missing authorization header' });
      const token = bearerToken(request);
      if (!token || !verifyJwt(token, ctx.config.jwtSecret).ok) return json(401, { code: 401, message: 'Invalid JWT' });
    }

    const incoming = new URL(request.url);
    // Functions see their own name as the first path segment, as on Supabase.
    const url = new URL(`/${[name, ...rest].join('/')}${incoming.search}`, incoming.origin);
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    const headers = new Headers(request.headers);
    // As behind Supabase's gateway, the function learns the client's address from the trusted
    // header (rate limits key on it); whatever the client wrote there itself is overwritten.
    const trusted = trustedHeader();
    const address = remoteAddress(request);
    headers.delete(trusted);
    if (address) headers.set(trusted, address);
    const functionRequest = new Request(url, {
      method: request.method,
      headers,
      body: hasBody ? await request.arrayBuffer() : undefined,
      signal: request.signal,
    });
    return { file, name, request: functionRequest };
  }

  /** Runs the function; its failure is its log line and a 500, as the edge runtime answers. */
  async function run(name: string, file: string, request: Request): Promise<Response> {
    const env: Record<string, string> = {
      ...ctx.config.functionEnv,
      // The stack is the gateway: it tells its functions which header it writes the address into.
      CLIENT_IP_HEADER: trustedHeader(),
      // Reserved on Supabase: the platform sets these and secrets cannot override them. The
      // stack's own origin, never one taken from the request: the service key goes there.
      SUPABASE_URL: ctx.origin(),
      SUPABASE_ANON_KEY: ctx.config.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: ctx.config.serviceRoleKey,
    };
    try {
      const handler = await handlerFor(file);
      const response: unknown = await handler(request, env, sockets.runtime);
      if (!(response instanceof Response)) throw new Error(`Function ${name} did not return a Response`);
      return response;
    } catch (error) {
      // The function's own log line, as the edge runtime prints it; the server carries on.
      process.stderr.write(`[functions] ${name}: ${describe(error)}\n`);
      return json(500, { error: 'Function exited due to an error (please check logs)' });
    }
  }

  /** Writes a refused upgrade's HTTP answer to the raw socket. */
  async function refuseUpgrade(socket: Duplex, response: Response): Promise<void> {
    const body = Buffer.from(await response.arrayBuffer());
    const lines = [`HTTP/1.1 ${String(response.status)} ${STATUS_CODES[response.status] ?? ''}`];
    response.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'connection') lines.push(`${name}: ${value}`);
    });
    lines.push(`content-length: ${String(body.length)}`, 'connection: close');
    socket.end(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), body]));
  }

  return {
    async handle(request, path) {
      const prepared = await prepare(request, path);
      if (prepared instanceof Response) return prepared;
      return run(prepared.name, prepared.file, prepared.request);
    },
    async upgrade(req, socket, head) {
      const request = toUpgradeRequest(req, ctx.origin());
      const path = new URL(request.url).pathname.slice('/functions/v1'.length) || '/';
      const prepared = await prepare(request, path);
      const response = prepared instanceof Response ? prepared : await run(prepared.name, prepared.file, prepared.request);
      if (!sockets.complete(response, req, socket, head)) await refuseUpgrade(socket, response);
    },
    async closeSockets() {
      await sockets.close();
      await backgroundSettled();
    },
    // Before the database closes: work a function left in the background (a greeting being stored).
    close: backgroundSettled,
  };
}
