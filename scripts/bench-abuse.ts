/**
 * npm run bench:abuse — how much of the operator's money one client can spend, and whether the
 * others are still served afterwards. The local stack runs in memory on loopback with the fake
 * providers; the stack is the gateway that names each client in CLIENT_IP_HEADER (here
 * `x-client-ip`), and each client is its own loopback source address (127.0.0.x), as distinct
 * machines are behind Supabase's gateway. Nothing leaves 127.0.0.1.
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
 *  4. speech to text: tiny recordings that declare 60 s, ten minutes of low-bit-rate Opus (Ogg
 *     and WebM) that declare 30 s, and audio the provider refuses: what the provider received, what
 *     the day counted, and how long the audio really was.
 *
 * It prints one line per check and exits non-zero when a check fails.
 */
import { LOCAL_ANON_KEY, configFromEnv } from '../supabase/local/config';
import { startLocalStack, type LocalStack } from '../supabase/local/server';
import { oggOpus, webmOpus } from '../tests/fixtures/audio/containers';
import { startFakeElevenLabs, type FakeElevenLabs } from '../tests/fixtures/fakeProviders/fakeElevenLabs';
import { startFakeOpenAI, type FakeOpenAI } from '../tests/fixtures/fakeProviders/fakeOpenAI';
import { clientAt } from '../tests/local/harness';

const seconds = Math.min(60, Math.max(1, Number(process.env.ABUSE_SECONDS ?? 5)));
const parallel = Math.min(16, Math.max(1, Number(process.env.ABUSE_PARALLEL ?? 4)));

type SpendKind = 'model_tokens' | 'tts_characters' | 'stt_seconds';
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

/** Today's spend of all clients together. */
async function spentToday(stack: LocalStack): Promise<Spend> {
  const { rows } = await stack.db.query<{ kind: SpendKind; amount: string }>(
    `select kind, amount::text from public.daily_spend where day = public.spend_day()`,
  );
  const spend: Spend = { model_tokens: 0, tts_characters: 0, stt_seconds: 0 };
  for (const row of rows) spend[row.kind] = Number(row.amount);
  return spend;
}

/** A new day for the guard: every count and every spend forgotten. */
async function newDay(stack: LocalStack): Promise<void> {
  const tables = ['daily_spend', 'request_counts', 'active_streams', 'client_spend', 'spend_reservations'];
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

function stt(from: Client, audio: Uint8Array, type: string, declared: number): Promise<Response> {
  return from.fetch(`${stackUrl}/functions/v1/stt`, {
    method: 'POST',
    headers: { ...headers, 'content-type': type, 'x-audio-duration': String(declared) },
    body: audio as unknown as string,
  });
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
  const tiny = webmOpus({ seconds: 0.1 });
  let sttServed = 0;
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const response = await stt(a, tiny, 'audio/webm;codecs=opus', 60);
    await response.arrayBuffer();
    if (response.status !== 200) break;
    sttServed += 1;
  }
  const byA = await spentToday(stack);
  console.log(`  A: ${String(ttsServed)} syntheses, ${String(coachServed)} coach answers, ${String(sttServed)} transcriptions served; spent ${JSON.stringify(byA)}`);

  const bTts = await tts(b, 'Hallo, schön dass du da bist.');
  await bTts.arrayBuffer();
  const bCoach = await answered(await coach(b, [{ role: 'user', content: 'Wie kann ich abends besser abschalten?' }]));
  const bStt = await stt(b, webmOpus({ seconds: 3 }), 'audio/webm;codecs=opus', 3);
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
  console.log('\n4. speech to text: counted against the real length of what the provider received');
  setEnv(env, { STT_RATE_LIMIT: '1000', STT_DAILY_LIMIT: '100000', SPEND_CAP_STT_SECONDS: '100000', CLIENT_BUDGET_STT_SECONDS: '100000' });
  openai.control.transcription.delayMs = 0;
  const cases = [
    { name: '20 tiny recordings (0.1 s) declaring 60 s', audio: webmOpus({ seconds: 0.1 }), type: 'audio/webm;codecs=opus', declared: 60, times: 20, real: 0.1 },
    { name: '10 min of 6 kbit/s Ogg/Opus declaring 30 s', audio: oggOpus({ seconds: 600, frameMs: 60, packetBytes: 45 }), type: 'audio/ogg;codecs=opus', declared: 30, times: 1, real: 600 },
    { name: '10 min of 6 kbit/s WebM/Opus declaring 30 s', audio: webmOpus({ seconds: 600, frameMs: 60, packetBytes: 45 }), type: 'audio/webm;codecs=opus', declared: 30, times: 1, real: 600 },
    { name: '5 recordings of 10 s the provider refuses (HTTP 400)', audio: webmOpus({ seconds: 10 }), type: 'audio/webm;codecs=opus', declared: 10, times: 5, real: 10, refused: true },
  ];
  const from = client('127.0.0.45');
  for (const item of cases) {
    await newDay(stack);
    openai.reset();
    openai.control.transcription.delayMs = 0;
    if (item.refused) openai.control.transcription.failure = 'http400';
    const statuses: number[] = [];
    for (let n = 0; n < item.times; n += 1) {
      const response = await stt(from, item.audio, item.type, item.declared);
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    const reached = openai.transcriptions().length;
    const counted = (await spentToday(stack)).stt_seconds;
    const billed = item.refused ? 0 : reached * item.real;
    // What the provider bills, rounded up to whole seconds per request; nothing for refused audio.
    const fair = item.refused ? 0 : reached * Math.ceil(item.real);
    const tooLong = item.real > 60;
    check(
      item.name,
      counted >= billed && counted <= fair && (!tooLong || reached === 0),
      `${String(kb(item.audio.length))} KB each, statuses ${[...new Set(statuses)].join('/')}, ${String(reached)} reached the provider (${String(billed)} s of audio billed), ${String(counted)} s counted`,
    );
  }
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
    console.log('bench:abuse  local stack on loopback, fake providers, each client its own 127.0.0.x');
    await forgedHeaders(stack, openai, voice, env);
    await oneClientSpendsEveryCap(stack, openai, voice, env);
    await bursts(stack, openai, voice, env);
    await speechToText(stack, openai, env);
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
