/**
 * npm run bench:voice — how the live coach sounds in a conversation: how soon it answers, how
 * soon it greets, what it uploads, and how it copes with its own echo.
 *
 * Drives the built live-coach page in Chromium against the real local stack, whose functions talk
 * to the fake providers at the providers' published pace (BENCH_PACING=published, the default;
 * tests/fixtures/fakeProviders/pacing.ts): transcription 640 ms after the upload; the model's
 * first token after 550 ms, then 40 tokens/s; the question's embedding 150 ms; the voice's first
 * audio byte after 200 ms (470 ms for the first request on a new connection), then its stream at
 * three times real time. BENCH_PACING=legacy runs at the pace of the earlier figures (300, 400 and
 * 250 ms) for comparison; every figure printed names its pacing. The microphone is Chromium's
 * fake device (silence) with a room mixed in by tests/fixtures/audio/fakeRoom.ts: the visitor's
 * German speech (espeak-ng) when the bench says so, and the coach's own output coming back 40 ms
 * late at −9 dB or 0 dB.
 *
 * Phases 2 and 3 measure each listening path's own share of a turn: end of speech → first audio
 * beyond the fakes' own delays on it (the path's final words, the model's first token and first
 * clause as the fake delivered them, the voice's first byte; `fakesOwnMs`). Budget: median
 * ≤ 100 ms on every path. An early start on the visitor's pause can beat the final words, so the
 * share can be below zero.
 *
 * 1. From the final transcript (a recogniser that gives its final words at once): first audio, and
 *    its ratio to the floor (the first speakable piece + the voice's first byte). Budget: ratio
 *    ≤ 1.15.
 * 2. The recogniser path, from the end of speech: interim words while the visitor speaks, the final
 *    words END_OF_SPEECH_MS (800 ms) after the end, as Chrome does. Budget: own share.
 * 3. A browser without a recogniser (as Firefox), from the end of speech (the end of the voice in
 *    the file played into the microphone, so the room's own latency counts against the coach) to
 *    the first audio, and the seconds sent and billed against the seconds spoken: (a) the streamed
 *    path (the microphone streamed to the `stt-stream` function and the fake Scribe v2 Realtime:
 *    partial words 150 ms behind the audio, final words 280 ms after the voice ends), (b) the
 *    segment upload it falls back to (the page told that no streaming transcriber is there).
 *    Budgets: own share on both; the streamed path ≥ 400 ms sooner; sent ≤ spoken + 0.6 s. BENCH_TIMELINE=1 prints the first run of each.
 * 4. The greeting, from the click to its first audio, with the cache emptied before (cold) and
 *    filled (warm: the take the cold run started, stored by the function after the page closed at
 *    its first sound; the run checks the tts answers' x-tts-cache). The click is a visitor's: the
 *    mouse button held down PRESS_MS, timed from the moment it goes down. Budget: median ≤ 800 ms
 *    each.
 * 5. The coach's echo at −9 dB and 0 dB, hands-free without a recogniser (the streamed path): the greeting and an
 *    answer with nobody speaking (holds, the longest silence inside them, self-interruptions), the
 *    visitor speaking over an answer (voice onset → the coach silent), and whether it listens again
 *    by itself after each. Budgets: no gap over 150 ms, barge-in ≤ 300 ms, listens again.
 *
 * The coach answers from the starter knowledge base, embedded by the `embed` function as a
 * deployment with OPENAI_API_KEY has its documents: a question the full-text search is not sure of
 * then waits for its own embedding and a hybrid search. BENCH_KNOWLEDGE=plain leaves the passages
 * without embeddings (full-text search alone, as right after an upload before it is embedded).
 *
 * Run `npm run build` first (the build fixes the stack's URL: SUPABASE_LOCAL_PORT, default 54321,
 * must be free and the same as at build time). BENCH_RUNS sets the runs per phase (5);
 * BENCH_PHASES limits the phases (e.g. `3,4`). BENCH_TIMELINE=1 prints, after each run of phases 1–4,
 * where its time went: the page's marks and every request the stack served, from the moment the
 * run measures from to its first audio, on one clock.
 */
import { chromium, type Browser, type Page } from '@playwright/test';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { once } from 'node:events';
import WebSocket from 'ws';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { liveCoachPath } from '../src/config/persona';
import { clientOnlyPrefixes } from '../src/config/routes';
import { coachTexts } from '../src/features/coach/texts';
import { embeddingProvider, embedTexts, vectorLiteral, type EmbeddingProvider } from '../supabase/functions/_shared/embeddings';
import { configFromEnv, LOCAL_SERVICE_ROLE_KEY, type RequestTiming } from '../supabase/local/config';
import { startLocalStack } from '../supabase/local/server';
import { fakeMicrophoneArgs, silentWav, utteranceWav } from '../tests/fixtures/audio/fakeMicrophone';
import { installRoom, sayInRoom, voicedSpan, type RoomOptions } from '../tests/fixtures/audio/fakeRoom';
import { startFakeElevenLabs } from '../tests/fixtures/fakeProviders/fakeElevenLabs';
import { startFakeOpenAI } from '../tests/fixtures/fakeProviders/fakeOpenAI';
import { describePacing, pacingNamed } from '../tests/fixtures/fakeProviders/pacing';
import { chromiumArgs, findChromium } from './find-chromium';
import { addStarterKnowledge } from './starterKnowledge';
import { createStaticServer } from './staticServer';

