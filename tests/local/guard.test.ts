/**
 * The guard of the functions that spend money, over real HTTP against the local stack: limits
 * shared in Postgres, a client identity the client cannot write, concurrent streams, spend caps.
 * Distinct clients are distinct loopback source addresses (127.0.0.x), as distinct machines are
 * behind the gateway. The providers are the fake OpenAI and ElevenLabs servers.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { originAllowed } from '../../supabase/functions/_shared/cors';
import { clientIdentity, guardMessages } from '../../supabase/functions/_shared/guard';
import { configFromEnv, isLoopbackHost, LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY } from '../../supabase/local/config';
import { startFakeElevenLabs, type FakeElevenLabs } from '../fixtures/fakeProviders/fakeElevenLabs';
import { embeddingTokens } from '../fixtures/fakeProviders/fakeEmbeddings';
import { DEFAULT_REPLY, startFakeOpenAI, tokenize, type FakeOpenAI } from '../fixtures/fakeProviders/fakeOpenAI';
import { addCompletedDocument, ADMIN, clientAt as harnessClientAt, startHarness, type Harness } from './harness';
import { expectWarnings, SPEND_WARNINGS } from './warnings';

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
  const xff = { CLIENT_IP_HEADER: 'x-forwarded-for' };
  const client = (headers: Record<string, string>, env: Record<string, string> = xff) => clientIdentity(request(headers), env)?.client ?? null;

  it('is the right-most entry of the configured header (the one the gateway appended)', () => {
    expect(client({ 'x-forwarded-for': '10.0.7.1, 203.0.113.9' })).toBe('203.0.113.9');
    expect(client({ 'x-forwarded-for': '203.0.113.9:52044' })).toBe('203.0.113.9');
    expect(client({ 'x-forwarded-for': '10.0.0.1', 'cf-connecting-ip': '198.51.100.3' }, { CLIENT_IP_HEADER: 'CF-Connecting-IP' })).toBe('198.51.100.3');
  });

  it('is the /64 of an IPv6 address, however it is written, and the IPv4 address of a mapped one', () => {
    const key = '2001:db8:7:9::/64';
    for (const address of ['2001:DB8:7:9::1', '2001:db8:7:9:ffff:1:2:3', '2001:0db8:0007:0009:0:0:0:1', '[2001:db8:7:9::abcd]:443', '2001:db8:7:9::1%eth0']) {
      expect(client({ 'x-forwarded-for': `10.0.0.1, ${address}` })).toBe(key);
    }
    expect(client({ 'x-forwarded-for': '2001:db8:7:a::1' })).toBe('2001:db8:7:a::/64');
    expect(client({ 'x-forwarded-for': '::ffff:198.51.100.7' })).toBe('198.51.100.7');
  });

  it('belongs to its network: the IPv4 /24 or the IPv6 /48', () => {
    expect(clientIdentity(request({ 'x-forwarded-for': '198.51.100.77' }), xff)).toEqual({ client: '198.51.100.77', network: '198.51.100.0/24' });
    expect(clientIdentity(request({ 'x-forwarded-for': '2001:db8:7:a::1' }), xff)).toEqual({ client: '2001:db8:7:a::/64', network: '2001:db8:7::/48' });
    expect(clientIdentity(request({ 'x-forwarded-for': '::ffff:198.51.100.7' }), xff)?.network).toBe('198.51.100.0/24');
  });

  it('is nobody without a usable address, or without a configured header: never a bucket everyone shares', () => {
    expect(client({})).toBeNull();
    expect(client({ 'x-forwarded-for': '203.0.113.9, not an address' })).toBeNull();
    expect(client({ 'x-forwarded-for': '203.0.113.9, ' })).toBeNull();
    expect(client({ 'x-forwarded-for': '1::2::3' })).toBeNull();
    expect(client({ 'x-forwarded-for': '256.1.1.1' })).toBeNull();
    // No default header: on a hosted project X-Forwarded-For carries what the client wrote.
    expect(client({ 'x-forwarded-for': '203.0.113.9' }, {})).toBeNull();
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
      CLIENT_IP_HEADER: 'x-forwarded-for',
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

  // Caps this small are warned about (a budget that cannot hold the greeting) and get reached.
  let warnings: ReturnType<typeof expectWarnings>;
  beforeAll(() => {
    warnings = expectWarnings(SPEND_WARNINGS);
  });
  afterAll(() => {
    warnings.restore();
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

    // The next synthesis reserves its 23 characters: 29 + 23 is more than the cap of 45.
    const refused = await tts('Noch ein weiterer Satz.');
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({ error: { message: guardMessages.paused, code: 'spend_cap_reached' } });
    expect(voice.requests()).toHaveLength(1);
  });
});

describe('budgets, reservations and what is counted', () => {
  let fake: FakeOpenAI;
  let voice: FakeElevenLabs;
  let harness: Harness;
  /** The stack hands the functions this object's current contents on every request. */
  const env: Record<string, string> = {};
  let base: Record<string, string> = {};

  const tts = (from: typeof fetch, text: string) =>
    from(`${harness.url}/functions/v1/tts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${LOCAL_ANON_KEY}`, apikey: LOCAL_ANON_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    });

  /** What one client has spent today, as the guard counts it. */
  async function clientSpend(client: string, kind: string): Promise<number> {
    const { rows } = await harness.stack.db.query<{ amount: string }>(
      `select amount::text from public.client_spend where day = public.spend_day() and client = $1 and kind = $2`,
      [client, kind],
    );
    return Number(rows[0]?.amount ?? 0);
  }

  beforeAll(async () => {
    [fake, voice] = await Promise.all([startFakeOpenAI(), startFakeElevenLabs()]);
    base = {
      OPENAI_API_KEY: 'sk-budget-test-0123456789abcdef',
      OPENAI_BASE_URL: fake.url,
      ELEVENLABS_API_KEY: 'el-budget-test-0123456789abcdef',
      ELEVENLABS_BASE_URL: voice.url,
      ELEVENLABS_VOICE_ID: 'budget-test-voice',
    };
    harness = await startHarness({ functionEnv: env });
  });

  let warnings: ReturnType<typeof expectWarnings>;
  beforeAll(() => {
    warnings = expectWarnings(SPEND_WARNINGS);
  });
  afterAll(() => {
    warnings.restore();
  });

  beforeEach(async () => {
    for (const key of Object.keys(env)) Reflect.deleteProperty(env, key);
    Object.assign(env, base);
    fake.reset();
    voice.reset();
    voice.control.realTimeFactor = 0;
    voice.control.durationSeconds = 0.2;
    await harness.stack.db.exec('delete from public.daily_spend; delete from public.client_spend; delete from public.spend_reservations; delete from public.request_counts; delete from public.active_streams; delete from public.spend_alerts;');
  });

  afterAll(async () => {
    await harness.close();
    await Promise.all([fake.close(), voice.close()]);
  });

  it('stops one client at its budget (5 % of each cap) while everyone else goes on being served', async () => {
    Object.assign(env, { SPEND_CAP_TTS_CHARACTERS: '10000', SPEND_CAP_MODEL_TOKENS: '100000', COACH_RATE_LIMIT: '100', TTS_RATE_LIMIT: '100' });
    const a = clientAt('127.0.0.31');
    const b = clientAt('127.0.0.32');
    const sentence = 'Atme ruhig ein und langsam wieder aus. '.repeat(8).trim();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await tts(a, sentence);
      statuses.push(response.status);
      if (response.status !== 200) expect(await response.json()).toEqual({ error: { message: guardMessages.paused, code: 'budget_exhausted' } });
      else await response.arrayBuffer();
    }
    // 500 characters a day for a client: one synthesis of 311, then the next one no longer fits.
    expect(statuses).toEqual([200, 429, 429, 429, 429]);
    expect(await clientSpend('127.0.0.31', 'tts_characters')).toBe(sentence.length);
    expect((await tts(b, sentence)).status).toBe(200);

    // The coach: long questions until A's budget of 5,000 tokens no longer holds one more (each
    // reserves its prompt, about 3,800 tokens, and settles what the model reported), then the
    // paused answer, for A only.
    const long = { messages: [{ role: 'user', content: 'Ich bin gestresst und kann abends nicht abschalten. '.repeat(38) }] };
    const modes: string[] = [];
    for (let attempt = 0; attempt < 10 && !modes.includes('paused'); attempt += 1) {
      const response = await coach(harness, long, { from: a });
      modes.push(response.headers.get('x-coach-mode') ?? String(response.status));
      await response.text();
    }
    expect(modes.at(-1)).toBe('paused');
    expect(modes.filter((mode) => mode === 'model').length).toBeGreaterThan(0);
    expect(await clientSpend('127.0.0.31', 'model_tokens')).toBeLessThanOrEqual(5000);
    const answered = await coach(harness, question, { from: b });
    expect(answered.headers.get('x-coach-mode')).toBe('model');
    await answered.text();
  });

  it('reserves before spending: a burst of one client never passes the cap', async () => {
    Object.assign(env, { SPEND_CAP_TTS_CHARACTERS: '5000', CLIENT_BUDGET_PERCENT: '100', TTS_CONCURRENT_LIMIT: '50', TTS_RATE_LIMIT: '100' });
    const from = clientAt('127.0.0.33');
    const text = 'x'.repeat(1000);
    const statuses = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const response = await tts(from, text);
        await response.arrayBuffer();
        return response.status;
      }),
    );
    // Each reserves its 1,000 characters: five fit the cap.
    expect(voice.requests().length).toBeLessThanOrEqual(5);
    expect(statuses.filter((status) => status === 200)).toHaveLength(voice.requests().length);
    expect((await usageToday(harness)).ttsCharacters).toBeLessThanOrEqual(5000);
  });

  it('holds a tts slot per synthesis until its audio has streamed (TTS_CONCURRENT_LIMIT)', async () => {
    Object.assign(env, { TTS_CONCURRENT_LIMIT: '1' });
    voice.control.realTimeFactor = 1;
    voice.control.durationSeconds = 1;
    const from = clientAt('127.0.0.34');
    const first = await tts(from, 'Der erste Satz.');
    expect(first.status).toBe(200);
    const second = await tts(from, 'Der zweite Satz.');
    expect(second.status).toBe(429);
    expect(await second.json()).toEqual({ error: { message: guardMessages.concurrent, code: 'too_many_streams' } });
    await first.arrayBuffer();
    voice.control.realTimeFactor = 0;
    const third = await tts(from, 'Der dritte Satz.');
    expect(third.status).toBe(200);
    await third.arrayBuffer();
  });

  it('counts the upper bound of a cut reply: one token per UTF-8 byte of the prompt and max_tokens', async () => {
    // Five sentences: the coach stops reading after the fourth, before the usage report arrives.
    fake.control.reply = 'Atme ein. Halte kurz inne. Atme aus. Wiederhole das. Schlaf gut.';
    fake.control.embeddingMs = 5000;
    // A knowledge base with an embedded passage (only then is the question embedded too) that
    // answers the question word for word, so the embedding is not waited for.
    await addCompletedDocument(harness, 'abendroutine.pdf', 'Vor dem Einschlafen hilft müden Köpfen eine ruhige Abendroutine.');
    await harness.stack.db.exec(`update public.document_chunks set embedding = array_fill(0.01::real, array[1536])::extensions.vector where embedding is null`);
    const question = 'Hilft müden Köpfen vor dem Einschlafen eine ruhige Abendroutine?';
    try {
      const response = await coach(harness, { messages: [{ role: 'user', content: question }], stream: true }, { from: clientAt('127.0.0.35') });
      await response.text();
    } finally {
      await harness.stack.db.exec(`delete from public.documents where title = 'abendroutine.pdf'`);
    }
    const sent = fake.requests()[0]?.body as { messages: { content: string }[]; max_tokens: number };
    const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
    const prompt = sent.messages.reduce((sum, message) => sum + bytes(message.content) + 4, 3);
    // The full-text search was sure of its passage, so the question was never embedded.
    expect(fake.embeddings()).toEqual([]);
    expect(await clientSpend('127.0.0.35', 'model_tokens')).toBe(prompt + sent.max_tokens);
  });

  it('counts a question in a conversation only once it got an answer', async () => {
    const conversations = async () => (await harness.stack.db.query<{ n: number }>('select count(*)::int as n from public.conversations')).rows[0]?.n ?? -1;
    const before = await conversations();
    const from = clientAt('127.0.0.36');
    fake.control.failure = 'http500';
    expect((await coach(harness, question, { from })).status).toBe(502);
    fake.control.failure = 'empty';
    await (await coach(harness, { ...question, stream: true }, { from })).text();
    fake.control.failure = null;
    Object.assign(env, { SPEND_CAP_MODEL_TOKENS: '1' });
    expect((await coach(harness, question, { from })).headers.get('x-coach-mode')).toBe('paused');
    expect(await conversations()).toBe(before);

    Reflect.deleteProperty(env, 'SPEND_CAP_MODEL_TOKENS');
    const answered = await coach(harness, question, { from });
    const id = answered.headers.get('x-conversation-id');
    await answered.text();
    expect(await conversations()).toBe(before + 1);
    const again = await coach(harness, question, { from, headers: { 'x-conversation-id': id ?? '' } });
    await again.text();
    // The browser holds the conversation signed: `<id>.<signature>`.
    expect(id).toMatch(/^[0-9a-f-]{36}\.[\w-]{43}$/u);
    expect(again.headers.get('x-conversation-id')).toBe(id);
    const stored = id?.split('.')[0] ?? '';
    expect((await harness.stack.db.query('select message_count from public.conversations where id = $1', [stored])).rows).toEqual([{ message_count: 2 }]);
  });

  it('refuses a body over 64 KB before reading it, declared or not', async () => {
    const big = JSON.stringify({ messages: [{ role: 'user', content: 'x'.repeat(70_000) }], text: 'y'.repeat(70_000) });
    for (const path of ['coach/chat/completions', 'tts']) {
      const declared = await fetch(`${harness.url}/functions/v1/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${LOCAL_ANON_KEY}`, 'content-type': 'application/json' },
        body: big,
      });
      expect(declared.status, path).toBe(413);
      expect(((await declared.json()) as { error: { code: string } }).error.code).toBe('too_large');
    }
    // Without Content-Length (chunked), the function stops reading at the cap, before anything is reserved.
    const handle = (await import('../../supabase/functions/coach/handler')).handle;
    const chunks = [new TextEncoder().encode(big)];
    const chunked = new Request('http://function.test/coach/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.70' },
      body: new ReadableStream({
        pull: (controller) => {
          const next = chunks.shift();
          if (next) controller.enqueue(next);
          else controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    const answer = await handle(chunked, { ...env, CLIENT_IP_HEADER: 'x-forwarded-for', SUPABASE_URL: harness.url, SUPABASE_ANON_KEY: LOCAL_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY: LOCAL_SERVICE_ROLE_KEY });
    expect(answer.status).toBe(413);
    expect(fake.requests()).toHaveLength(0);
    expect(voice.requests()).toHaveLength(0);
    expect((await usageToday(harness)).modelTokens).toBe(0);
  });

  it('reads the body before reserving anything, and gives up on one that does not arrive within 10 s', async () => {
    const functionEnv = { ...env, CLIENT_IP_HEADER: 'x-forwarded-for', SUPABASE_URL: harness.url, SUPABASE_ANON_KEY: LOCAL_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY: LOCAL_SERVICE_ROLE_KEY };
    for (const path of ['coach/chat/completions', 'tts']) {
      const name = path.split('/')[0] ?? '';
      const handle = ((await import(`../../supabase/functions/${name}/handler.ts`)) as { handle: Handler }).handle;
      // A client that sends the start of its body and then nothing more.
      const stalled = new Request(`http://function.test/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.81' },
        body: new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"messages": [{"role": "user", "content": "Hal'));
          },
        }),
        duplex: 'half',
      } as RequestInit);
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        const answering = handle(stalled, functionEnv);
        await vi.advanceTimersByTimeAsync(10_000);
        const answer = await answering;
        expect(answer.status, path).toBe(408);
        expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('body_timeout');
      } finally {
        vi.useRealTimers();
      }
    }
    // Nothing was reserved or counted for them, and no provider was asked.
    const counted = await harness.stack.db.query(`select 1 from public.request_counts where client = '203.0.113.81'`);
    expect(counted.rows).toEqual([]);
    expect((await harness.stack.db.query('select 1 from public.spend_reservations')).rows).toEqual([]);
    expect(fake.requests()).toHaveLength(0);
    expect(voice.requests()).toHaveLength(0);
  });

  it('settles a stream the visitor cancels before its first piece was pulled, and frees its slot', async () => {
    const functionEnv = { ...env, CLIENT_IP_HEADER: 'x-forwarded-for', COACH_CONCURRENT_LIMIT: '1', SUPABASE_URL: harness.url, SUPABASE_ANON_KEY: LOCAL_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY: LOCAL_SERVICE_ROLE_KEY };
    const handle = (await import('../../supabase/functions/coach/handler')).handle;
    const ask = () =>
      handle(
        new Request('http://function.test/coach/chat/completions', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.82' },
          body: JSON.stringify({ ...question, stream: true }),
        }),
        functionEnv,
      );
    const answer = await ask();
    expect(answer.status).toBe(200);
    // The visitor goes before reading a byte.
    await answer.body?.cancel();
    await expect.poll(async () => (await harness.stack.db.query('select 1 from public.spend_reservations')).rows.length).toBe(0);
    // Counted at the most the model could have billed (it had been asked): the prompt's bytes and a
    // full reply, and the question's embedding where the hybrid search asked for one.
    const sent = fake.requests()[0]?.body as { messages: { content: string }[]; max_tokens: number };
    const prompt = sent.messages.reduce((sum, message) => sum + Buffer.byteLength(message.content, 'utf8') + 4, 3);
    const embedded = embeddingTokens(fake.embeddings().flatMap((request) => (request.body as { input: string[] }).input));
    expect(await clientSpend('203.0.113.82', 'model_tokens')).toBe(prompt + sent.max_tokens + embedded);
    // Its stream slot is free again: the next question of the same client is admitted.
    const next = await ask();
    expect(next.status).toBe(200);
    await next.text();
  });

  it('refuses a client over its requests per minute before reading its body', async () => {
    const functionEnv = { ...env, CLIENT_IP_HEADER: 'x-forwarded-for', SUPABASE_URL: harness.url, SUPABASE_ANON_KEY: LOCAL_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY: LOCAL_SERVICE_ROLE_KEY, COACH_RATE_LIMIT: '1', TTS_RATE_LIMIT: '1' };
    for (const [path, body] of [
      ['coach/chat/completions', JSON.stringify(question)],
      ['tts', JSON.stringify({ text: 'Hallo.' })],
    ] as const) {
      const name = path.split('/')[0] ?? '';
      const handle = ((await import(`../../supabase/functions/${name}/handler.ts`)) as { handle: Handler }).handle;
      let pulled = 0;
      const request = () =>
        new Request(`http://function.test/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.80' },
          // Nothing is pulled until someone reads (no high-water mark to fill in advance).
          body: new ReadableStream(
            {
              pull(controller) {
                pulled += 1;
                controller.enqueue(new TextEncoder().encode(body));
                controller.close();
              },
            },
            { highWaterMark: 0 },
          ),
          duplex: 'half',
        } as RequestInit);
      const first = await handle(request(), functionEnv);
      await first.arrayBuffer();
      const pulledByFirst = pulled;
      expect(pulledByFirst, path).toBeGreaterThan(0);
      const refused = await handle(request(), functionEnv);
      expect(refused.status, path).toBe(429);
      expect(pulled, path).toBe(pulledByFirst);
    }
  });

  it('knows an IPv6 client by its /64: a new address in it buys nothing', async () => {
    const functionEnv = { SUPABASE_URL: harness.url, SUPABASE_ANON_KEY: LOCAL_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY: LOCAL_SERVICE_ROLE_KEY, COACH_RATE_LIMIT: '2', CLIENT_IP_HEADER: 'x-client-ip' };
    const handle = (await import('../../supabase/functions/coach/handler')).handle;
    const ask = async (address: string) => {
      const response = await handle(
        new Request('http://function.test/coach/chat/completions', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-client-ip': address },
          body: JSON.stringify(question),
        }),
        functionEnv,
      );
      await response.arrayBuffer();
      return response.status;
    };
    expect([await ask('2001:db8:77:1::1'), await ask('2001:db8:77:1::2'), await ask('2001:db8:77:1:ffff:ffff:ffff:fffe')]).toEqual([200, 200, 429]);
    expect(await ask('2001:db8:77:2::1')).toBe(200);
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
