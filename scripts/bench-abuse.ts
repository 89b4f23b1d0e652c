/**
 * npm run bench:abuse — how much of the operator's money one client, or one network, can spend,
 * and whether the others are still served afterwards. The local stack runs in memory on loopback
 * with the fake providers; the stack is the gateway that names each client in CLIENT_IP_HEADER
 * (here `x-client-ip`), and each client is its own loopback source address (127.x.y.z: every one
 * is this machine, a /24 of them one network), as distinct machines are behind Supabase's
 * gateway. IPv6 clients cannot connect from addresses of their own here, so for them the bench
 * plays the gateway: it hands the function the request with the address in x-client-ip, as the
 * stack does. Nothing leaves 127.0.0.1.
 *
 * Scenarios (each starts from an empty day):
 *  1. forged headers: requests with a new made-up X-Forwarded-For each, at the coach and at tts,
 *     for ABUSE_SECONDS (5) with ABUSE_PARALLEL (4) at a time: how many reached the provider,
 *     against the per-client requests per minute (COACH 10, TTS 20 here).
 *  2. one client tries to spend every cap: with small caps (model 200,000 tokens, TTS 100,000
 *     characters, STT 2,400 s) and request limits out of the way, client A sends 5,000-character
 *     syntheses, long coach questions (20 messages of 2,000 characters) and tiny recordings that
 *     declare 60 s until it is refused; then client B asks once of each. B must be served, and A
 *     may have spent at most its daily budget (5 % of each cap) plus one request.
 *  3. bursts: 50 parallel requests of one client (5,000-character syntheses; long coach questions)
 *     with the client's budget set to the whole cap and concurrency out of the way: the day's spend
 *     must never exceed the cap.
 *  4. speech to text: tiny recordings that declare 60 s, a WAV whose first data chunk holds 0.1 s
 *     with 30 s hidden in a second one, ten minutes of WAV, audio the provider refuses: what the
 *     provider received and what the day counted.
 *  5. networks: 25 addresses of one IPv4 /24 and 25 /64s of one IPv6 /48 each synthesise until
 *     refused (TTS cap 100,000 characters: a client's budget 5,000, a network's 20,000); then a
 *     visitor of another network asks for a 2,000-character answer.
 *  6. reservations end: a coach stream abandoned before its first byte is settled at once; a
 *     reservation an instance left behind (it died) holds the client's budget until ten minutes
 *     have passed, then the client is served again.
 *  7. a budget that fits a question: a request without Content-Length is read and served within
 *     the client's budget; with SPEND_CAP_MODEL_TOKENS=200000 (a budget of 10,000) and the starter
 *     knowledge base, a new visitor's question is answered by the model.
 *
 * It prints one line per check and exits non-zero when a check fails.
 */
import { LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY, configFromEnv } from '../supabase/local/config';
import { startLocalStack, type LocalStack } from '../supabase/local/server';
import { emptyWav } from '../src/lib/wav';
import { startFakeElevenLabs, type FakeElevenLabs } from '../tests/fixtures/fakeProviders/fakeElevenLabs';
import { startFakeOpenAI, type FakeOpenAI } from '../tests/fixtures/fakeProviders/fakeOpenAI';
import { clientAt } from '../tests/local/harness';
import { addStarterKnowledge } from './starterKnowledge';

const seconds = Math.min(60, Math.max(1, Number(process.env.ABUSE_SECONDS ?? 5)));
const parallel = Math.min(16, Math.max(1, Number(process.env.ABUSE_PARALLEL ?? 4)));

type SpendKind = 'model_tokens' | 'tts_characters' | 'stt_seconds' | 'embedding_tokens';
type Spend = Record<SpendKind, number>;

const checks: { name: string; ok: boolean; detail: string }[] = [];

function check(name: string, ok: boolean, detail: string): void {
  checks.push({ name, ok, detail });
  console.log(`  ${ok ? 'ok  ' : 'FAIL'}  ${name}: ${detail}`);
}

const headers = { authorization: `Bearer ${LOCAL_ANON_KEY}`, apikey: LOCAL_ANON_KEY };

