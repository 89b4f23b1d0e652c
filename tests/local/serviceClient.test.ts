/**
 * The functions' supabase-js client (`supabase/functions/_shared/supabase.ts`) against the real
 * local stack: one client per project and key for the life of an instance, the caller's identity
 * as GoTrue reports it, an unreachable GoTrue told apart from an unknown caller, and reads that
 * fail at once instead of postgrest-js's retries.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerUser, serviceClient } from '../../supabase/functions/_shared/supabase';
import { defaultVoiceSettings } from '../../supabase/functions/_shared/voiceSettings';
import { activeVoiceSettings } from '../../supabase/functions/tts/voiceChoice';
import { LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY } from '../../supabase/local/config';
import { ADMIN, startHarness, type Harness } from './harness';

let harness: Harness;
const envFor = (url: string) => ({ SUPABASE_URL: url, SUPABASE_ANON_KEY: LOCAL_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY: LOCAL_SERVICE_ROLE_KEY });
const withToken = (token: string) => new Request('http://function.local/x', { headers: { authorization: `Bearer ${token}` } });

async function tokenOf(client: Awaited<ReturnType<Harness['signedIn']>>): Promise<string> {
  const { data } = await client.auth.getSession();
  return data.session?.access_token ?? '';
}

beforeAll(async () => {
  harness = await startHarness();
});

afterAll(async () => {
  await harness.close();
});

describe('serviceClient', () => {
  it('is created once per project and key, not per request', () => {
    const env = envFor(harness.url);
    expect(serviceClient({ ...env })).toBe(serviceClient({ ...env }));
    expect(serviceClient({ ...env, SUPABASE_URL: `${harness.url}/` })).toBe(serviceClient(env));
    expect(serviceClient({ ...env, SUPABASE_URL: 'http://127.0.0.1:9' })).not.toBe(serviceClient(env));
  });

  it('says which variables are missing', () => {
    expect(() => serviceClient({ SUPABASE_URL: harness.url })).toThrow(
      'SUPABASE_URL, SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY must be set',
    );
  });

  it('works with the service role: reads a table whose policies let no visitor in', async () => {
    const { data, error } = await serviceClient(envFor(harness.url)).from('voice_configs').select('is_active').eq('is_active', true);
    expect(error).toBeNull();
    expect(data).toEqual([{ is_active: true }]);
  });
});

describe('callerUser', () => {
  it('knows an admin, a signed-in member and nobody behind the anon key, a forged token or no header', async () => {
    const supabase = serviceClient(envFor(harness.url));
    const admin = await callerUser(supabase, withToken(await tokenOf(await harness.signedIn(ADMIN.email, ADMIN.password))));
    expect(admin).toEqual({ id: expect.any(String) as string, isAdmin: true });
    const member = await callerUser(supabase, withToken(await tokenOf(await harness.user('caller@example.com'))));
    expect(member).toEqual({ id: expect.any(String) as string, isAdmin: false });
    expect(await callerUser(supabase, withToken(LOCAL_ANON_KEY))).toBeNull();
    const [header = '', , signature = ''] = LOCAL_SERVICE_ROLE_KEY.split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ sub: admin?.id, role: 'authenticated', app_metadata: { role: 'admin' } })).toString('base64url')}.${signature}`;
    expect(await callerUser(supabase, withToken(forged))).toBeNull();
    expect(await callerUser(supabase, new Request('http://function.local/x'))).toBeNull();
    expect(await callerUser(supabase, withToken(''))).toBeNull();
  });

  it('fails, rather than calling the caller nobody, when GoTrue does not answer', async () => {
    const unreachable = serviceClient(envFor('http://127.0.0.1:9'));
    await expect(callerUser(unreachable, withToken(LOCAL_ANON_KEY))).rejects.toThrow();
  });
});

describe('reads', () => {
  it('are not retried: a 503 from PostgREST is asked once and the fallback is used at once', async () => {
    let requests = 0;
    const unavailable = createServer((_request, response) => {
      requests += 1;
      response.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'schema cache not loaded' }));
    });
    await new Promise<void>((resolvePromise) => unavailable.listen(0, '127.0.0.1', resolvePromise));
    try {
      const { port } = unavailable.address() as AddressInfo;
      expect(await activeVoiceSettings(serviceClient(envFor(`http://127.0.0.1:${String(port)}`)))).toEqual(defaultVoiceSettings);
      expect(requests).toBe(1);
    } finally {
      await new Promise((resolvePromise) => unavailable.close(resolvePromise));
    }
  });
});
