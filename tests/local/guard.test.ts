/**
 * The guard of the functions that spend money, over real HTTP against the local stack: limits
 * shared in Postgres, a client identity the client cannot write, concurrent streams, spend caps.
 * Distinct clients are distinct loopback source addresses (127.0.0.x), as distinct machines are
 * behind the gateway. The providers are the fake OpenAI and ElevenLabs servers.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { originAllowed } from '../../supabase/functions/_shared/cors';
import { clientIdentity, guardMessages, UNKNOWN_CLIENT } from '../../supabase/functions/_shared/guard';
import { configFromEnv, isLoopbackHost, LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY } from '../../supabase/local/config';
import { startFakeElevenLabs, type FakeElevenLabs } from '../fixtures/fakeProviders/fakeElevenLabs';
import { embeddingTokens } from '../fixtures/fakeProviders/fakeEmbeddings';
import { DEFAULT_REPLY, startFakeOpenAI, tokenize, type FakeOpenAI } from '../fixtures/fakeProviders/fakeOpenAI';
import { ADMIN, clientAt as harnessClientAt, startHarness, type Harness } from './harness';

const MODEL_TOKEN_CAP = 50_000;

type Handler = (request: Request, env: Record<string, string>) => Promise<Response>;

const clients: { close: () => Promise<void> }[] = [];

/** A fetch whose connections leave from `address`: another machine, as the functions see it. */
function clientAt(address: string): typeof fetch {
  const client = harnessClientAt(address);
  clients.push(client);
  return client.fetch;
}

const question = { messages: [{ role: 'user', content: 'Wie schlafe ich besser?' }] };

function coach(harness: Harness, body: unknown, options: { from?: typeof fetch; headers?: Record<string, string>; signal?: AbortSignal } = {}) {
  return (options.from ?? fetch)(`${harness.url}/functions/v1/coach/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${LOCAL_ANON_KEY}`, 'content-type': 'application/json', ...options.headers },
    body: JSON.stringify(body),
    signal: options.signal,
  });
}

/** Today's spend as the system-settings function reads it (with the service role). */
async function usageToday(harness: Harness): Promise<{ modelTokens: number; ttsCharacters: number; sttSeconds: number }> {
  const { data, error } = await harness.service().rpc('usage_today');
  if (error) throw error;
  return data as { modelTokens: number; ttsCharacters: number; sttSeconds: number };
}

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
});

describe('client identity', () => {
  const request = (headers: Record<string, string>) => new Request('http://function.test/coach', { headers });

  it('is the right-most X-Forwarded-For entry (the one the gateway appended), or the configured header', () => {
    expect(clientIdentity(request({ 'x-forwarded-for': '10.0.7.1, 203.0.113.9' }), {})).toBe('203.0.113.9');
    expect(clientIdentity(request({ 'x-forwarded-for': '203.0.113.9:52044' }), {})).toBe('203.0.113.9');
    expect(clientIdentity(request({ 'x-forwarded-for': '10.0.0.1', 'cf-connecting-ip': '198.51.100.3' }), { CLIENT_IP_HEADER: 'CF-Connecting-IP' })).toBe('198.51.100.3');
  });

  it('is the /64 of an IPv6 address, however it is written, and the IPv4 address of a mapped one', () => {
    const key = '2001:db8:7:9::/64';
    for (const address of ['2001:DB8:7:9::1', '2001:db8:7:9:ffff:1:2:3', '2001:0db8:0007:0009:0:0:0:1', '[2001:db8:7:9::abcd]:443', '2001:db8:7:9::1%eth0']) {
      expect(clientIdentity(request({ 'x-forwarded-for': `10.0.0.1, ${address}` }), {})).toBe(key);
    }
    expect(clientIdentity(request({ 'x-forwarded-for': '2001:db8:7:a::1' }), {})).toBe('2001:db8:7:a::/64');
    expect(clientIdentity(request({ 'x-forwarded-for': '::ffff:198.51.100.7' }), {})).toBe('198.51.100.7');
    expect(clientIdentity(request({ 'x-forwarded-for': '1::2::3' }), {})).toBe(UNKNOWN_CLIENT);
    expect(clientIdentity(request({ 'x-forwarded-for': '256.1.1.1' }), {})).toBe(UNKNOWN_CLIENT);
  });

  it('puts requests without a usable address into one shared bucket', () => {
    expect(clientIdentity(request({}), {})).toBe(UNKNOWN_CLIENT);
    expect(clientIdentity(request({ 'x-forwarded-for': '203.0.113.9, not an address' }), {})).toBe(UNKNOWN_CLIENT);
    expect(clientIdentity(request({ 'x-forwarded-for': '203.0.113.9, ' }), {})).toBe(UNKNOWN_CLIENT);
  });
});