interface Client {
  fetch: typeof fetch;
  close: () => Promise<void>;
}

const clients: Client[] = [];
function client(address: string): Client {
  const made = clientAt(address);
  clients.push(made);
  return made;
}

/**
 * Today's spend of all clients together, once every reservation has settled (stt settles after
 * its answer, so a figure read at once would still count the reservation).
 */
async function spentToday(stack: LocalStack): Promise<Spend> {
  for (let wait = 0; wait < 50; wait += 1) {
    const open = await stack.db.query('select 1 from public.spend_reservations limit 1');
    if (open.rows.length === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const { rows } = await stack.db.query<{ kind: SpendKind; amount: string }>(
    `select kind, amount::text from public.daily_spend where day = public.spend_day()`,
  );
  const spend: Spend = { model_tokens: 0, tts_characters: 0, stt_seconds: 0, embedding_tokens: 0 };
  for (const row of rows) spend[row.kind] = Number(row.amount);
  return spend;
}

/** A new day for the guard: every count and every spend forgotten. */
async function newDay(stack: LocalStack): Promise<void> {
  const tables = ['daily_spend', 'request_counts', 'active_streams', 'client_spend', 'spend_reservations', 'spend_alerts'];
  for (const table of tables) {
    const { rows } = await stack.db.query<{ found: string | null }>(`select to_regclass('public.${table}')::text as found`);
    if (rows[0]?.found) await stack.db.query(`delete from public.${table}`);
  }
}

function setEnv(env: Record<string, string>, values: Record<string, string>): void {
  for (const key of Object.keys(env)) if (!(key in base)) Reflect.deleteProperty(env, key);
  Object.assign(env, base, values);
}

let base: Record<string, string> = {};

const longHistory = () => {
  const words = 'Ich fühle mich im Job oft gestresst und weiß nicht, wie ich abends abschalten soll, ';
  const message = words.repeat(Math.ceil(2000 / words.length)).slice(0, 2000);
  // 20 messages, the last one the visitor's: the most history the coach keeps.
  return Array.from({ length: 20 }, (_, index) => ({ role: index % 2 === 1 ? 'user' : 'assistant', content: message }));
};

function coach(from: Client, messages: unknown, stream = false): Promise<Response> {
  return from.fetch(`${stackUrl}/functions/v1/coach/chat/completions`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'coach', stream, messages }),
  });
}

function tts(from: Client, text: string): Promise<Response> {
  return from.fetch(`${stackUrl}/functions/v1/tts`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });
}

function stt(from: Client, audio: Uint8Array, declared: number): Promise<Response> {
  return from.fetch(`${stackUrl}/functions/v1/stt`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'audio/wav', 'x-audio-duration': String(declared) },
    body: audio as unknown as string,
  });
}

/** A silent 16 kHz mono 16-bit WAV, as the page sends its segments. */
const wav = (seconds: number) => emptyWav(Math.round(seconds * 16_000), 16_000).bytes;

/** A WAV whose one data chunk holds `declared` seconds, with `hidden` seconds in a second data chunk behind it. */
function hiddenChunkWav(declared: number, hidden: number): Uint8Array {
  const first = wav(declared);
  const samples = wav(hidden).subarray(44);
  const out = new Uint8Array(first.length + 8 + samples.length);
  out.set(first);
  const view = new DataView(out.buffer);
  out.set([0x64, 0x61, 0x74, 0x61], first.length);
  view.setUint32(first.length + 4, samples.length, true);
  out.set(samples, first.length + 8);
  view.setUint32(4, out.length - 8, true);
  return out;
}

/** Whether a coach answer came from the model (not refused, not the "paused for today" answer). */
async function answered(response: Response): Promise<boolean> {
  const body = await response.text();
  return response.status === 200 && response.headers.get('x-coach-mode') === 'model' && body.length > 0;
}

let stackUrl = '';
const text5000 = 'Atme ruhig ein und langsam wieder aus. '.repeat(200).slice(0, 5000);