const budget = {
  ratio: 1.15,
  /** Our own share of a turn: end of speech → first audio beyond the fakes' own delays. */
  ownShareMs: 100,
  greetingMs: 800,
  bargeInMs: 300,
  gapMs: 150,
  extraUploadSeconds: 0.6,
  streamedSoonerMs: 400,
};
const runs = Number(process.env.BENCH_RUNS ?? 5);
const showTimeline = process.env.BENCH_TIMELINE === '1';
const phases = new Set((process.env.BENCH_PHASES ?? '1,2,3,4,5,6').split(',').map((phase) => Number(phase.trim())));
/** The fakes' pace (BENCH_PACING: `published`, the default, or `legacy`); every figure names it. */
const { name: pacingName, pacing: delays } = pacingNamed(process.env.BENCH_PACING);
const tag = `[${pacingName}]`;
/** Chrome's recogniser calls the words final only after this much silence. */
const endOfSpeechMs = Number(process.env.END_OF_SPEECH_MS ?? 800);
/** The pace of the visitor's words in the interim results. */
const wordMs = 220;
const reply =
  'Das klingt nach einem vollen Tag, und das ist völlig normal. Nimm dir zuerst zwei Minuten für ein paar ruhige Atemzüge. Danach schreibst du die drei wichtigsten Aufgaben auf. Alles andere darf bis morgen warten.';
const questions = [
  'Ich habe heute so viel zu tun und weiß nicht, wo ich anfangen soll.',
  'Wie kann ich mich vor einem schwierigen Gespräch beruhigen?',
  'Was hilft mir abends beim Abschalten?',
  'Ich fühle mich im Team oft überfordert.',
  'Wie plane ich Pausen in meinen Arbeitstag ein?',
];
/**
 * Questions searched before anything is measured, none of them a measured one. A running server has
 * long compiled PGlite's hot paths (its WebAssembly tiers up as it runs) and cached its plans, as
 * Postgres behind a deployed project has; a fresh stack's first searches take several times as long,
 * which no visitor of a running site meets (bench:search warms up the same way).
 */
const warmUpQuestions = [
  'Wie finde ich nach der Arbeit schneller zur Ruhe?',
  'Was mache ich, wenn mir alles zu viel wird?',
  'Welche Atemübung hilft bei Nervosität?',
  'Wie spreche ich Konflikte mit meiner Chefin an?',
  'Wie lange sollte eine Mittagspause sein?',
  'Ich schlafe schlecht, was kann ich ändern?',
  'Wie sage ich öfter Nein?',
  'Was tun gegen ständige Unterbrechungen im Büro?',
  'Wie bereite ich mich auf ein Feedbackgespräch vor?',
  'Hilft Sport gegen Stress?',
  'Wie setze ich Prioritäten, wenn alles dringend ist?',
  'Was kostet ein Coaching bei euch?',
];
const WARM_UP_ROUNDS = 3;

/** With embedded passages the hybrid search (with the question's embedding) is warmed up as well. */
async function warmUpSearch(service: SupabaseClient, embeddings: EmbeddingProvider | null): Promise<void> {
  const vectors = embeddings ? await embedTexts(embeddings, warmUpQuestions) : [];
  for (let round = 0; round < WARM_UP_ROUNDS; round += 1) {
    for (const [index, query] of warmUpQuestions.entries()) {
      await service.rpc('search_knowledge', { query, match_count: 5 }).throwOnError();
      const vector = vectors[index];
      if (vector) await service.rpc('search_knowledge', { query, match_count: 5, query_embedding: vectorLiteral(vector) }).throwOnError();
    }
  }
}

/** Whether the knowledge base is embedded, as a deployment with OPENAI_API_KEY has it (BENCH_KNOWLEDGE). */
const embeddedKnowledge = process.env.BENCH_KNOWLEDGE !== 'plain';

/** Embeds every passage through the `embed` function, as the admin's browser does after an upload. */
async function embedKnowledge(stackUrl: string, anonKey: string, admin: { email: string; password: string }): Promise<void> {
  const client = createClient(stackUrl, anonKey, {
    auth: { persistSession: false },
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  });
  const { data, error } = await client.auth.signInWithPassword(admin);
  if (error) throw error;
  const response = await fetch(`${stackUrl}/functions/v1/embed`, {
    method: 'POST',
    headers: { authorization: `Bearer ${data.session.access_token}`, apikey: anonKey },
  });
  const body: unknown = await response.json();
  const pending = typeof body === 'object' && body !== null && 'pending' in body ? body.pending : null;
  if (!response.ok || pending !== 0) throw new Error(`embedding the knowledge base: HTTP ${String(response.status)}, ${JSON.stringify(body)}`);
}

/** Spoken into the microphone (without a pause long enough to cut it: the fake provider hears one sentence). */
const spokenQuestionText = 'Ich bin gestresst was kann ich tun';
const spokenQuestion = utteranceWav('bench-question', spokenQuestionText);
const interruption = utteranceWav('bench-barge-in', 'Moment ich habe eine Frage');

const button = 'main button[data-state]:not([role=switch])';
/** How long a visitor holds the mouse button down in a click (about a tenth of a second). */
const PRESS_MS = 100;
/** The quiet spell after which hands-free pauses (QUIET_MS in src/features/coach/session/listening.ts). */
const QUIET_SECONDS = 8;

/**
 * What the bench reads in the page: the PCM player's messages (a piece started or ended) and
 * commands (hold, release, clear), the clicks, and the stt uploads' declared lengths. A string, not
 * a function: tsx's name helpers do not exist inside the page.
 */
const watchPage = `(() => {
  const log = { player: [], clicks: [] };
  window.__bench = log;
  const Native = window.AudioWorkletNode;
  window.AudioWorkletNode = class extends Native {
    constructor(context, name, options) {
      super(context, name, options);
      if (name !== 'pcm-player') return;
      this.port.addEventListener('message', (event) => log.player.push([performance.now(), event.data.type, event.data.piece]));
      const post = this.port.postMessage.bind(this.port);
      this.port.postMessage = (message, transfer) => {
        if (message.type === 'hold' || message.type === 'release' || message.type === 'clear') log.player.push([performance.now(), message.type, -1]);
        post(message, transfer || []);
      };
    }
  };
  window.addEventListener('pointerdown', () => log.clicks.push(performance.now()), true);
})()`;

