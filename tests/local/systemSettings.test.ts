/**
 * The admin-only `system-settings` edge function on the real local stack over HTTP: provider
 * status with masked keys (the keys themselves never in an answer), the 'not configured' shape,
 * clearing the tts cache bucket, and 403 for everyone but an admin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ANON_KEY } from '../../supabase/local/config';
import { ADMIN, startHarness, type Harness } from './harness';

const OPENAI_KEY = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789x7Qa';
const ELEVENLABS_KEY = 'sk_9f8e7d6c5b4a39281706f5e4d3c2b1a0b5c2';

/** Provider secrets are set on this object; with none set, nothing is configured. */
const env: Record<string, string> = {
  OPENAI_API_KEY: OPENAI_KEY,
  ELEVENLABS_API_KEY: ELEVENLABS_KEY,
  ELEVENLABS_VOICE_ID: 'voice-Mia_01',
};

let harness: Harness;
let adminToken: string;
let memberToken: string;

async function accessToken(client: Awaited<ReturnType<Harness['signedIn']>>): Promise<string> {
  const { data } = await client.auth.getSession();
  return data.session?.access_token ?? '';
}

function call(path: string, token: string, method = 'GET'): Promise<Response> {
  return fetch(`${harness.url}/functions/v1/system-settings${path}`, {
    method,
    headers: { apikey: LOCAL_ANON_KEY, authorization: `Bearer ${token}` },
  });
}

beforeAll(async () => {
  harness = await startHarness({ functionEnv: env });
  adminToken = await accessToken(await harness.signedIn(ADMIN.email, ADMIN.password));
  memberToken = await accessToken(await harness.user('member@example.com'));
});

afterAll(async () => {
  await harness.close();
});

describe('provider status', () => {
  it('tells an admin which providers are configured, with masked keys only', async () => {
    const response = await call('', adminToken);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      languageModel: { configured: true, masked: 'sk-…x7Qa' },
      voice: { configured: true, masked: 'sk_…b5c2' },
    });
    for (const key of [OPENAI_KEY, ELEVENLABS_KEY]) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(key.slice(3, 15));
    }
  });

  it("answers 'not configured' without keys", async () => {
    const saved = { ...env };
    for (const name of Object.keys(env)) Reflect.deleteProperty(env, name);
    try {
      const response = await call('', adminToken);
      expect(await response.json()).toEqual({
        languageModel: { configured: false, masked: null },
        voice: { configured: false, masked: null },
      });
    } finally {
      Object.assign(env, saved);
    }
  });
});

describe('clearing the tts cache', () => {
  it('removes every object of the tts-cache bucket and says how many', async () => {
    const bucket = harness.service().storage.from('tts-cache');
    const audio = new Blob([new Uint8Array([0xff, 0xfb, 0x90, 0x64])], { type: 'audio/mpeg' });
    for (const name of ['a.mp3', 'b.mp3', 'c.mp3']) expect((await bucket.upload(name, audio)).error).toBeNull();

    const cleared = await call('/clear-tts-cache', adminToken, 'POST');
    expect(cleared.status).toBe(200);
    expect(await cleared.json()).toEqual({ removed: 3 });
    expect((await bucket.list()).data).toEqual([]);

    const again = await call('/clear-tts-cache', adminToken, 'POST');
    expect(await again.json()).toEqual({ removed: 0 });
  });
});

describe('who may use it', () => {
  it('refuses a visitor and a signed-in non-admin with 403, and clears nothing for them', async () => {
    const bucket = harness.service().storage.from('tts-cache');
    const audio = new Blob([new Uint8Array([0xff, 0xfb, 0x90, 0x64])], { type: 'audio/mpeg' });
    expect((await bucket.upload('kept.mp3', audio)).error).toBeNull();

    for (const token of [LOCAL_ANON_KEY, memberToken]) {
      for (const [path, method] of [
        ['', 'GET'],
        ['/clear-tts-cache', 'POST'],
      ] as const) {
        const response = await call(path, token, method);
        expect(response.status, `${method} ${path}`).toBe(403);
        const text = await response.text();
        expect(JSON.parse(text)).toEqual({ error: { message: 'Nur für Administratoren.', code: 'forbidden' } });
        expect(text).not.toContain(OPENAI_KEY);
      }
    }
    expect((await bucket.list()).data?.map((entry) => entry.name)).toEqual(['kept.mp3']);
  });

  it('answers an admin 404 for unknown paths and 405 for the wrong method', async () => {
    expect((await call('/nothing', adminToken)).status).toBe(404);
    expect((await call('/clear-tts-cache', adminToken, 'GET')).status).toBe(405);
    expect((await call('', adminToken, 'POST')).status).toBe(405);
  });
});