async function forgedHeaders(stack: LocalStack, openai: FakeOpenAI, voice: FakeElevenLabs, env: Record<string, string>): Promise<void> {
  console.log(`\n1. forged headers (${String(seconds)} s, ${String(parallel)} in parallel per function, a new X-Forwarded-For on every request)`);
  await newDay(stack);
  setEnv(env, { COACH_RATE_LIMIT: '10', TTS_RATE_LIMIT: '20' });
  openai.reset();
  voice.reset();
  voice.control.realTimeFactor = 0;
  voice.control.durationSeconds = 0.2;
  const started = Date.now();
  const until = started + seconds * 1000;
  const hammer = async (send: (n: number) => Promise<Response>) => {
    let n = 0;
    const worker = async () => {
      while (Date.now() < until) {
        n += 1;
        const response = await send(n);
        await response.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: parallel }, worker));
  };
  const forged = (n: number) => `10.${String((n >> 8) & 255)}.${String(n & 255)}.1`;
  const from = client('127.0.0.40');
  await Promise.all([
    hammer((n) =>
      from.fetch(`${stack.url}/functions/v1/coach/chat/completions`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'x-forwarded-for': forged(n), 'x-real-ip': forged(n), 'x-client-ip': forged(n) },
        body: JSON.stringify({ messages: [{ role: 'user', content: 'Hallo' }] }),
      }),
    ),
    hammer((n) =>
      from.fetch(`${stack.url}/functions/v1/tts`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'x-forwarded-for': forged(n), 'x-client-ip': forged(n) },
        body: JSON.stringify({ text: 'Hallo.' }),
      }),
    ),
  ]);
  const windows = Math.floor(Date.now() / 60_000) - Math.floor(started / 60_000) + 1;
  check('coach requests per minute', openai.requests().length <= 10 * windows, `${String(openai.requests().length)} reached the model, budget ${String(10 * windows)}`);
  check('tts requests per minute', voice.requests().length <= 20 * windows, `${String(voice.requests().length)} reached ElevenLabs, budget ${String(20 * windows)}`);
}

const SMALL_CAPS = { model_tokens: 200_000, tts_characters: 100_000, stt_seconds: 2400 };
const budgetOf = (cap: number) => Math.floor(cap * 0.05);