/** The browser's recogniser removed: the recording path, as in Firefox. */
const noRecogniser = `(() => {
  Object.defineProperty(window, 'SpeechRecognition', { value: undefined, configurable: true, writable: true });
  Object.defineProperty(window, 'webkitSpeechRecognition', { value: undefined, configurable: true, writable: true });
})()`;

/**
 * A fake recogniser the bench drives: `__say(text)` gives the final words at once;
 * `__speak(text, wordMs, endMs)` gives interim words at a speaking pace, marks the end of speech,
 * and gives the final words `endMs` later, as Chrome does.
 */
const fakeRecogniser = `(() => {
  const instances = [];
  class FakeRecognition {
    constructor() { instances.push(this); this.onresult = null; this.onend = null; this.onerror = null; }
    start() {}
    stop() { setTimeout(() => this.onend && this.onend(), 0); }
    abort() { this.onresult = null; this.onend = null; this.onerror = null; }
  }
  const deliver = (text, isFinal) => {
    const recognition = instances[instances.length - 1];
    const result = Object.assign([{ transcript: text, confidence: 0.9 }], { isFinal });
    recognition.onresult && recognition.onresult({ resultIndex: 0, results: [result] });
    if (isFinal) recognition.onend && recognition.onend();
  };
  window.__say = (text) => deliver(text, true);
  window.__speak = async (text, wordMs, endMs) => {
    const words = text.split(' ');
    for (let count = 1; count <= words.length; count += 1) {
      deliver(words.slice(0, count).join(' '), false);
      await new Promise((resolve) => setTimeout(resolve, wordMs));
    }
    performance.mark('coach:speech-end');
    await new Promise((resolve) => setTimeout(resolve, endMs));
    deliver(text, true);
  };
  Object.defineProperty(window, 'SpeechRecognition', { value: FakeRecognition, configurable: true });
})()`;

type PlayerEntry = [number, string, number];
interface BenchLog {
  player: PlayerEntry[];
  clicks: number[];
}

const median = (values: number[]) => {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(0)} ms` : '—');
const seconds = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)} s` : '—');
const pad = (text: string, width: number) => text.padStart(width);

const benchLog = (page: Page) => page.evaluate(() => (window as unknown as { __bench: BenchLog }).__bench);
const at = (page: Page, name: string) =>
  page.evaluate((mark) => performance.getEntriesByName(`coach:${mark}`).at(-1)?.startTime ?? Number.NaN, name);

/** The requests the stack served, as it reports them (for the fakes' share and BENCH_TIMELINE=1). */
const served: RequestTiming[] = [];

/**
 * The fakes' own delays on one turn, the floor its own share is measured over: the path's final
 * words (`finalWordsMs`: the recogniser's, the streaming transcriber's after the voice, or the
 * uploaded transcription's), the model's first token and first clause as the fake delivered them
 * (from the coach function's stream opening, when it asks the model, to the first speakable piece
 * in the page: the clause's length varies with the question) and the voice's first byte.
 * `firstChunk` is the page's mark (page time, `origin` its clock). NaN when the coach request is
 * not among those the stack served.
 */
function fakesOwnMs(origin: number, firstChunk: number, finalWordsMs: number): number {
  const chunkAt = origin + firstChunk;
  const asked = served
    .filter((request) => request.method === 'POST' && request.path.endsWith('/coach/chat/completions') && request.answeredAt <= chunkAt)
    .at(-1);
  if (!asked) return Number.NaN;
  return finalWordsMs + (chunkAt - asked.answeredAt) + delays.ttsFirstByteMs;
}

/** A page's clock and its `coach:` marks, read while the page is open (BENCH_TIMELINE=1). */
interface PageMarks {
  origin: number;
  marks: (readonly [string, number])[];
}

const pageMarks = (page: Page): Promise<PageMarks> =>
  page.evaluate(() => ({
    origin: performance.timeOrigin,
    marks: performance
      .getEntriesByType('mark')
      .filter((entry) => entry.name.startsWith('coach:'))
      .map((entry) => [entry.name.slice('coach:'.length), entry.startTime] as const),
  }));

/**
 * One run's timeline (BENCH_TIMELINE=1): the page's `coach:` marks and the stack's requests
 * received between `from` and `until` (page times), in milliseconds after `from`. Page and stack run
 * on this machine, so both read the same wall clock. A request appears once its response has ended.
 */
function printTimeline({ origin, marks }: PageMarks, from: number, until: number): void {
  const start = origin + from;
  const end = origin + until;
  const after = (time: number) => `+${(time - start).toFixed(0)}`;
  const lines: [number, string][] = marks
    .filter(([, time]) => time >= from - 50 && time <= until)
    .map(([name, time]) => [origin + time, `page   ${name}`]);
  for (const request of served) {
    if (request.receivedAt < start - 50 || request.receivedAt > end) continue;
    const streamed = request.finishedAt - request.answeredAt > 5 ? `, ${request.complete ? 'last byte' : 'cut off'} ${after(request.finishedAt)}` : '';
    lines.push([request.receivedAt, `stack  ${request.method} ${request.path} ${String(request.status)}: answered ${after(request.answeredAt)}${streamed}`]);
  }
  lines.sort(([a], [b]) => a - b);
  for (const [time, text] of lines) console.log(`       ${pad(after(time), 6)} ms  ${text}`);
}