describe('per-client limits shared in Postgres', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness({ functionEnv: { COACH_RATE_LIMIT: '3', COACH_DAILY_LIMIT: '5' } });
  });

  afterAll(async () => {
    await harness.close();
  });

  it('limits a burst with a new made-up X-Forwarded-For each time like one client', async () => {
    const from = clientAt('127.0.0.11');
    const statuses: number[] = [];
    for (let n = 0; n < 8; n++) {
      const response = await coach(harness, question, { from, headers: { 'x-forwarded-for': `10.0.${String(n)}.1` } });
      statuses.push(response.status);
      await response.body?.cancel();
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);

    // Another machine has its own allowance.
    const other = await coach(harness, question, { from: clientAt('127.0.0.12') });
    expect(other.status).toBe(200);
    await other.body?.cancel();
  });

  it('shares the count between two instances of the function', async () => {
    const env = {
      SUPABASE_URL: harness.url,
      SUPABASE_ANON_KEY: LOCAL_ANON_KEY,
      SUPABASE_SERVICE_ROLE_KEY: LOCAL_SERVICE_ROLE_KEY,
      COACH_RATE_LIMIT: '4',
    };
    // Two module instances: each has its own memory, as two edge function instances have.
    vi.resetModules();
    const first = ((await import('../../supabase/functions/coach/handler'))).handle;
    vi.resetModules();
    const second = ((await import('../../supabase/functions/coach/handler'))).handle;
    expect(first).not.toBe(second);

    const call = async (handle: Handler) => {
      const request = new Request('http://function.test/coach/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.50' },
        body: JSON.stringify(question),
      });
      const response = await handle(request, env);
      await response.body?.cancel();
      return response.status;
    };
    const statuses = [await call(first), await call(second), await call(first), await call(second), await call(first), await call(second)];
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it('counts a client per day as well as per minute, and holds stream slots', async () => {
    const service = harness.service();
    const admit = async (perMinute: number, perDay: number, concurrent = 0) => {
      const { data, error } = await service.rpc('admit_request' as never, {
        p_fn: 'stt',
        p_client: '203.0.113.60',
        p_per_minute: perMinute,
        p_per_day: perDay,
        p_max_concurrent: concurrent,
      } as never);
      if (error) throw error;
      return data as { allowed: boolean; reason?: string; retryAfter?: number; lease: string | null };
    };
    expect((await admit(100, 2, 1)).allowed).toBe(true);
    const second = await admit(100, 2, 1);
    expect(second).toMatchObject({ allowed: false, reason: 'concurrency' });
    const third = await admit(100, 2);
    expect(third).toMatchObject({ allowed: false, reason: 'rate_day' });
    expect(third.retryAfter).toBeGreaterThan(0);
    expect(third.retryAfter).toBeLessThanOrEqual(25 * 3600);
    const minute = await admit(1, 100);
    expect(minute).toMatchObject({ allowed: false, reason: 'rate_minute' });
  });

  it('keeps the counters away from visitors', async () => {
    const anon = harness.anon();
    const admitted = await anon.rpc('admit_request' as never, { p_fn: 'coach', p_client: 'x', p_per_minute: 1000, p_per_day: 1000 } as never);
    expect(admitted.error).not.toBeNull();
    const spent = await anon.rpc('record_spend' as never, { p_kind: 'model_tokens', p_amount: -1_000_000 } as never);
    expect(spent.error).not.toBeNull();
    const usage = await anon.rpc('usage_today');
    expect(usage.error).not.toBeNull();
    const member = await harness.user('member@example.com');
    for (const caller of [anon, member, await harness.signedIn(ADMIN.email, ADMIN.password)]) {
      // Admins read the usage through the system-settings function, never the database directly.
      expect((await caller.rpc('usage_today')).error?.code).toBe('42501');
      const reserved = await caller.rpc('reserve_spend' as never, { p_client: 'x', p_kind: 'model_tokens', p_amount: 1, p_cap: 10, p_budget: 10 } as never);
      expect(reserved.error).not.toBeNull();
      const settled = await caller.rpc('settle_spend' as never, { p_reservation: '00000000-0000-4000-8000-000000000000', p_amount: 0 } as never);
      expect(settled.error).not.toBeNull();
    }
  });
});