async function oneClientSpendsEveryCap(stack: LocalStack, openai: FakeOpenAI, voice: FakeElevenLabs, env: Record<string, string>): Promise<void> {
  console.log('\n2. one client tries to spend every cap (model 200,000 tokens, TTS 100,000 characters, STT 2,400 s; budget 5 % of each)');
  await newDay(stack);
  setEnv(env, {
    SPEND_CAP_MODEL_TOKENS: String(SMALL_CAPS.model_tokens),
    SPEND_CAP_TTS_CHARACTERS: String(SMALL_CAPS.tts_characters),
    SPEND_CAP_STT_SECONDS: String(SMALL_CAPS.stt_seconds),
    COACH_RATE_LIMIT: '1000',
    COACH_DAILY_LIMIT: '100000',
    TTS_RATE_LIMIT: '1000',
    TTS_DAILY_LIMIT: '100000',
    STT_RATE_LIMIT: '1000',
    STT_DAILY_LIMIT: '100000',
  });
  openai.reset();
  voice.reset();
  voice.control.realTimeFactor = 0;
  voice.control.durationSeconds = 0.2;
  openai.control.transcription.delayMs = 0;
  const a = client('127.0.0.41');
  const b = client('127.0.0.42');

  let ttsServed = 0;
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const response = await tts(a, text5000);
    await response.arrayBuffer();
    if (response.status !== 200) break;
    ttsServed += 1;
  }
  let coachServed = 0;
  let largestCoach = 0;
  // Long questions until refused, then short ones until refused.
  for (const messages of [longHistory(), [{ role: 'user', content: 'Was hilft mir abends beim Abschalten?' }]]) {
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const before = (await spentToday(stack)).model_tokens;
      if (!(await answered(await coach(a, messages)))) break;
      coachServed += 1;
      largestCoach = Math.max(largestCoach, (await spentToday(stack)).model_tokens - before);
    }
  }
  const tiny = wav(0.1);
  let sttServed = 0;
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const response = await stt(a, tiny, 60);
    await response.arrayBuffer();
    if (response.status !== 200) break;
    sttServed += 1;
  }
  const byA = await spentToday(stack);
  console.log(`  A: ${String(ttsServed)} syntheses, ${String(coachServed)} coach answers, ${String(sttServed)} transcriptions served; spent ${JSON.stringify(byA)}`);

  const bTts = await tts(b, 'Hallo, schön dass du da bist.');
  await bTts.arrayBuffer();
  const bCoach = await answered(await coach(b, [{ role: 'user', content: 'Wie kann ich abends besser abschalten?' }]));
  const bStt = await stt(b, wav(3), 3);
  await bStt.arrayBuffer();
  check('B is served by tts after A', bTts.status === 200, `status ${String(bTts.status)}`);
  check('B is served by the coach after A', bCoach, bCoach ? 'a model answer' : 'no model answer (refused or paused)');
  check('B is served by stt after A', bStt.status === 200, `status ${String(bStt.status)}`);
  check(
    'A spent at most its TTS budget plus one request',
    byA.tts_characters <= budgetOf(SMALL_CAPS.tts_characters) + 5000,
    `${String(byA.tts_characters)} characters, budget ${String(budgetOf(SMALL_CAPS.tts_characters))}, cap ${String(SMALL_CAPS.tts_characters)}`,
  );
  check(
    'A spent at most its model budget plus one request',
    byA.model_tokens <= budgetOf(SMALL_CAPS.model_tokens) + largestCoach,
    `${String(byA.model_tokens)} tokens, budget ${String(budgetOf(SMALL_CAPS.model_tokens))}, cap ${String(SMALL_CAPS.model_tokens)}`,
  );
  check(
    'A spent at most its STT budget plus one request',
    byA.stt_seconds <= budgetOf(SMALL_CAPS.stt_seconds) + 60,
    `${String(byA.stt_seconds)} s, budget ${String(budgetOf(SMALL_CAPS.stt_seconds))}, cap ${String(SMALL_CAPS.stt_seconds)}`,
  );
}

async function bursts(stack: LocalStack, openai: FakeOpenAI, voice: FakeElevenLabs, env: Record<string, string>): Promise<void> {
  const caps = { model_tokens: 100_000, tts_characters: 20_000 };
  console.log('\n3. bursts: 50 parallel requests of one client, its budget the whole cap (model 100,000 tokens, TTS 20,000 characters)');
  const limits = {
    COACH_RATE_LIMIT: '1000',
    COACH_DAILY_LIMIT: '100000',
    COACH_CONCURRENT_LIMIT: '50',
    TTS_RATE_LIMIT: '1000',
    TTS_DAILY_LIMIT: '100000',
    TTS_CONCURRENT_LIMIT: '50',
    SPEND_CAP_MODEL_TOKENS: String(caps.model_tokens),
    SPEND_CAP_TTS_CHARACTERS: String(caps.tts_characters),
    CLIENT_BUDGET_MODEL_TOKENS: String(caps.model_tokens),
    CLIENT_BUDGET_TTS_CHARACTERS: String(caps.tts_characters),
  };
  for (const kind of ['tts', 'coach'] as const) {
    await newDay(stack);
    setEnv(env, limits);
    openai.reset();
    voice.reset();
    voice.control.realTimeFactor = 0;
    voice.control.durationSeconds = 0.2;
    openai.control.tokensPerSecond = 40;
    const from = client(kind === 'tts' ? '127.0.0.43' : '127.0.0.44');
    const history = longHistory();
    // Served: audio, or an answer of the model (not the "paused" one).
    const served = (
      await Promise.all(
        Array.from({ length: 50 }, async () => {
          if (kind === 'coach') return answered(await coach(from, history));
          const response = await tts(from, text5000);
          await response.arrayBuffer();
          return response.status === 200;
        }),
      )
    ).filter(Boolean).length;
    const spent = await spentToday(stack);
    const reached = kind === 'tts' ? voice.requests().length : openai.requests().length;
    const amount = kind === 'tts' ? spent.tts_characters : spent.model_tokens;
    const cap = kind === 'tts' ? caps.tts_characters : caps.model_tokens;
    check(
      `${kind} burst stays within the cap`,
      amount <= cap,
      `${String(amount)} spent of a cap of ${String(cap)}; ${String(reached)} reached the provider, ${String(served)} served`,
    );
  }
}

