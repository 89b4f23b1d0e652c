/**
 * The edge functions host, driven over real HTTP: supabase-js `functions.invoke` and raw fetch
 * against the test functions in tests/fixtures/functions.
 */
import { resolve } from 'node:path';
import { FunctionsHttpError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ANON_KEY, LOCAL_JWT_SECRET, LOCAL_SERVICE_ROLE_KEY } from '../../supabase/local/config';
import { verifyJwtSettings } from '../../supabase/local/functions';
import { signJwt } from '../../supabase/local/jwt';
import { startHarness, type Harness } from './harness';

const functionsDir = resolve(import.meta.dirname, '../fixtures/functions');

interface Echo {
  method: string;
  path: string;
  query: Record<string, string>;
  authorization: string | null;
  echoHeader: string | null;
  contentType: string | null;
  body: string | null;
  env: Record<string, string | null>;
}

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ functionsDir, functionEnv: { ECHO_SECRET: 'fixture-secret' } });
});

afterAll(async () => {
  await harness.close();
});

const authorized = { apikey: LOCAL_ANON_KEY, authorization: `Bearer ${LOCAL_ANON_KEY}` };

describe('functions host', () => {
  it('passes the request and the environment to the function', async () => {
    const result = await harness.anon().functions.invoke<Echo>('echo/sub/path?lang=de', {
      body: { question: 'Wie geht es?' },
      headers: { 'x-echo': 'hello' },
    });
    const error: unknown = result.error;
    expect(error).toBeNull();
    expect(result.data).toMatchObject({
      method: 'POST',
      path: '/echo/sub/path',
      query: { lang: 'de' },
      authorization: `Bearer ${LOCAL_ANON_KEY}`,
      echoHeader: 'hello',
      contentType: 'application/json',
      body: JSON.stringify({ question: 'Wie geht es?' }),
      env: {
        SUPABASE_URL: harness.url,
        SUPABASE_ANON_KEY: LOCAL_ANON_KEY,
        SUPABASE_SERVICE_ROLE_KEY: LOCAL_SERVICE_ROLE_KEY,
        ECHO_SECRET: 'fixture-secret',
      },
    });
  });

  it('passes a GET with its query string through', async () => {
    const response = await fetch(`${harness.url}/functions/v1/echo?a=1&b=two`, { headers: authorized });
    expect(response.status).toBe(200);
    const echo = (await response.json()) as Echo;
    expect(echo).toMatchObject({ method: 'GET', path: '/echo', query: { a: '1', b: 'two' }, body: null });
  });

  it('lets the function answer its own CORS preflight, without a token', async () => {
    const response = await fetch(`${harness.url}/functions/v1/echo`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-handled-by')).toBe('echo');
    expect(response.headers.get('access-control-allow-headers')).toContain('x-echo');
    expect(await response.text()).toBe('ok');
  });

  it('forwards the client address in X-Forwarded-For and overwrites what the client wrote there', async () => {
    const direct = await fetch(`${harness.url}/functions/v1/forwarded`, { headers: authorized });
    expect(await direct.json()).toEqual({ forwardedFor: '127.0.0.1' });

    const proxied = await fetch(`${harness.url}/functions/v1/forwarded`, {
      headers: { ...authorized, 'x-forwarded-for': '203.0.113.7, 10.0.0.1' },
    });
    expect(await proxied.json()).toEqual({ forwardedFor: '127.0.0.1' });
  });

  it('streams server-sent events as they are produced', async () => {
    const response = await fetch(`${harness.url}/functions/v1/stream`, { method: 'POST', headers: authorized });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const body = response.body;
    if (!body) throw new Error('no body');
    const reader = body.getReader();
    const decoder = new TextDecoder();

    // The function holds the stream open until released, so this read only completes if the
    // host forwarded the first event without waiting for the end of the body.
    const first = await reader.read();
    expect(decoder.decode(first.value)).toBe('data: first\n\n');

    const release = await fetch(`${harness.url}/functions/v1/stream?release`, { headers: authorized });
    expect(await release.json()).toEqual({ released: true });

    let rest = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += decoder.decode(value, { stream: true });
    }
    expect(rest).toBe('data: second\n\ndata: [DONE]\n\n');
  });

  it('answers 500 when a function throws and keeps serving', async () => {
    const result = await harness.anon().functions.invoke('boom');
    const error: unknown = result.error;
    expect(result.data).toBeNull();
    expect(error).toBeInstanceOf(FunctionsHttpError);
    const context = (error as FunctionsHttpError).context as Response;
    expect(context.status).toBe(500);
    expect(await context.json()).toEqual({ error: expect.any(String) as string });

    const next = await harness.anon().functions.invoke<Echo>('echo', { body: { again: true } });
    const nextError: unknown = next.error;
    expect(nextError).toBeNull();
    expect(next.data?.body).toBe('{"again":true}');
  });

  it('answers 404 for a missing function and for names that are not function slugs', async () => {
    for (const name of ['missing', '_shared', 'Echo', '..%2Fecho', 'echo.ts', 'echo%00']) {
      const response = await fetch(`${harness.url}/functions/v1/${name}`, { method: 'POST', headers: authorized });
      expect(response.status, name).toBe(404);
      expect(await response.json()).toEqual({ code: 'NOT_FOUND', message: 'Requested function was not found' });
    }
    const preflight = await fetch(`${harness.url}/functions/v1/missing`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(404);
  });

  it('requires a valid JWT, as verify_jwt does by default', async () => {
    const missing = await fetch(`${harness.url}/functions/v1/echo`, { method: 'POST', headers: { apikey: LOCAL_ANON_KEY } });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ code: 401, message: 'Missing authorization header' });

    const now = Math.floor(Date.now() / 1000);
    const tokens = [
      'not-a-jwt',
      signJwt({ role: 'anon', exp: now + 60 }, 'another-secret-that-is-at-least-32-characters'),
      signJwt({ role: 'authenticated', sub: 'x', exp: now - 10 }, LOCAL_JWT_SECRET),
    ];
    for (const token of tokens) {
      const response = await fetch(`${harness.url}/functions/v1/echo`, {
        method: 'POST',
        headers: { apikey: LOCAL_ANON_KEY, authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ code: 401, message: 'Invalid JWT' });
    }

    const user = signJwt({ role: 'authenticated', sub: 'someone', exp: now + 60 }, LOCAL_JWT_SECRET);
    const ok = await fetch(`${harness.url}/functions/v1/echo`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user}` },
      body: 'plain',
    });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as Echo).body).toBe('plain');
  });
});

describe('verify_jwt settings from config.toml', () => {
  it('reads verify_jwt per function and ignores other tables', () => {
    const settings = verifyJwtSettings(
      [
        '[functions.coach]',
        'enabled = true',
        'verify_jwt = true',
        '',
        '[functions."public-hook"] # webhooks carry no user token',
        'verify_jwt = false  # checked inside the function',
        '',
        '[auth]',
        'verify_jwt = false',
        '[functions.tts]',
        'entrypoint = "./functions/tts/index.ts"',
      ].join('\n'),
    );
    expect(Object.fromEntries(settings)).toEqual({ coach: true, 'public-hook': false });
  });
});