describe('concurrent streams and the spend cap', () => {
  let fake: FakeOpenAI;
  let voice: FakeElevenLabs;
  let harness: Harness;

  beforeAll(async () => {
    [fake, voice] = await Promise.all([startFakeOpenAI(), startFakeElevenLabs()]);
    harness = await startHarness({
      functionEnv: {
        OPENAI_API_KEY: 'sk-guard-test-0123456789abcdef',
        OPENAI_BASE_URL: fake.url,
        ELEVENLABS_API_KEY: 'el-guard-test-0123456789abcdef',
        ELEVENLABS_BASE_URL: voice.url,
        ELEVENLABS_VOICE_ID: 'guard-test-voice',
        COACH_CONCURRENT_LIMIT: '1',
        SPEND_CAP_MODEL_TOKENS: String(MODEL_TOKEN_CAP),
        SPEND_CAP_TTS_CHARACTERS: '45',
        // These tests are about the caps of all clients together: a client may spend all of them.
        CLIENT_BUDGET_PERCENT: '100',
      },
    });
  });

  afterEach(() => {
    fake.reset();
    voice.reset();
  });

  afterAll(async () => {
    await harness.close();
    await Promise.all([fake.close(), voice.close()]);
  });

  it('refuses a second stream of the same client while the first runs, and admits one after it ended', async () => {
    fake.control.tokensPerSecond = 20;
    const from = clientAt('127.0.0.21');
    const running = await coach(harness, { ...question, stream: true }, { from });
    expect(running.status).toBe(200);

    const refused = await coach(harness, { ...question, stream: true }, { from });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: { message: guardMessages.concurrent, code: 'too_many_streams' } });
    const elsewhere = await coach(harness, { ...question, stream: true }, { from: clientAt('127.0.0.22') });
    expect(elsewhere.status).toBe(200);

    await Promise.all([running.text(), elsewhere.text()]);
    const next = await coach(harness, { ...question, stream: true }, { from });
    expect(next.status).toBe(200);
    await next.text();
    expect(fake.requests()).toHaveLength(3);
    // The coach asks for the usage report the spend cap counts.
    expect(fake.requests()[0]?.body).toMatchObject({ stream_options: { include_usage: true } });
  });

  it('counts the tokens the model reports, and once the cap is reached answers that the live test is paused', async () => {
    const from = clientAt('127.0.0.23');
    const before = await usageToday(harness);
    const answered = await coach(harness, { ...question, stream: true }, { from });
    expect(answered.status).toBe(200);
    await answered.text();
    // What the fake model reported for this request: its prompt and reply in word-sized tokens.
    const body = fake.requests()[0]?.body as { messages: unknown[] };
    const reported = tokenize(body.messages.map((message) => JSON.stringify(message)).join(' ')).length + tokenize(DEFAULT_REPLY).length;
    // The question's embedding (asked while the full-text search runs) is billed in model tokens too.
    const embedded = embeddingTokens(fake.embeddings().flatMap((request) => (request.body as { input: string[] }).input));
    const after = await usageToday(harness);
    expect(after.modelTokens - before.modelTokens).toBe(reported + embedded);

    // The rest of the day's budget is spent elsewhere; the next question costs nothing and says so.
    const { error } = await harness.service().rpc('record_spend' as never, { p_kind: 'model_tokens', p_amount: MODEL_TOKEN_CAP } as never);
    expect(error).toBeNull();
    fake.reset();
    // A question of its own, so that no embedding of the answered one can be mistaken for it.
    const pausedQuestion = { messages: [{ role: 'user', content: 'Was hilft gegen Lampenfieber?' }] };
    const paused = await coach(harness, pausedQuestion, { from });
    expect(paused.status).toBe(200);
    expect(paused.headers.get('x-coach-mode')).toBe('paused');
    const completion = (await paused.json()) as { choices: { message: { content: string } }[] };
    expect(completion.choices[0]?.message.content).toBe('Der Live-Test ist für heute pausiert. Bitte versuche es morgen wieder.');
    const streamed = await coach(harness, { ...pausedQuestion, stream: true }, { from });
    const events = await streamed.text();
    expect(events).toContain('"model":"paused-for-today"');
    expect(events).toContain('"content":" pausiert."');
    expect(fake.requests()).toHaveLength(0);
    // A refused question is neither searched nor embedded.
    expect(JSON.stringify(fake.embeddings().map((request) => request.body))).not.toContain('Lampenfieber');
    expect((await usageToday(harness)).modelTokens).toBe(after.modelTokens + MODEL_TOKEN_CAP);
  });

  it('counts synthesised characters and refuses text-to-speech once the cap is reached', async () => {
    const tts = (text: string) =>
      clientAt('127.0.0.24')(`${harness.url}/functions/v1/tts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${LOCAL_ANON_KEY}`, apikey: LOCAL_ANON_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ text }),
      });
    const spoken = await tts('Hallo, schön dass du da bist.');
    expect(spoken.status).toBe(200);
    await spoken.arrayBuffer();
    expect((await usageToday(harness)).ttsCharacters).toBe('Hallo, schön dass du da bist.'.length);

    // The next synthesis reserves its body's size (25 bytes): 29 + 25 is more than the cap of 45.
    const refused = await tts('Noch ein Satz.');
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({ error: { message: guardMessages.paused, code: 'spend_cap_reached' } });
    expect(voice.requests()).toHaveLength(1);
  });
});