async function speechToText(stack: LocalStack, openai: FakeOpenAI, env: Record<string, string>): Promise<void> {
  console.log('\n4. speech to text: counted from the bytes of what the provider received');
  setEnv(env, { STT_RATE_LIMIT: '1000', STT_DAILY_LIMIT: '100000', SPEND_CAP_STT_SECONDS: '100000', CLIENT_BUDGET_STT_SECONDS: '100000' });
  openai.control.transcription.delayMs = 0;
  const cases = [
    { name: '20 tiny recordings (0.1 s) declaring 60 s', audio: wav(0.1), declared: 60, times: 20, real: 0.1, refusedBefore: false },
    { name: 'a WAV of 0.1 s with 30 s hidden in a second data chunk', audio: hiddenChunkWav(0.1, 30), declared: 0.1, times: 1, real: 30.1, refusedBefore: true },
    { name: 'ten minutes of WAV declaring 30 s', audio: wav(600), declared: 30, times: 1, real: 600, refusedBefore: true },
    { name: '5 recordings of 10 s the provider refuses (HTTP 400)', audio: wav(10), declared: 10, times: 5, real: 10, refused: true, refusedBefore: false },
  ];
  const from = client('127.0.0.45');
  for (const item of cases) {
    await newDay(stack);
    openai.reset();
    openai.control.transcription.delayMs = 0;
    if (item.refused) openai.control.transcription.failure = 'http400';
    const statuses: number[] = [];
    for (let n = 0; n < item.times; n += 1) {
      const response = await stt(from, item.audio, item.declared);
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    const reached = openai.transcriptions().length;
    const counted = (await spentToday(stack)).stt_seconds;
    const billed = item.refused ? 0 : reached * item.real;
    // What the provider bills, rounded up to whole seconds per request; nothing for refused audio.
    const fair = item.refused ? 0 : reached * Math.ceil(item.real);
    check(
      item.name,
      counted >= billed && counted <= fair && (!item.refusedBefore || reached === 0),
      `${String(kb(item.audio.length))} KB each, statuses ${[...new Set(statuses)].join('/')}, ${String(reached)} reached the provider (${String(Math.round(billed * 10) / 10)} s of audio billed), ${String(counted)} s counted`,
    );
  }
}

/** A synthesis asked for by the bench itself as the gateway: the address goes in x-client-ip. */
async function ttsAs(env: Record<string, string>, address: string, text: string): Promise<number> {
  const { handle } = await import('../supabase/functions/tts/handler');
  const response = await handle(
    new Request('http://function.test/tts', {
      method: 'POST',
      headers: { authorization: `Bearer ${LOCAL_ANON_KEY}`, 'content-type': 'application/json', 'x-client-ip': address },
      body: JSON.stringify({ text }),
    }),
    { ...env, SUPABASE_URL: stackUrl, SUPABASE_ANON_KEY: LOCAL_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY: LOCAL_SERVICE_ROLE_KEY },
  );
  await response.arrayBuffer();
  return response.status;
}

async function networks(stack: LocalStack, voice: FakeElevenLabs, env: Record<string, string>): Promise<void> {
  const cap = 100_000;
  console.log(`\n5. networks: 25 addresses of one network each synthesise until refused (TTS cap ${cap.toLocaleString('en-US')}: a client 5 %, a network 20 %)`);
  for (const family of ['IPv4 /24', 'IPv6 /48'] as const) {
    await newDay(stack);
    setEnv(env, { SPEND_CAP_TTS_CHARACTERS: String(cap), TTS_RATE_LIMIT: '1000', TTS_DAILY_LIMIT: '100000' });
    voice.reset();
    voice.control.realTimeFactor = 0;
    voice.control.durationSeconds = 0.2;
    let served = 0;
    for (let index = 1; index <= 25; index += 1) {
      const ask =
        family === 'IPv4 /24'
          ? async () => {
              const response = await tts(client(`127.0.9.${String(index)}`), text5000);
              await response.arrayBuffer();
              return response.status;
            }
          : () => ttsAs(env, `2001:db8:42:${index.toString(16)}::1`, text5000);
      for (let attempt = 0; attempt < 3; attempt += 1) {
        if ((await ask()) !== 200) break;
        served += 1;
      }
    }
    const byNetwork = (await spentToday(stack)).tts_characters;
    const other = family === 'IPv4 /24' ? await tts(client('127.0.10.1'), text5000.slice(0, 2000)) : null;
    if (other) await other.arrayBuffer();
    const otherStatus = other ? other.status : await ttsAs(env, '2001:db8:43:1::1', text5000.slice(0, 2000));
    check(
      `25 addresses of one ${family} stop at the network's budget`,
      byNetwork <= cap * 0.2,
      `${String(served)} syntheses served, ${byNetwork.toLocaleString('en-US')} characters spent (${String(Math.round((byNetwork * 100) / cap))} % of the cap; the network's budget ${String(cap * 0.2)})`,
    );
    check(`a visitor of another network is served after the ${family}`, otherStatus === 200, `status ${String(otherStatus)} for a 2,000-character answer`);
  }
}

async function reservationsEnd(stack: LocalStack, openai: FakeOpenAI, env: Record<string, string>): Promise<void> {
  console.log('\n6. reservations end');
  await newDay(stack);
  setEnv(env, { COACH_RATE_LIMIT: '1000' });
  openai.reset();
  openai.control.tokensPerSecond = 40;
  const { handle } = await import('../supabase/functions/coach/handler');
  const functionEnv = { ...env, SUPABASE_URL: stackUrl, SUPABASE_ANON_KEY: LOCAL_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY: LOCAL_SERVICE_ROLE_KEY };
  const abandoned = await handle(
    new Request('http://function.test/coach/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${LOCAL_ANON_KEY}`, 'content-type': 'application/json', 'x-client-ip': '198.51.100.61' },
      body: JSON.stringify({ stream: true, messages: [{ role: 'user', content: 'Was hilft mir abends beim Abschalten?' }] }),
    }),
    functionEnv,
  );
  await abandoned.body?.cancel();
  const open = async () => (await stack.db.query('select 1 from public.spend_reservations')).rows.length;
  const openAfter = await (async () => {
    for (let wait = 0; wait < 50 && (await open()) > 0; wait += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    return open();
  })();
  const counted = (await spentToday(stack)).model_tokens;
  check('a coach stream abandoned before its first byte is settled', openAfter === 0 && counted > 0, `${String(openAfter)} reservations open, ${String(counted)} tokens counted (the bound: the model had been asked)`);

  // An instance dies holding a reservation of the whole budget of a client.
  await newDay(stack);
  const service = { apikey: LOCAL_SERVICE_ROLE_KEY, authorization: `Bearer ${LOCAL_SERVICE_ROLE_KEY}`, 'content-type': 'application/json' };
  const budget = Math.floor(100_000 * 0.05);
  await fetch(`${stackUrl}/rest/v1/rpc/admit_request`, {
    method: 'POST',
    headers: service,
    body: JSON.stringify({ p_fn: 'tts', p_client: '127.0.0.62', p_per_minute: 1000, p_per_day: 1000, p_kind: 'tts_characters', p_amount: budget, p_cap: 100_000, p_budgets: [{ scope: 'client', key: '127.0.0.62', budget }] }),
  });
  const at = client('127.0.0.62');
  const speak = async () => {
    const response = await tts(at, 'Hallo, schön dass du da bist.');
    await response.arrayBuffer();
    return response.status;
  };
  const held = await speak();
  await stack.db.query(`update public.spend_reservations set created_at = created_at - interval '11 minutes'`);
  const released = await speak();
  check('a reservation left by a dead instance is released after ten minutes', held === 429 && released === 200, `while held: ${String(held)}; ten minutes on: ${String(released)}`);
}

async function budgetThatFits(stack: LocalStack, openai: FakeOpenAI, env: Record<string, string>): Promise<void> {
  console.log('\n7. a budget that fits a question');
  await newDay(stack);
  setEnv(env, { SPEND_CAP_MODEL_TOKENS: '200000', COACH_RATE_LIMIT: '1000' });
  openai.reset();
  openai.control.tokensPerSecond = 0;
  // Without Content-Length: a streamed body, read whole before anything is reserved.
  const chunked = await fetch(`${stackUrl}/functions/v1/coach/chat/completions`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: new Blob([JSON.stringify({ messages: [{ role: 'user', content: 'Wie kann ich abends besser abschalten?' }] })]).stream(),
    duplex: 'half',
  } as RequestInit);
  const chunkedAnswered = await answered(chunked);
  const spentChunked = (await spentToday(stack)).model_tokens;
  check('a request without Content-Length is served within the budget', chunkedAnswered && spentChunked <= 10_000, `${chunkedAnswered ? 'a model answer' : 'no model answer'}, ${String(spentChunked)} tokens counted of a budget of 10,000`);

  await addStarterKnowledge(stackUrl, { dataDir: null }, {});
  openai.reset();
  const visitor = client('127.0.11.1');
  const response = await coach(visitor, [{ role: 'user', content: 'Was hilft gegen Stress im Job?' }]);
  const ok = await answered(response);
  const sent = openai.requests()[0]?.body as { messages: { content: string }[] } | undefined;
  const prompt = sent ? sent.messages.reduce((sum, message) => sum + Buffer.byteLength(message.content, 'utf8') + 4, 3) : 0;
  check(
    'with SPEND_CAP_MODEL_TOKENS=200000 a new visitor\'s question is answered',
    ok,
    `${ok ? 'a model answer' : 'paused or refused'}; it reserved ${String(prompt + 500)} tokens (its prompt with the starter knowledge's passages and a full reply) of a budget of 10,000`,
  );
}