async function waitForState(page: Page, state: string, timeout = 30_000): Promise<boolean> {
  return page
    .waitForFunction(([selector, wanted]) => document.querySelector(selector ?? '')?.getAttribute('data-state') === wanted, [button, state], {
      timeout,
    })
    .then(
      () => true,
      () => false,
    );
}

async function open(page: Page, url: string) {
  await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
}

/** The pieces played after `since`: start and end of each, in order. */
function piecesAfter(log: BenchLog, since: number, until = Number.POSITIVE_INFINITY) {
  const pieces = new Map<number, { start: number; end: number }>();
  for (const [time, type, piece] of log.player) {
    if (time < since || time > until || piece < 0) continue;
    const entry = pieces.get(piece) ?? { start: Number.NaN, end: Number.NaN };
    if (type === 'started') entry.start = time;
    if (type === 'ended') entry.end = time;
    pieces.set(piece, entry);
  }
  return [...pieces.values()].filter((piece) => Number.isFinite(piece.start));
}

/**
 * A turn of the coach heard without interruption: how often it was held, the longest silence
 * inside it (a hold until its release, or the wait between two pieces), and whether it stopped
 * itself (a clear while nobody spoke).
 */
function turnQuality(log: BenchLog, since: number, until: number) {
  const commands = log.player.filter(([time, type]) => time >= since && time <= until && (type === 'hold' || type === 'release' || type === 'clear'));
  let holds = 0;
  let longest = 0;
  let heldAt: number | null = null;
  let stops = 0;
  for (const [time, type] of commands) {
    if (type === 'hold') {
      holds += 1;
      heldAt = time;
    } else if (heldAt !== null) {
      longest = Math.max(longest, time - heldAt);
      heldAt = null;
    }
    if (type === 'clear') stops += 1;
  }
  if (heldAt !== null) longest = Math.max(longest, until - heldAt);
  const pieces = piecesAfter(log, since, until);
  for (let index = 1; index < pieces.length; index += 1) {
    const previous = pieces[index - 1];
    const next = pieces[index];
    if (previous && next && Number.isFinite(previous.end)) longest = Math.max(longest, next.start - previous.end);
  }
  return { holds, longestGapMs: longest, stops };
}