describe('allowed origins', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness({ functionEnv: { ALLOWED_ORIGINS: 'https://www.example.de, https://example.de/' } });
  });

  afterAll(async () => {
    await harness.close();
  });

  const preflight = (origin: string) =>
    fetch(`${harness.url}/functions/v1/coach/chat/completions`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });

  it('grants CORS to the listed origins only', async () => {
    const own = await preflight('https://example.de');
    expect(own.status).toBe(204);
    expect(own.headers.get('access-control-allow-origin')).toBe('https://example.de');
    expect(own.headers.get('vary')).toContain('Origin');

    const foreign = await preflight('https://other-site.example');
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const answer = await coach(harness, question, { headers: { origin: 'https://other-site.example' } });
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    const tts = await fetch(`${harness.url}/functions/v1/tts`, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173' } });
    expect(tts.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('allows the local site on loopback when no list is set', () => {
    expect(originAllowed('http://localhost:5173', {})).toBe(true);
    expect(originAllowed('http://127.0.0.1:4179', {})).toBe(true);
    expect(originAllowed('https://evil.example', {})).toBe(false);
    expect(originAllowed('http://localhost.evil.example', {})).toBe(false);
    expect(originAllowed('http://localhost:5173', { ALLOWED_ORIGINS: 'https://example.de' })).toBe(false);
  });
});

describe('loopback only', () => {
  it('refuses to listen on an address other than loopback unless forced', async () => {
    await expect(startHarness({ host: '0.0.0.0' })).rejects.toThrow(/Refusing to listen on 0\.0\.0\.0.*SUPABASE_LOCAL_ALLOW_REMOTE=1/u);
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('localhost')).toBe(true);
    expect(isLoopbackHost('::1')).toBe(true);
    expect(isLoopbackHost('192.168.1.5')).toBe(false);
    expect(isLoopbackHost('::')).toBe(false);
    expect(isLoopbackHost('')).toBe(false);
    expect(isLoopbackHost('127.0.0.1.example.com')).toBe(false);
  });

  it('listens on 127.0.0.1 unless told otherwise, and an empty or wildcard host needs the flag', async () => {
    expect(configFromEnv({}).host).toBe('127.0.0.1');
    expect(configFromEnv({}).allowRemote).toBe(false);
    expect(configFromEnv({ SUPABASE_LOCAL_ALLOW_REMOTE: '1' }).allowRemote).toBe(true);
    for (const host of ['', '::', '0.0.0.0']) {
      await expect(startHarness({ host: configFromEnv({ SUPABASE_LOCAL_HOST: host }).host })).rejects.toThrow(/Refusing to listen/u);
    }
  });
});