const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;

async function main() {
  const [openai, voice] = await Promise.all([startFakeOpenAI({ host: '127.0.0.1' }), startFakeElevenLabs({ host: '127.0.0.1' })]);
  const env: Record<string, string> = {};
  base = {
    OPENAI_API_KEY: 'sk-abuse-bench-fake',
    OPENAI_BASE_URL: openai.url,
    ELEVENLABS_API_KEY: 'abuse-bench-fake',
    ELEVENLABS_VOICE_ID: 'abuse-bench-voice',
    ELEVENLABS_BASE_URL: voice.url,
    CLIENT_IP_HEADER: 'x-client-ip',
  };
  setEnv(env, {});
  const stack = await startLocalStack({ ...configFromEnv({}), host: '127.0.0.1', port: 0, dataDir: null, functionEnv: env });
  stackUrl = stack.url;
  try {
    console.log('bench:abuse  local stack on loopback, fake providers, each client its own 127.x.y.z');
    await forgedHeaders(stack, openai, voice, env);
    await oneClientSpendsEveryCap(stack, openai, voice, env);
    await bursts(stack, openai, voice, env);
    await speechToText(stack, openai, env);
    await networks(stack, voice, env);
    await reservationsEnd(stack, openai, env);
    await budgetThatFits(stack, openai, env);
  } finally {
    await Promise.all(clients.map((made) => made.close()));
    await stack.close();
    await Promise.all([openai.close(), voice.close()]);
  }
  const failed = checks.filter((item) => !item.ok);
  console.log(`\n${String(checks.length - failed.length)} of ${String(checks.length)} checks passed`);
  if (failed.length > 0) process.exitCode = 1;
}

await main();
