/**
 * Node HTTP ⇄ Fetch API: every part of the local stack is written as `(Request) => Response`,
 * the same shape the edge functions have, and this module adapts Node's server to it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The headers Supabase's gateway allows from browsers (supabase-js sends these). */
export const corsHeaders: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS, HEAD',
  'Access-Control-Allow-Headers':
    'authorization, x-client-info, apikey, content-type, content-profile, accept-profile, prefer, range, x-upsert, cache-control, x-supabase-api-version, x-region, x-retry-count, x-stainless-arch, x-stainless-lang, x-stainless-os, x-stainless-package-version, x-stainless-retry-count, x-stainless-runtime, x-stainless-runtime-version, x-stainless-timeout',
  'Access-Control-Expose-Headers': 'content-range, content-location, x-supabase-api-version',
  'Access-Control-Max-Age': '86400',
};

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`Request body exceeds ${String(limit)} bytes`);
  }
}

/** The address of the connection each request came in on; a Fetch Request has no place for it. */
const remoteAddresses = new WeakMap<Request, string>();

/** The client's address (IPv4-mapped IPv6 written as IPv4), or null for a request not from toRequest. */
export function remoteAddress(request: Request): string | null {
  return remoteAddresses.get(request) ?? null;
}

/** Reads a Node request fully (bounded) and turns it into a Fetch API Request. */
export async function toRequest(req: IncomingMessage, origin: string, maxBodyBytes: number): Promise<Request> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (Number.isFinite(declared) && declared > maxBodyBytes) {
    req.resume();
    throw new BodyTooLargeError(maxBodyBytes);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBodyBytes) {
      req.resume();
      throw new BodyTooLargeError(maxBodyBytes);
    }
    chunks.push(chunk);
  }
  const method = req.method ?? 'GET';
  return fetchRequest(req, origin, method, method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(chunks));
}

/** A WebSocket upgrade request (a GET without body) as a Fetch API Request, its address kept. */
export function toUpgradeRequest(req: IncomingMessage, origin: string): Request {
  return fetchRequest(req, origin, 'GET', undefined);
}

/** The Fetch API Request for a Node request's head and `body`, with the client's address kept. */
function fetchRequest(req: IncomingMessage, origin: string, method: string, body: BodyInit | undefined): Request {
  const request = new Request(new URL(req.url ?? '/', origin), { method, headers: requestHeaders(req), body });
  if (req.socket.remoteAddress) remoteAddresses.set(request, req.socket.remoteAddress.replace(/^::ffff:/, ''));
  return request;
}

function requestHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

/**
 * Writes a Fetch API Response to Node, streaming its body (server-sent events included). The
 * gateway's CORS headers are added where the response has none, unless `cors` is false; a page's
 * `origin` (already allowed) is granted by name, as a list of allowed origins requires.
 */
export async function sendResponse(
  res: ServerResponse,
  response: Response,
  method: string,
  { cors = true, origin = null }: { cors?: boolean; origin?: string | null } = {},
): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    const existing = headers[name];
    if (existing === undefined) headers[name] = value;
    else headers[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  });
  if (cors) {
    for (const [name, value] of Object.entries(corsHeaders)) headers[name.toLowerCase()] ??= value;
    if (origin !== null) {
      headers['access-control-allow-origin'] = origin;
      headers.vary = 'Origin';
    }
  }
  res.writeHead(response.status, headers);
  if (!response.body || method === 'HEAD') {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  // The client gone, the body is cancelled (a function's stream ends, settles and frees its slot),
  // as Supabase's runtime does; also when it went while the function was still preparing the answer.
  const cancel = () => void reader.cancel().catch(() => undefined);
  if (clientGone(res)) {
    cancel();
    return;
  }
  res.once('close', cancel);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!res.write(value)) {
      await new Promise<void>((resolve) => {
        const goOn = () => {
          res.off('drain', goOn);
          res.off('close', goOn);
          resolve();
        };
        res.once('drain', goOn);
        res.once('close', goOn);
      });
    }
    if (clientGone(res)) {
      cancel();
      return;
    }
  }
  res.end();
}

/** Whether the response can no longer reach its client (the connection closed). */
function clientGone(res: ServerResponse): boolean {
  return res.destroyed || res.socket === null || res.socket.destroyed;
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}
