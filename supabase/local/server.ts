/**
 * The local Supabase-compatible stack: one Node process speaking the subset of Supabase's HTTP
 * and WebSocket APIs this app uses (auth, rest, storage, realtime, functions) on PGlite, with row
 * level security enforced by Postgres itself.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { createAuthService, ensureUser } from './auth';
import { isLoopbackHost, type LocalStackConfig } from './config';
import { defaultTemplateCacheDir, openDatabase } from './database';
import { createFunctionsService } from './functions';
import { BodyTooLargeError, json, sendResponse, toRequest } from './http';
import { originAllowed } from './origins';
import { createRealtimeServer, type RealtimeServer } from './realtime';
import { createRestService } from './rest';
import { startRetentionSweeps } from './retention';
import { createStorageService } from './storage';
import type { Service, StackContext } from './types';

export interface LocalStack {
  readonly url: string;
  readonly db: PGlite;
  readonly config: LocalStackConfig;
  close(): Promise<void>;
}

/** The stack's keys are public: it listens on loopback only unless explicitly forced. */
export class RemoteBindError extends Error {
  constructor(readonly host: string) {
    super(
      `Refusing to listen on ${host}: the local stack's keys are public demo values, so it only listens on loopback (127.0.0.1). ` +
        'Set SUPABASE_LOCAL_ALLOW_REMOTE=1 to force it, and change ADMIN_PASSWORD first.',
    );
  }
}

export class PortInUseError extends Error {
  constructor(readonly port: number) {
    super(`Port ${String(port)} is already in use: stop the other process or set SUPABASE_LOCAL_PORT to a free port.`);
  }
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(port) : error);
    };
    const onListening = () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

async function ensurePortFree(port: number, host: string): Promise<void> {
  const probe = createServer();
  await listen(probe, port, host);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}

/** Opens the database (applying what is pending), creates the admin user and starts listening. */
export async function startLocalStack(config: LocalStackConfig): Promise<LocalStack> {
  if (!isLoopbackHost(config.host) && config.allowRemote !== true) {
    throw new RemoteBindError(config.host);
  }
  // A port in use is reported at once, not after the database has been opened (seconds); the real
  // listen below still reports one taken in between.
  if (config.port !== 0) await ensurePortFree(config.port, config.host);
  if (config.dataDir !== null) mkdirSync(config.dataDir, { recursive: true });
  // In memory (tests), a cached copy of the freshly migrated database saves most of the start-up.
  const db = await openDatabase(
    config.dataDir === null
      ? { templateCacheDir: defaultTemplateCacheDir }
      : { dataDir: join(config.dataDir, 'db') },
  );
  const tempFiles = config.dataDir === null ? mkdtempSync(join(tmpdir(), 'supabase-local-')) : null;
  const filesDir = tempFiles ?? join(config.dataDir ?? '', 'storage');
  mkdirSync(filesDir, { recursive: true });
  let origin = `http://${config.host}:${String(config.port)}`;
  // The stack's own address, once it listens: what the functions get as SUPABASE_URL.
  const ctx: StackContext = { db, config, filesDir, origin: () => origin };

  try {
    await ensureUser(ctx, { email: config.adminEmail, password: config.adminPassword, appMetadata: { role: 'admin' } });
  } catch (error) {
    await db.close();
    throw error;
  }

  const functions = createFunctionsService(ctx);
  // pg_cron's part on Supabase: open questions past their retention go now and every hour.
  const sweeps = startRetentionSweeps(db, (error) => console.error('[supabase-local] retention sweep failed:', error));
  await sweeps.started;

  const services: Record<string, Service> = {
    '/auth/v1': createAuthService(ctx),
    '/rest/v1': createRestService(ctx),
    '/storage/v1': createStorageService(ctx),
    '/functions/v1': functions,
  };

  const wallClock = () => performance.timeOrigin + performance.now();
  const server = createServer((req, res) => {
    void (async () => {
      const method = req.method ?? 'GET';
      const receivedAt = wallClock();
      let response: Response;
      // Functions answer CORS themselves, as on Supabase, and a refused page gets no grant: then
      // the stack adds none of its own.
      let noGrant = false;
      const pageOrigin = req.headers.origin ?? null;
      try {
        // Only origin-form targets (`/rest/v1/…`): an absolute-form target (`POST http://elsewhere/…`)
        // would otherwise decide the URL the request is handled under.
        if (!(req.url ?? '').startsWith('/')) {
          req.resume();
          response = json(400, { message: 'Request target must be a path (origin-form)' });
          await sendResponse(res, response, method, { cors: false });
          return;
        }
        const request = await toRequest(req, origin, config.maxBodyBytes);
        const { pathname } = new URL(request.url);
        const prefix = Object.keys(services).find((key) => pathname === key || pathname.startsWith(`${key}/`));
        if (!prefix) {
          response = json(404, { message: 'no Route matched with those values' });
        } else if (prefix !== '/functions/v1' && !originAllowed(pageOrigin, config.functionEnv)) {
          // Another site's page gets nothing from REST, auth or storage (functions decide themselves).
          response = json(403, { message: 'Origin not allowed' }, { vary: 'Origin' });
          noGrant = true;
        } else if (method === 'OPTIONS' && prefix !== '/functions/v1') {
          // The gateway answers preflights; functions answer their own, as on Supabase.
          response = new Response(null, { status: 204 });
        } else {
          const service = services[prefix];
          noGrant = prefix === '/functions/v1';
          response = service
            ? await service.handle(request, pathname.slice(prefix.length) || '/')
            : json(404, { message: 'no Route matched with those values' });
        }
      } catch (error) {
        if (error instanceof BodyTooLargeError) {
          response = json(413, { message: 'Payload Too Large', statusCode: '413', error: 'Payload too large' });
        } else {
          console.error('[supabase-local]', error);
          response = json(500, { message: 'Internal server error' });
        }
      }
      const observe = config.observeRequests;
      if (observe) {
        const answeredAt = wallClock();
        const path = (req.url ?? '').split('?')[0] ?? '';
        const status = response.status;
        res.once('close', () => observe({ method, path, status, receivedAt, answeredAt, finishedAt: wallClock(), complete: res.writableFinished }));
      }
      try {
        await sendResponse(res, response, method, { cors: !noGrant, origin: pageOrigin });
      } catch {
        res.destroy();
      }
    })();
  });

  let realtime: RealtimeServer | null = null;
  try {
    const port = await listen(server, config.port, config.host);
    origin = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${String(port)}`;
    realtime = await createRealtimeServer(ctx, server);
    // A function's WebSocket (Supabase passes upgrades of /functions/v1/<name> to the function);
    // realtime answers every other upgrade.
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (!(req.url ?? '').startsWith('/functions/v1/')) return;
      socket.on('error', () => socket.destroy());
      functions.upgrade(req, socket, head).catch((error: unknown) => {
        console.error('[supabase-local] function upgrade', error);
        socket.destroy();
      });
    });
    const stack: LocalStack = {
      url: origin,
      db,
      config,
      async close() {
        await functions.closeSockets();
        await sweeps.close();
        await realtime?.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        for (const service of Object.values(services)) await service.close?.();
        await db.close();
        if (tempFiles) rmSync(tempFiles, { recursive: true, force: true });
      },
    };
    return stack;
  } catch (error) {
    await sweeps.close();
    await realtime?.close();
    server.close();
    await db.close();
    if (tempFiles) rmSync(tempFiles, { recursive: true, force: true });
    throw error;
  }
}