async function main() {
  const dist = resolve(import.meta.dirname, '..', process.env.DIST_DIR ?? 'dist');
  if (!existsSync(join(dist, 'index.html'))) throw new Error(`No build in ${dist}. Run \`npm run build\` first.`);

  const openai = await startFakeOpenAI({ port: 0, apiKey: 'sk-bench-fake' });
  const elevenLabs = await startFakeElevenLabs({ port: 0, apiKey: 'bench-fake' });
  Object.assign(openai.control, { reply, ttftMs: delays.ttftMs, tokensPerSecond: delays.tokensPerSecond, embeddingMs: delays.embeddingMs });
  openai.control.transcription.delayMs = delays.transcriptionMs;
  Object.assign(elevenLabs.control, { firstByteMs: delays.ttsFirstByteMs, coldFirstByteMs: delays.ttsColdFirstByteMs, realTimeFactor: delays.ttsRealTimeFactor });
  elevenLabs.control.transcription.delayMs = delays.transcriptionMs;
  // The fake transcriber's partial words keep pace with the question as espeak-ng says it (a word's
  // partial result partialMs after its audio, as the real one), not with a fixed pace of its own.
  const questionSpan = voicedSpan(spokenQuestion);
  Object.assign(elevenLabs.control.streaming, {
    wordSeconds: (questionSpan.to - questionSpan.from) / spokenQuestionText.split(' ').length,
    finalMs: delays.streamFinalMs,
    partialMs: delays.streamPartialMs,
    tokenMs: delays.streamTokenMs,
    sessionMs: delays.streamSessionMs,
  });
  const config = {
    ...configFromEnv({ SUPABASE_LOCAL_PORT: process.env.SUPABASE_LOCAL_PORT ?? '54321' }),
    dataDir: null,
    functionEnv: {
      OPENAI_API_KEY: 'sk-bench-fake',
      OPENAI_BASE_URL: openai.url,
      ELEVENLABS_API_KEY: 'bench-fake',
      ELEVENLABS_VOICE_ID: 'bench-voice',
      ELEVENLABS_BASE_URL: elevenLabs.url,
      COACH_RATE_LIMIT: '100000',
      TTS_RATE_LIMIT: '100000',
      STT_RATE_LIMIT: '100000',
      COACH_DAILY_LIMIT: '1000000',
      TTS_DAILY_LIMIT: '1000000',
      STT_DAILY_LIMIT: '1000000',
      COACH_CONCURRENT_LIMIT: '1000',
      TTS_CONCURRENT_LIMIT: '1000',
      STT_CONCURRENT_LIMIT: '1000',
      // Every conversation comes from one client: its share of the daily spend caps (5 % by
      // default) would run out within a full bench, and the voice would stop mid-run.
      SPEND_CAP_MODEL_TOKENS: '1000000000',
      SPEND_CAP_TTS_CHARACTERS: '1000000000',
      SPEND_CAP_STT_SECONDS: '1000000000',
      CLIENT_BUDGET_PERCENT: '100',
    },
    observeRequests: (timing: RequestTiming) => served.push(timing),
  };
  const stack = await startLocalStack(config);
  const stackUrl = `http://127.0.0.1:${String(config.port)}`;
  const service = createClient(stackUrl, LOCAL_SERVICE_ROLE_KEY, {
    auth: { persistSession: false },
    // Node 20 has no global WebSocket; supabase-js wants a realtime transport even when unused.
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  });
  // The knowledge base a visitor meets on `npm start`: the questions are searched in real passages
  // (an empty one would make every word a typo candidate and measure a search no visitor gets).
  await addStarterKnowledge(stackUrl, config, {});
  if (embeddedKnowledge) await embedKnowledge(stackUrl, config.anonKey, { email: config.adminEmail, password: config.adminPassword });
  await warmUpSearch(service, embeddedKnowledge ? embeddingProvider(config.functionEnv) : null);
  const site = createStaticServer({ dir: dist, clientOnlyPrefixes });
  site.listen(0, '127.0.0.1');
  await once(site, 'listening');
  const url = `http://127.0.0.1:${String((site.address() as AddressInfo).port)}${liveCoachPath}`;
  const browsers: Browser[] = [];
  const launch = async (args: string[] = []) => {
    const browser = await chromium.launch({
      executablePath: findChromium(),
      args: [...chromiumArgs, '--autoplay-policy=no-user-gesture-required', ...args],
    });
    browsers.push(browser);
    return browser;
  };
  const over: string[] = [];
  const check = (ok: boolean, text: string) => {
    if (!ok) over.push(text);
  };

  /** The seconds of transcription recorded against today's spend cap (whole seconds per upload). */
  const billedSeconds = async () => {
    const { data } = await service.from('daily_spend').select('amount').eq('kind', 'stt_seconds');
    const rows: unknown[] = data ?? [];
    return rows.reduce<number>((sum, row) => sum + (typeof row === 'object' && row !== null && 'amount' in row ? Number(row.amount) : 0), 0);
  };
  /** The spend record once it has stopped changing (a stream is settled after it closes). */
  const settledBilling = async (before: number) => {
    let last = (await billedSeconds()) - before;
    for (let waited = 0; waited < 3_000; waited += 250) {
      await new Promise((resolvePromise) => setTimeout(resolvePromise, 250));
      const now = (await billedSeconds()) - before;
      if (now === last && now > 0) return now;
      last = now;
    }
    return last;
  };
  const emptyGreetingCache = async () => {
    const bucket = service.storage.from('tts-cache');
    const { data } = await bucket.list('', { limit: 1000 });
    const names = (data ?? []).map((entry) => entry.name);
    if (names.length > 0) await bucket.remove(names);
  };

  console.log(
    `Voice (${String(runs)} runs a phase; ${describePacing(pacingName, delays)}; knowledge: the starter documents, ${embeddedKnowledge ? 'embedded' : 'not embedded (BENCH_KNOWLEDGE=plain)'})`,
  );

  try {
    if (phases.has(1) || phases.has(2)) {
      const browser = await launch();
      const page = await browser.newPage();
      await page.addInitScript(fakeRecogniser);
      await open(page, url);
      await page.locator(button).click();
      const listen = async () => {
        await waitForState(page, 'ready', 60_000);
        await page.evaluate(() => performance.clearMarks());
        await page.locator(button).click();
        await waitForState(page, 'listening');
      };
      const firstAudio = async () => {
        await page.waitForFunction(() => performance.getEntriesByName('coach:first-audio').length > 0, null, { timeout: 30_000 });
        return at(page, 'first-audio');
      };

      if (phases.has(1)) {
        console.log(`\n1. From the final transcript ${tag}`);
        console.log('run  first chunk  first audio      limit  ratio');
        const samples: { chunk: number; audio: number }[] = [];
        for (let run = 0; run < runs; run += 1) {
          await listen();
          await page.evaluate(`window.__say(${JSON.stringify(questions[run % questions.length] ?? 'Hallo')})`);
          const audio = await firstAudio();
          const transcript = await at(page, 'transcript');
          const sample = { chunk: (await at(page, 'first-chunk')) - transcript, audio: audio - transcript };
          samples.push(sample);
          const limit = sample.chunk + delays.ttsFirstByteMs;
          console.log(`${pad(String(run + 1), 3)}  ${pad(ms(sample.chunk), 11)}  ${pad(ms(sample.audio), 11)}  ${pad(ms(limit), 9)}  ${(sample.audio / limit).toFixed(3)}`);
          if (showTimeline) {
            // The reply's own requests are reported once their streams have ended.
            await waitForState(page, 'ready', 60_000);
            printTimeline(await pageMarks(page), transcript, audio);
          }
        }
        const ratio = median(samples.map((sample) => sample.audio / (sample.chunk + delays.ttsFirstByteMs)));
        const firstAudioMs = median(samples.map((sample) => sample.audio));
        console.log(
          `${tag} median: final transcript → first audio ${ms(firstAudioMs)}; limit (first speakable piece + TTS first byte) ${ms(median(samples.map((sample) => sample.chunk + delays.ttsFirstByteMs)))}; ratio ${ratio.toFixed(3)} (budget ${budget.ratio.toFixed(2)})`,
        );
        check(ratio <= budget.ratio, `ratio ${ratio.toFixed(3)} > ${budget.ratio.toFixed(2)}`);
      }

      if (phases.has(2)) {
        console.log(`\n2. Recogniser path, from the end of speech (final words ${String(endOfSpeechMs)} ms after the last one) ${tag}`);
        console.log('run  → final transcript  → first audio  fakes\' own  own share');
        const spoken: number[] = [];
        const own: number[] = [];
        for (let run = 0; run < runs; run += 1) {
          await listen();
          void page.evaluate(`window.__speak(${JSON.stringify(questions[run % questions.length] ?? 'Hallo')}, ${String(wordMs)}, ${String(endOfSpeechMs)})`);
          const audio = await firstAudio();
          const end = await at(page, 'speech-end');
          spoken.push(audio - end);
          // The stack reports the coach's request once its stream has ended.
          await waitForState(page, 'ready', 60_000);
          const fakes = fakesOwnMs((await pageMarks(page)).origin, await at(page, 'first-chunk'), endOfSpeechMs);
          own.push(audio - end - fakes);
          console.log(
            `${pad(String(run + 1), 3)}  ${pad(ms((await at(page, 'transcript')) - end), 18)}  ${pad(ms(audio - end), 13)}  ${pad(ms(fakes), 11)}  ${pad(ms(audio - end - fakes), 9)}`,
          );
          if (showTimeline) printTimeline(await pageMarks(page), end, audio);
        }
        const value = median(spoken);
        const ownShare = median(own);
        console.log(`${tag} median: end of speech → first audio ${ms(value)}; our own share beyond the fakes' own delays ${ms(ownShare)} (budget ${ms(budget.ownShareMs)})`);
        check(ownShare <= budget.ownShareMs, `recogniser path: own share ${ms(ownShare)} > ${ms(budget.ownShareMs)}`);
      }
      await browser.close();
    }

    if (phases.has(3)) {
      const spokenSpan = voicedSpan(spokenQuestion);
      const spokenSeconds = spokenSpan.to - spokenSpan.from;
      const browser = await launch(fakeMicrophoneArgs(silentWav()));
      /** Each way a browser without a recogniser listens: streamed, and the segment upload it falls back to. */
      const medians: Partial<Record<'streamed' | 'segments', number>> = {};
      for (const mode of ['streamed', 'segments'] as const) {
        console.log(
          mode === 'streamed'
            ? `\n3a. Streamed path (no recogniser, as in Firefox: the microphone streamed to stt-stream), from the end of speech ${tag}`
            : `\n3b. Segment upload (the fallback when a stream fails: stt-stream unavailable), from the end of speech ${tag}`,
        );
        console.log(
          `run  → ${mode === 'streamed' ? 'commit sent        ' : 'last segment sent  '}  → its words  → early start  → transcript  → first audio  fakes' own  own share   ${mode === 'streamed' ? 'streamed' : 'uploaded'}   spend record   (spoken ${seconds(spokenSeconds)})`,
        );
        /** The path's final words: the streaming transcriber's after the voice, or the uploaded transcription's. */
        const finalWordsMs = mode === 'streamed' ? delays.streamFinalMs : delays.transcriptionMs;
        const latencies: number[] = [];
        const own: number[] = [];
        const sentAll: number[] = [];
        const billedAll: number[] = [];
        for (let run = 0; run < runs; run += 1) {
          const context = await browser.newContext({ permissions: ['microphone'] });
          const page = await context.newPage();
          await page.addInitScript(noRecogniser);
          await page.addInitScript(watchPage);
          // The fallback: the page learns that no streaming transcriber is there, as when a stream failed.
          if (mode === 'segments') await page.route('**/functions/v1/stt-stream', (route) => route.fulfill({ json: { available: false, everyBrowser: false } }));
          await installRoom(page, { echoDb: null, voices: [spokenQuestion] });
          const uploads: number[] = [];
          page.on('request', (request) => {
            if (request.method() === 'POST' && request.url().endsWith('/functions/v1/stt')) uploads.push(Number(request.headers()['x-audio-duration']));
          });
          const streamsBefore = elevenLabs.streams().length;
          await open(page, url);
          await page.locator(button).click();
          await waitForState(page, 'ready', 60_000);
          await page.locator(button).click();
          await waitForState(page, 'listening');
          // The visitor takes a moment before speaking, as visitors do.
          await page.waitForTimeout(1_000);
          const billedBefore = await billedSeconds();
          await page.evaluate(() => performance.clearMarks());
          const said = await sayInRoom(page, spokenQuestion);
          const end = said.startedAt + said.voiceTo * 1000;
          await page.waitForFunction(() => performance.getEntriesByName('coach:first-audio').length > 0, null, { timeout: 30_000 });
          const audio = (await at(page, 'first-audio')) - end;
          const transcript = (await at(page, 'transcript')) - end;
          const [sent, words, early] = [(await at(page, 'segment-sent')) - end, (await at(page, 'segment-words')) - end, (await at(page, 'early-start')) - end];
          await waitForState(page, 'ready', 30_000);
          // Once the reply has ended: the stack reports the coach's request when its stream has.
          const fakes = fakesOwnMs((await pageMarks(page)).origin, await at(page, 'first-chunk'), finalWordsMs);
          const streamed = elevenLabs
            .streams()
            .slice(streamsBefore)
            .reduce((sum, session) => sum + session.audioSeconds, 0);
          const sentSeconds = mode === 'streamed' ? streamed : uploads.reduce((sum, value) => sum + value, 0);
          // The stream's settlement follows its close.
          const billed = await settledBilling(billedBefore);
          latencies.push(audio);
          own.push(audio - fakes);
          sentAll.push(sentSeconds);
          billedAll.push(billed);
          console.log(
            `${pad(String(run + 1), 3)}  ${pad(ms(sent), 19)}  ${pad(ms(words), 11)}  ${pad(ms(early), 13)}  ${pad(ms(transcript), 12)}  ${pad(ms(audio), 13)}  ${pad(ms(fakes), 10)}  ${pad(ms(audio - fakes), 9)}  ${pad(seconds(sentSeconds), 9)}  ${pad(seconds(billed), 13)}`,
          );
          if (showTimeline && run === 0) printTimeline(await pageMarks(page), end, end + audio);
          await context.close();
        }
        const value = median(latencies);
        medians[mode] = value;
        const ownShare = median(own);
        const sentSeconds = median(sentAll);
        console.log(
          `${tag} median: end of speech → first audio ${ms(value)}; our own share beyond the fakes' own delays ${ms(ownShare)} (budget ${ms(budget.ownShareMs)}); ${mode === 'streamed' ? 'streamed' : 'uploaded'} ${seconds(sentSeconds)} (spend record, whole seconds per ${mode === 'streamed' ? 'stream' : 'upload'}: ${seconds(median(billedAll))}) for ${seconds(spokenSeconds)} spoken (budget ${seconds(spokenSeconds + budget.extraUploadSeconds)})`,
        );
        check(ownShare <= budget.ownShareMs, `${mode === 'streamed' ? 'streamed path' : 'segment upload'}: own share ${ms(ownShare)} > ${ms(budget.ownShareMs)}`);
        check(sentSeconds <= spokenSeconds + budget.extraUploadSeconds, `${mode}: sent ${seconds(sentSeconds)} > spoken ${seconds(spokenSeconds)} + ${String(budget.extraUploadSeconds)} s`);
      }
      const { streamed, segments } = medians;
      if (streamed !== undefined && segments !== undefined) {
        // A budget at the providers' published pace: at the legacy pace the upload's transcription is half as long.
        const budgeted = pacingName === 'published';
        console.log(`${tag} the streamed path is ${ms(segments - streamed)} sooner than the segment upload (budget ≥ ${ms(budget.streamedSoonerMs)}${budgeted ? '' : ' at the published pacing'})`);
        if (budgeted) check(segments - streamed >= budget.streamedSoonerMs, `streamed only ${ms(segments - streamed)} sooner than the segment upload`);
      }
      await browser.close();
    }

    if (phases.has(4)) {
      console.log(`\n4. Greeting: click → first audio ${tag}`);
      console.log('run       cold       warm');
      const browser = await launch();
      const cold: number[] = [];
      const warm: number[] = [];
      /** The click → first audio of one greeting, and whether its audio came from the cache. */
      const greet = async () => {
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.addInitScript(watchPage);
        let cache: string | null = null;
        page.on('response', (response) => {
          if (response.url().endsWith('/functions/v1/tts') && response.request().method() === 'POST') cache = response.headers()['x-tts-cache'] ?? null;
        });
        await open(page, url);
        // A visitor's click: the pointer comes to the button, the button goes down and, a moment
        // later, up. Timed from the press (`clicks` holds the pointerdown).
        await page.locator(button).hover();
        await page.mouse.down();
        await page.waitForTimeout(PRESS_MS);
        await page.mouse.up();
        await page.waitForFunction(() => (window as unknown as { __bench: BenchLog }).__bench.player.some(([, type]) => type === 'started'), null, {
          timeout: 30_000,
        });
        const log = await benchLog(page);
        const started = log.player.find(([, type]) => type === 'started')?.[0] ?? Number.NaN;
        const clicked = log.clicks[0] ?? Number.NaN;
        const marks = showTimeline ? await pageMarks(page) : null;
        // Closed at the first sound: the function reads the rest of a new take and stores it.
        await context.close();
        const timeline = () => {
          if (marks) printTimeline(marks, clicked, started);
        };
        return { ms: started - clicked, cache: cache as string | null, timeline };
      };
      const greetingCached = async () => {
        for (let waited = 0; waited < 10_000; waited += 100) {
          const { data } = await service.storage.from('tts-cache').list('', { limit: 1000 });
          if ((data ?? []).length > 0) return;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error('the greeting was not stored within 10 s of its first play');
      };
      for (let run = 0; run < runs; run += 1) {
        await emptyGreetingCache();
        const first = await greet();
        await greetingCached();
        const second = await greet();
        if (first.cache !== 'miss' || second.cache !== 'hit') throw new Error(`greeting cache: cold run ${String(first.cache)}, warm run ${String(second.cache)}`);
        cold.push(first.ms);
        warm.push(second.ms);
        console.log(`${pad(String(run + 1), 3)}  ${pad(ms(first.ms), 9)}  ${pad(ms(second.ms), 9)}`);
        if (showTimeline) {
          console.log('     cold:');
          first.timeline();
          console.log('     warm:');
          second.timeline();
        }
      }
      console.log(`${tag} median: cold ${ms(median(cold))}, warm ${ms(median(warm))} (budget ${ms(budget.greetingMs)} each)`);
      check(median(cold) <= budget.greetingMs, `greeting, cold cache: ${ms(median(cold))} > ${ms(budget.greetingMs)}`);
      check(median(warm) <= budget.greetingMs, `greeting, warm cache: ${ms(median(warm))} > ${ms(budget.greetingMs)}`);
      await browser.close();
    }

    if (phases.has(5)) {
      const browser = await launch(fakeMicrophoneArgs(silentWav()));
      for (const echoDb of [-9, 0]) {
        console.log(`\n5. The coach's echo at ${String(echoDb)} dB, 40 ms late (hands-free, streamed path) ${tag}`);
        console.log('run  greeting: holds gap stops  listens  answer: holds gap stops  barge-in  listens');
        const gaps: number[] = [];
        const holds: number[] = [];
        const stops: number[] = [];
        const bargeIns: number[] = [];
        let listened = 0;
        for (let run = 0; run < runs; run += 1) {
          const context = await browser.newContext({ permissions: ['microphone'] });
          const page = await context.newPage();
          await page.addInitScript(() => window.localStorage.setItem('coach.handsFree', 'on'));
          await page.addInitScript(noRecogniser);
          await page.addInitScript(watchPage);
          const room: RoomOptions = { echoDb, echoDelayMs: 40, voices: [interruption] };
          await installRoom(page, room);
          await open(page, url);
          const clicked = await page.evaluate(() => performance.now());
          await page.locator(button).click();
          // The greeting, nobody speaking.
          const afterGreeting = await waitForState(page, 'listening', 30_000);
          const greetingEnd = await page.evaluate(() => performance.now());
          const greeting = turnQuality(await benchLog(page), clicked, greetingEnd);
          // An answer to a typed question, with the visitor interrupting it after a second.
          const input = page.getByRole('textbox');
          await input.fill(questions[run % questions.length] ?? 'Hallo');
          await input.press('Enter');
          let bargeIn = Number.NaN;
          let bargeInNote = 'the coach did not answer';
          if (await waitForState(page, 'speaking', 30_000)) {
            await page.waitForTimeout(1_000);
            const said = await sayInRoom(page, interruption);
            const onset = said.startedAt + said.voiceFrom * 1000;
            const interrupted = await waitForState(page, 'listening', 10_000);
            const quiet = (await benchLog(page)).player.find(([time, type]) => time >= onset && (type === 'hold' || type === 'clear'));
            bargeIn = quiet ? quiet[0] - onset : Number.NaN;
            bargeInNote = interrupted ? 'listening, but the coach was not silenced' : 'the coach went on speaking';
          }
          if (!Number.isFinite(bargeIn)) console.log(`     barge-in not measured: ${bargeInNote}`);
          // The visitor's words are answered; the answer is heard with nobody speaking.
          const answerFrom = await page.evaluate(() => performance.now());
          const spokeAgain = await waitForState(page, 'speaking', 30_000);
          const afterAnswer = spokeAgain && (await waitForState(page, 'listening', 40_000));
          const answerEnd = await page.evaluate(() => performance.now());
          const answer = turnQuality(await benchLog(page), answerFrom, answerEnd);
          await context.close();
          gaps.push(greeting.longestGapMs, answer.longestGapMs);
          holds.push(greeting.holds + answer.holds);
          stops.push(greeting.stops + answer.stops);
          bargeIns.push(bargeIn);
          if (afterGreeting && afterAnswer) listened += 1;
          console.log(
            `${pad(String(run + 1), 3)}  ${pad(String(greeting.holds), 15)} ${pad(ms(greeting.longestGapMs), 7)} ${pad(String(greeting.stops), 5)}  ${pad(afterGreeting ? 'yes' : 'no', 7)}  ${pad(String(answer.holds), 13)} ${pad(ms(answer.longestGapMs), 7)} ${pad(String(answer.stops), 5)}  ${pad(ms(bargeIn), 8)}  ${pad(afterAnswer ? 'yes' : 'no', 7)}`,
          );
        }
        const longest = Math.max(...gaps);
        const bargeInMs = median(bargeIns);
        console.log(
          `${tag} at ${String(echoDb)} dB: longest gap ${ms(longest)} (budget ${ms(budget.gapMs)}), holds ${String(holds.reduce((a, b) => a + b, 0))}, self-interruptions ${String(stops.reduce((a, b) => a + b, 0))}, barge-in median ${ms(bargeInMs)} (budget ${ms(budget.bargeInMs)}), listened again by itself in ${String(listened)} of ${String(runs)} runs`,
        );
        check(longest <= budget.gapMs, `echo ${String(echoDb)} dB: gap ${ms(longest)} > ${ms(budget.gapMs)}`);
        check(bargeInMs <= budget.bargeInMs, `echo ${String(echoDb)} dB: barge-in ${ms(bargeInMs)} > ${ms(budget.bargeInMs)}`);
        check(listened === runs, `echo ${String(echoDb)} dB: listened again by itself in ${String(listened)} of ${String(runs)} runs`);
      }
      await browser.close();
    }

    if (phases.has(6)) {
      console.log(`\n6. Hands-free through silence (no recogniser: the streamed path): ${String(QUIET_SECONDS)} s without a word, then the visitor speaks ${tag}`);
      console.log('run  paused after  paused label shown  resumed by voice  answered');
      const browser = await launch(fakeMicrophoneArgs(silentWav()));
      let kept = 0;
      for (let run = 0; run < runs; run += 1) {
        const context = await browser.newContext({ permissions: ['microphone'] });
        const page = await context.newPage();
        await page.addInitScript(() => window.localStorage.setItem('coach.handsFree', 'on'));
        await page.addInitScript(noRecogniser);
        await installRoom(page, { echoDb: null, voices: [spokenQuestion] });
        await open(page, url);
        await page.locator(button).click();
        const listening = await waitForState(page, 'listening', 30_000);
        const from = Date.now();
        const paused = listening && (await waitForState(page, 'paused', 30_000));
        const pausedAfter = paused ? (Date.now() - from) / 1000 : Number.NaN;
        const shown = paused && (await page.locator(button).innerText()).includes(coachTexts.button.paused);
        let resumed = false;
        let answered = false;
        if (paused) {
          await sayInRoom(page, spokenQuestion);
          resumed = await waitForState(page, 'listening', 5_000);
          answered = resumed && (await waitForState(page, 'speaking', 30_000));
        }
        await context.close();
        if (paused && shown && resumed && answered) kept += 1;
        const yes = (value: boolean) => (value ? 'yes' : 'no');
        console.log(`${pad(String(run + 1), 3)}  ${pad(seconds(pausedAfter), 11)}  ${pad(yes(shown), 17)}  ${pad(yes(resumed), 16)}  ${pad(yes(answered), 8)}`);
      }
      console.log(`${tag} hands-free kept through silence (paused visibly, resumed by the voice, answered) in ${String(kept)} of ${String(runs)} runs`);
      check(kept === runs, `hands-free through silence: kept in ${String(kept)} of ${String(runs)} runs`);
      await browser.close();
    }

    if (over.length > 0) {
      console.log(`\n${tag} Over budget: ${over.join('; ')}`);
      process.exitCode = 1;
    }
  } finally {
    await Promise.all(browsers.map((browser) => browser.close().catch(() => undefined)));
    site.close();
    await Promise.all([stack.close(), openai.close(), elevenLabs.close()]);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
