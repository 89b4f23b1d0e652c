import { afterEach, describe, expect, it, vi } from 'vitest';
import { env } from '../config/env';
import { installFetch, jsonResponse } from '../../tests/support/browser/browserFakes';
import { callFunction, callFunctionJson, FunctionCallError, functionUrl, providerAvailable, providerMissing } from './edgeFunctions';

afterEach(() => {
  vi.unstubAllGlobals();
});

const functionsBase = `${env.VITE_SUPABASE_URL}/functions/v1`;

describe('callFunction', () => {
  it('sends the anon key as supabase-js does: apikey, and as the bearer token without a signed-in user', async () => {
    const requests = installFetch(() => jsonResponse(200, { ok: true }));
    await callFunction('tts');
    const [request] = requests;
    expect(request?.url).toBe(`${functionsBase}/tts`);
    expect(request?.method).toBe('GET');
    expect(request?.headers.get('apikey')).toBe(env.VITE_SUPABASE_ANON_KEY);
    expect(request?.headers.get('authorization')).toBe(`Bearer ${env.VITE_SUPABASE_ANON_KEY}`);
  });

  it('sends a signed-in user’s token as the bearer, and a JSON body as a POST to the route asked for', async () => {
    const requests = installFetch(() => new Response(null, { status: 204 }));
    await callFunction('coach', { path: 'rating', json: { rating: 4 }, accessToken: 'user-token' });
    const [request] = requests;
    expect(request?.url).toBe(functionUrl('coach', 'rating'));
    expect(request?.method).toBe('POST');
    expect(request?.headers.get('apikey')).toBe(env.VITE_SUPABASE_ANON_KEY);
    expect(request?.headers.get('authorization')).toBe('Bearer user-token');
    expect(request?.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(request?.body ?? '')).toEqual({ rating: 4 });
  });

  it('hands over the response unread, so its body can be read as a stream', async () => {
    installFetch(() => new Response('abc', { status: 200 }));
    const response = await callFunction('tts', { json: {} });
    expect(response.bodyUsed).toBe(false);
    expect(await response.text()).toBe('abc');
  });

  it('rejects with the function’s catalogue message and code from its error body', async () => {
    installFetch(() => jsonResponse(400, { error: { message: 'Der Text ist zu lang oder ungültig für die Sprachausgabe.', code: 'invalid_text' } }));
    const error: unknown = await callFunction('tts', { json: {} }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FunctionCallError);
    expect(error).toMatchObject({
      functionName: 'tts',
      status: 400,
      code: 'invalid_text',
      catalogueMessage: 'Der Text ist zu lang oder ungültig für die Sprachausgabe.',
      message: 'Der Text ist zu lang oder ungültig für die Sprachausgabe.',
    });
  });

  it('rejects with the status alone when the body says nothing, and with status null when nothing answered', async () => {
    installFetch(() => new Response('kaputt', { status: 502 }));
    await expect(callFunction('embed')).rejects.toMatchObject({ status: 502, code: null, catalogueMessage: null, message: 'embed answered 502' });
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(callFunction('embed')).rejects.toMatchObject({ name: 'FunctionCallError', status: null, message: 'Failed to fetch' });
  });

  it('rejects an aborted call with the signal’s own error', async () => {
    vi.stubGlobal('fetch', (_input: RequestInfo | URL, init?: RequestInit) => Promise.reject(init?.signal?.reason as Error));
    const controller = new AbortController();
    controller.abort();
    await expect(callFunction('stt', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('reads an answer as a JSON object, an empty one as {}', async () => {
    installFetch(() => jsonResponse(200, { removed: 3 }));
    expect(await callFunctionJson('system-settings', { method: 'POST', path: 'clear-tts-cache' })).toEqual({ removed: 3 });
    installFetch(() => new Response(null, { status: 204 }));
    expect(await callFunctionJson('coach', { path: 'rating', json: {} })).toEqual({});
  });
});

describe('providerAvailable', () => {
  it('asks each function once per page view; a failed question is null, a not_configured answer makes it false', async () => {
    const requests = installFetch((request) => (request.url.endsWith('/stt') ? jsonResponse(500, {}) : jsonResponse(200, { available: true })));
    expect(await providerAvailable('tts')).toBe(true);
    expect(await providerAvailable('tts')).toBe(true);
    expect(await providerAvailable('stt')).toBeNull();
    expect(requests.map((request) => request.url)).toEqual([`${functionsBase}/tts`, `${functionsBase}/stt`]);
    providerMissing('tts');
    expect(await providerAvailable('tts')).toBe(false);
    expect(requests).toHaveLength(2);
  });
});
