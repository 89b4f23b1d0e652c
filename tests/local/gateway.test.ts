/**
 * What the local stack answers before any API sees a request: request targets that are paths
 * only (the functions' SUPABASE_URL is the stack's own origin, so the service key never goes to
 * a host a request names), and pages of other sites refused by REST, auth, storage and realtime,
 * since the stack's keys are public and any page the operator opens could otherwise use them.
 */
import { request as httpRequest } from 'node:http';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY } from '../../supabase/local/config';
import { startHarness, type Harness } from './harness';

const functionsDir = resolve(import.meta.dirname, '../fixtures/functions');
const env: Record<string, string> = {};
let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ functionsDir, functionEnv: env });
});

afterAll(async () => {
  await harness.close();
});

/** A raw HTTP/1.1 request with exactly this request target and these headers. */
function raw(target: string, headers: Record<string, string>, body = ''): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(harness.url);
  return new Promise((resolvePromise, reject) => {
    const request = httpRequest({ host: hostname, port, method: 'POST', path: target, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolvePromise({ status: response.statusCode ?? 0, body: text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('request targets', () => {
  const auth = { authorization: `Bearer ${LOCAL_ANON_KEY}`, 'content-type': 'application/json' };

  it('refuses an absolute-form target instead of handling the request under the host it names', async () => {
    const answer = await raw('http://elsewhere.example/functions/v1/echo', { ...auth, host: 'elsewhere.example' }, '{}');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ message: 'Request target must be a path (origin-form)' });
  });

  it("gives the functions the stack's own origin as SUPABASE_URL, whatever Host the request names", async () => {
    const answer = await raw('/functions/v1/echo', { ...auth, host: 'elsewhere.example:8080' }, '{}');
    expect(answer.status).toBe(200);
    const echoed = JSON.parse(answer.body) as { env: { SUPABASE_URL: string } };
    expect(echoed.env.SUPABASE_URL).toBe(harness.url);
  });
});

describe('pages of other sites', () => {
  const evil = 'https://evil.example';
  const site = 'http://localhost:5173';
  const service = { apikey: LOCAL_SERVICE_ROLE_KEY, authorization: `Bearer ${LOCAL_SERVICE_ROLE_KEY}` };
  const calls = {
    rest: (origin: Record<string, string>) => fetch(`${harness.url}/rest/v1/documents?select=id`, { headers: { ...service, ...origin } }),
    auth: (origin: Record<string, string>) =>
      fetch(`${harness.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { apikey: LOCAL_ANON_KEY, 'content-type': 'application/json', ...origin },
        body: JSON.stringify({ email: 'admin@example.com', password: 'wrong-password' }),
      }),
    storage: (origin: Record<string, string>) =>
      fetch(`${harness.url}/storage/v1/object/list/document-uploads`, {
        method: 'POST',
        headers: { ...service, 'content-type': 'application/json', ...origin },
        body: JSON.stringify({ prefix: '' }),
      }),
  };

  it('get 403 and no CORS grant from REST, auth and storage, preflight included', async () => {
    for (const [name, call] of Object.entries(calls)) {
      const refused = await call({ origin: evil });
      expect(refused.status, name).toBe(403);
      expect(refused.headers.get('access-control-allow-origin'), name).toBeNull();
      expect(await refused.json()).toEqual({ message: 'Origin not allowed' });
    }
    const preflight = await fetch(`${harness.url}/rest/v1/documents`, {
      method: 'OPTIONS',
      headers: { origin: evil, 'access-control-request-method': 'GET', 'access-control-request-headers': 'apikey, authorization' },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('leave the site on loopback and tools without an Origin header served as before', async () => {
    const rest = await calls.rest({ origin: site });
    expect(rest.status).toBe(200);
    expect(rest.headers.get('access-control-allow-origin')).toBe(site);
    expect(rest.headers.get('vary')).toContain('Origin');
    const preflight = await fetch(`${harness.url}/auth/v1/token`, { method: 'OPTIONS', headers: { origin: site, 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(site);
    expect((await calls.rest({})).status).toBe(200);
    expect((await calls.auth({})).status).toBe(400);
    expect((await calls.storage({})).status).toBe(200);
  });

  it('follow ALLOWED_ORIGINS when it is set', async () => {
    env.ALLOWED_ORIGINS = 'https://www.example.de';
    try {
      expect((await calls.rest({ origin: 'https://www.example.de' })).status).toBe(200);
      expect((await calls.rest({ origin: site })).status).toBe(403);
    } finally {
      Reflect.deleteProperty(env, 'ALLOWED_ORIGINS');
    }
  });

  it('cannot open a realtime socket', async () => {
    const open = (origin: string) =>
      new Promise<string>((resolvePromise) => {
        const socket = new WebSocket(`${harness.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${LOCAL_SERVICE_ROLE_KEY}&vsn=1.0.0`, { origin });
        socket.on('open', () => {
          socket.close();
          resolvePromise('open');
        });
        socket.on('unexpected-response', (_request, response) => resolvePromise(String(response.statusCode)));
        socket.on('error', () => resolvePromise('error'));
      });
    expect(await open(evil)).toBe('403');
    expect(await open(site)).toBe('open');
  });
});
