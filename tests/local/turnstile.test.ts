/**
 * The human check, where the operator sets Turnstile's keys: Supabase Auth's CAPTCHA protection
 * and anonymous sign-in on the local stack (with Cloudflare's documented test secrets, offline),
 * and the spending functions serving only a visitor with such a session, its budget keyed on the
 * session as well as the address. Over real HTTP with supabase-js, as the page signs in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TURNSTILE_DUMMY_TOKEN, TURNSTILE_TEST_SECRETS, TurnstileSecretError } from '../../supabase/local/auth/captcha';
import { configFromEnv, LOCAL_ANON_KEY } from '../../supabase/local/config';
import { startFakeElevenLabs, type FakeElevenLabs } from '../fixtures/fakeProviders/fakeElevenLabs';
import { ADMIN, clientAt, startHarness, type Harness } from './harness';
import { expectWarnings, SPEND_WARNINGS } from './warnings';

const decode = (token: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

describe('without Turnstile (the local default)', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness.close();
  });

  it('refuses anonymous sign-ins as GoTrue does with them switched off', async () => {
    const { data, error } = await harness.anon().auth.signInAnonymously({ options: { captchaToken: TURNSTILE_DUMMY_TOKEN } });
    expect(data.session).toBeNull();
    expect(error).toMatchObject({ status: 422, code: 'anonymous_provider_disabled', message: 'Anonymous sign-ins are disabled' });
  });
});

describe('a real Turnstile secret', () => {
  it('is refused at start: the local stack never calls Cloudflare', () => {
    expect(() => configFromEnv({ TURNSTILE_SECRET_KEY: '0x4AAAAAAAreal-secret' })).toThrow(TurnstileSecretError);
    expect(() => configFromEnv({ TURNSTILE_SECRET_KEY: '0x4AAAAAAAreal-secret' })).toThrow(/1x0000000000000000000000000000000AA/u);
    expect(configFromEnv({ TURNSTILE_SECRET_KEY: TURNSTILE_TEST_SECRETS.passes }).captchaSecret).toBe(TURNSTILE_TEST_SECRETS.passes);
    expect(configFromEnv({}).captchaSecret).toBeNull();
  });
});

describe('with Turnstile', () => {
  let harness: Harness;
  let voice: FakeElevenLabs;
  const env: Record<string, string> = {};
  const clients: { close: () => Promise<void> }[] = [];
  const from = (address: string) => {
    const client = clientAt(address);
    clients.push(client);
    return client.fetch;
  };
  let warnings: ReturnType<typeof expectWarnings>;

  beforeAll(async () => {
    voice = await startFakeElevenLabs();
    Object.assign(env, {
      TURNSTILE_SECRET_KEY: TURNSTILE_TEST_SECRETS.passes,
      ELEVENLABS_API_KEY: 'el-turnstile-test-0123456789',
      ELEVENLABS_BASE_URL: voice.url,
      ELEVENLABS_VOICE_ID: 'turnstile-voice',
      // A client's (and a session's) budget: 50 characters; a network's: 200.
      SPEND_CAP_TTS_CHARACTERS: '1000',
    });
    voice.control.realTimeFactor = 0;
    voice.control.durationSeconds = 0.2;
    harness = await startHarness({ captchaSecret: TURNSTILE_TEST_SECRETS.passes, anonymousSignInsPerHour: 6, functionEnv: env });
    // A budget this small cannot hold the greeting: the functions say so, and this test expects it.
    warnings = expectWarnings(SPEND_WARNINGS);
  });

  afterAll(async () => {
    warnings.restore();
    await Promise.all(clients.map((client) => client.close()));
    await harness.close();
    await voice.close();
  });

  it('signs a visitor in anonymously with the token the test site key hands out, and only with it', async () => {
    const visitor = harness.anon();
    const missing = await visitor.auth.signInAnonymously();
    expect(missing.error).toMatchObject({ status: 400, code: 'captcha_failed', message: 'captcha protection: request disallowed (no captcha_token found)' });
    const wrong = await visitor.auth.signInAnonymously({ options: { captchaToken: 'made-up' } });
    expect(wrong.error).toMatchObject({ status: 400, code: 'captcha_failed', message: 'captcha protection: request disallowed (invalid-input-response)' });

    const { data, error } = await visitor.auth.signInAnonymously({ options: { captchaToken: TURNSTILE_DUMMY_TOKEN } });
    expect(error).toBeNull();
    expect(data.user?.is_anonymous).toBe(true);
    const claims = decode(data.session?.access_token ?? '');
    expect(claims).toMatchObject({ role: 'authenticated', aud: 'authenticated', is_anonymous: true, amr: [{ method: 'anonymous' }] });
    // A visitor is no operator: no profile, so the dashboard's totalUsers does not count it.
    const profile = await harness.stack.db.query('select 1 from public.users where id = $1', [data.user?.id]);
    expect(profile.rows).toEqual([]);
    // The session refreshes like any other.
    expect((await visitor.auth.refreshSession()).error).toBeNull();
  });

  it('limits anonymous sign-ins per address (config.toml anonymous_users)', async () => {
    const statuses: number[] = [];
    const at = from('127.0.3.1');
    for (let attempt = 0; attempt < 7; attempt += 1) {
      const response = await at(`${harness.url}/auth/v1/signup`, {
        method: 'POST',
        headers: { apikey: LOCAL_ANON_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ data: {}, gotrue_meta_security: { captcha_token: TURNSTILE_DUMMY_TOKEN } }),
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
  });

  it('still closes sign-up with an e-mail address, through the before-user-created hook', async () => {
    const { error } = await harness.anon().auth.signUp({ email: 'neu@example.com', password: 'password-123', options: { captchaToken: TURNSTILE_DUMMY_TOKEN } });
    expect(error).toMatchObject({ status: 403, message: "Sign-ups are closed: operators are created by the site's owner." });
    expect((await harness.stack.db.query(`select 1 from auth.users where email = 'neu@example.com'`)).rows).toEqual([]);
  });

  it('asks the operator for a token at the password sign-in too, as CAPTCHA protection does', async () => {
    const without = await harness.anon().auth.signInWithPassword(ADMIN);
    expect(without.error).toMatchObject({ status: 400, code: 'captcha_failed' });
    const withToken = await harness.anon().auth.signInWithPassword({ ...ADMIN, options: { captchaToken: TURNSTILE_DUMMY_TOKEN } });
    expect(withToken.error).toBeNull();
  });

  async function sessionToken(): Promise<string> {
    const { data, error } = await harness.anon().auth.signInAnonymously({ options: { captchaToken: TURNSTILE_DUMMY_TOKEN } });
    if (error) throw error;
    return data.session?.access_token ?? '';
  }

  const speak = (at: typeof fetch, token: string, text: string) =>
    at(`${harness.url}/functions/v1/tts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, apikey: LOCAL_ANON_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    });

  it('serves the spending functions only to a visitor with a session', async () => {
    const withAnonKey = await speak(fetch, LOCAL_ANON_KEY, 'Hallo.');
    expect(withAnonKey.status).toBe(401);
    expect(await withAnonKey.json()).toEqual({
      error: { message: 'Bitte bestätige zuerst, dass du kein Bot bist, und lade die Seite neu.', code: 'session_required' },
    });
    const coach = await fetch(`${harness.url}/functions/v1/coach/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${LOCAL_ANON_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'Hallo' }] }),
    });
    expect(coach.status).toBe(401);
    expect(voice.requests()).toHaveLength(0);

    const spoken = await speak(fetch, await sessionToken(), 'Hallo.');
    expect(spoken.status).toBe(200);
    await spoken.arrayBuffer();
  });

  it('keys the budget on the session as well as the address: one session from two networks gets one budget', async () => {
    const token = await sessionToken();
    const text = 'Atme ruhig ein und langsam wieder aus, bitte.'; // 45 characters of a budget of 50
    const first = await speak(from('127.0.4.1'), token, text);
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    // Another address in another network: the address's budget is fresh, the session's is not.
    const second = await speak(from('127.0.5.1'), token, text);
    expect(second.status).toBe(429);
    expect(((await second.json()) as { error: { code: string } }).error.code).toBe('budget_exhausted');
    // Another visitor at that address is served.
    const other = await speak(from('127.0.5.1'), await sessionToken(), text);
    expect(other.status).toBe(200);
    await other.arrayBuffer();
    const sessions = await harness.stack.db.query<{ client: string }>(`select client from public.client_spend where scope = 'session' and amount > 0`);
    expect(sessions.rows.length).toBeGreaterThanOrEqual(2);
  });
});
