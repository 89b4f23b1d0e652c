/**
 * npm run bench:voice — how soon the coach starts speaking after the visitor stops talking.
 *
 * Drives the built live-coach page in Chromium against the real local stack, whose functions talk
 * to the fake providers at realistic speeds: the model's first token after 400 ms and then 40
 * tokens/s; the voice's first audio byte after 250 ms and then its stream at three times real time
 * (as a real TTS stream arrives over time, never at once). Two phases:
 *
 * 1. From the final transcript (the recogniser delivers its final words at once): time to the
 *    first audio against its floor, the time until the first speakable piece exists plus the
 *    voice's time to first byte (nothing can be heard before its text exists and its first audio
 *    arrives). Budgets: median ratio ≤ 1.15 and median first audio ≤ 900 ms.
 * 2. From the end of the visitor's speech, with a recogniser that behaves like Chrome's: interim
 *    words while the visitor speaks, the final transcript only after its end-of-speech delay
 *    (END_OF_SPEECH_MS, 800 ms). The coach may start on stable interim words (speculatively), so
 *    this is the delay a visitor really feels.
 *
 * 3. Barge-in by voice (hands-free, a fake microphone playing German speech made by espeak-ng while
 *    the coach greets): from the first microphone frame of the visitor's voice to the moment the
 *    coach goes quiet (held while the detector decides, then stopped). Budget: median ≤ 300 ms.
 * 4. The speech-to-text path (no recogniser in the browser, as in Firefox): from the last frame of
 *    the visitor's voice to the transcript, with the fake provider's transcription delay stated.
 *
 * Run `npm run build` first (the build fixes the stack's URL: SUPABASE_LOCAL_PORT, default 54321,
 * must be free and the same as at build time). BENCH_RUNS sets the number of questions (5).
 */
import { chromium, type Page } from '@playwright/test';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { liveCoachPath } from '../src/config/persona';
import { clientOnlyPrefixes } from '../src/config/routes';
import { configFromEnv } from '../supabase/local/config';
import { startLocalStack } from '../supabase/local/server';
import { fakeMicrophoneArgs, spokenWav } from '../tests/fixtures/audio/fakeMicrophone';
import { DEFAULT_REAL_TIME_FACTOR, startFakeElevenLabs } from '../tests/fixtures/fakeProviders/fakeElevenLabs';
import { DEFAULT_TRANSCRIPTION_DELAY_MS } from '../tests/fixtures/fakeProviders/fakeTranscription';
import { startFakeOpenAI } from '../tests/fixtures/fakeProviders/fakeOpenAI';
import { chromiumArgs, findChromium } from './find-chromium';
import { addStarterKnowledge } from './starterKnowledge';
import { createStaticServer } from './staticServer';

const budget = { ratio: 1.15, firstAudioMs: 900, bargeInMs: 300 };
const runs = Number(process.env.BENCH_RUNS ?? 5);
const delays = { ttftMs: 400, tokensPerSecond: 40, embeddingMs: 150, ttsFirstByteMs: 250, ttsRealTimeFactor: DEFAULT_REAL_TIME_FACTOR };
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

interface Sample {
  firstChunkMs: number;
  firstAudioMs: number;
}

/**
 * A fake recogniser the script drives (headless Chromium has no microphone): `__say(text)` gives
 * the final words at once; `__speak(text, wordMs, endMs)` gives interim words at a speaking pace,
 * marks the end of speech, and gives the final words `endMs` later, as Chrome does.
 */
function installRecognition(page: Page) {
  // A string, not a function: tsx's name helpers do not exist inside the page.
  return page.addInitScript(`(() => {
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
  })()`);
}

const button = 'main button[data-state]:not([role=switch])';

async function listen(page: Page) {
  await page.waitForFunction((selector) => document.querySelector(selector)?.getAttribute('data-state') === 'ready', button, {
    timeout: 60_000,
  });
  await page.evaluate(() => performance.clearMarks());
  await page.locator(button).click();
  await page.waitForFunction((selector) => document.querySelector(selector)?.getAttribute('data-state') === 'listening', button);
}

const at = (page: Page, name: string) =>
  page.evaluate((mark) => performance.getEntriesByName(`coach:${mark}`)[0]?.startTime ?? Number.NaN, name);

async function firstAudio(page: Page): Promise<number> {
  await page.waitForFunction(() => performance.getEntriesByName('coach:first-audio').length > 0, null, { timeout: 30_000 });
  return at(page, 'first-audio');
}

/** Phase 1: the final transcript at once. */
async function askFinal(page: Page, question: string): Promise<Sample> {
  await listen(page);
  await page.evaluate(`window.__say(${JSON.stringify(question)})`);
  const audio = await firstAudio(page);
  const transcript = await at(page, 'transcript');
  // Builds from before the first clause went ahead named the mark after the first sentence.
  const chunk = await at(page, 'first-chunk');
  const firstChunk = Number.isNaN(chunk) ? await at(page, 'first-sentence') : chunk;
  return { firstChunkMs: firstChunk - transcript, firstAudioMs: audio - transcript };
}

/** Phase 2: spoken at a natural pace; returns end of speech → first audio and → final transcript. */
async function askSpoken(page: Page, question: string): Promise<{ speechEndToAudioMs: number; speechEndToTranscriptMs: number }> {
  await listen(page);
  void page.evaluate(`window.__speak(${JSON.stringify(question)}, ${String(wordMs)}, ${String(endOfSpeechMs)})`);
  const audio = await firstAudio(page);
  const end = await at(page, 'speech-end');
  return { speechEndToAudioMs: audio - end, speechEndToTranscriptMs: (await at(page, 'transcript')) - end };
}

/**
 * Watches the microphone frames (their loudness on arrival) and the player's stop command, in page
 * time, so the bench can tell when the visitor's voice arrived and when the coach went quiet.
 */
function watchVoice(page: Page) {
  return page.addInitScript(`(() => {
    const log = { frames: [], stops: [] };
    window.__voice = log;
    const Native = window.AudioWorkletNode;
    window.AudioWorkletNode = class extends Native {
      constructor(context, name, options) {
        super(context, name, options);
        if (name === 'mic-frames') {
          this.port.addEventListener('message', (event) => {
            let sum = 0;
            for (const value of event.data) sum += value * value;
            log.frames.push([performance.now(), 20 * Math.log10(Math.sqrt(sum / event.data.length) + 1e-9)]);
          });
        }
        if (name === 'pcm-player') {
          const post = this.port.postMessage.bind(this.port);
          this.port.postMessage = (message, transfer) => {
            // The coach goes quiet at 'hold' (probably the visitor) or at 'clear' (barge-in), whichever comes first.
            if (message.type === 'clear' || message.type === 'hold') log.stops.push(performance.now());
            post(message, transfer || []);
          };
        }
      }
    };
    Object.defineProperty(window, 'SpeechRecognition', { value: undefined, configurable: true, writable: true });
    Object.defineProperty(window, 'webkitSpeechRecognition', { value: undefined, configurable: true, writable: true });
  })()`);
}

interface VoiceLog {
  frames: [number, number][];
  stops: number[];
}

/** A frame this loud is the visitor's voice (the microphone file is silent around the words). */
const VOICE_DB = -45;

/** Phase 3: hands-free, the visitor speaks while the coach greets. Returns onset → stop. */
async function bargeIn(page: Page, url: string): Promise<number> {
  await page.addInitScript(() => window.localStorage.setItem('coach.handsFree', 'on'));
  await watchVoice(page);
  await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  await page.locator(button).click();
  await page.waitForFunction(() => (window as unknown as { __voice: VoiceLog }).__voice.stops.length > 0, null, { timeout: 20_000 });
  const log = await page.evaluate(() => (window as unknown as { __voice: VoiceLog }).__voice);
  const onset = log.frames.find(([, level]) => level > VOICE_DB)?.[0] ?? Number.NaN;
  return (log.stops[0] ?? Number.NaN) - onset;
}

/** Phase 4: no recogniser; click, speak, and time the last voice frame → the transcript. */
async function transcribed(page: Page, url: string): Promise<number> {
  await watchVoice(page);
  await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  await page.locator(button).click();
  await page.waitForFunction((selector) => document.querySelector(selector)?.getAttribute('data-state') === 'ready', button, {
    timeout: 30_000,
  });
  await page.evaluate(() => performance.clearMarks());
  await page.locator(button).click();
  await page.waitForFunction(() => performance.getEntriesByName('coach:transcript').length > 0, null, { timeout: 30_000 });
  const log = await page.evaluate(() => (window as unknown as { __voice: VoiceLog }).__voice);
  const last = log.frames.filter(([, level]) => level > VOICE_DB).at(-1)?.[0] ?? Number.NaN;
  return (await at(page, 'transcript')) - last;
}

/** Runs `measure` BENCH_RUNS times, each in a fresh context of a browser whose microphone plays `wav`. */
async function withMicrophone(wav: string, measure: (page: Page, run: number) => Promise<number>): Promise<number[]> {
  const browser = await chromium.launch({
    executablePath: findChromium(),
    args: [...chromiumArgs, '--autoplay-policy=no-user-gesture-required', ...fakeMicrophoneArgs(wav)],
  });
  const results: number[] = [];
  try {
    for (let run = 0; run < runs; run += 1) {
      const context = await browser.newContext({ permissions: ['microphone'] });
      results.push(await measure(await context.newPage(), run));
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return results;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
const ms = (value: number) => `${value.toFixed(0)} ms`;

async function main() {
  const dist = resolve(import.meta.dirname, '..', process.env.DIST_DIR ?? 'dist');
  if (!existsSync(join(dist, 'index.html'))) throw new Error(`No build in ${dist}. Run \`npm run build\` first.`);

  const openai = await startFakeOpenAI({ port: 0, apiKey: 'sk-bench-fake' });
  const elevenLabs = await startFakeElevenLabs({ port: 0, apiKey: 'bench-fake' });
  Object.assign(openai.control, { reply, ttftMs: delays.ttftMs, tokensPerSecond: delays.tokensPerSecond, embeddingMs: delays.embeddingMs });
  Object.assign(elevenLabs.control, { firstByteMs: delays.ttsFirstByteMs, realTimeFactor: delays.ttsRealTimeFactor });
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
      COACH_CONCURRENT_LIMIT: '1000',
      TTS_CONCURRENT_LIMIT: '1000',
    },
  };
  const stack = await startLocalStack(config);
  // The knowledge base a visitor meets on `npm start`: the questions are searched in real passages
  // (an empty one would make every word a typo candidate and measure a search no visitor gets).
  await addStarterKnowledge(`http://127.0.0.1:${String(config.port)}`, config, {});
  const site = createStaticServer({ dir: dist, clientOnlyPrefixes });
  site.listen(0, '127.0.0.1');
  await once(site, 'listening');
  const url = `http://127.0.0.1:${String((site.address() as AddressInfo).port)}${liveCoachPath}`;
  const browser = await chromium.launch({ executablePath: findChromium(), args: [...chromiumArgs, '--autoplay-policy=no-user-gesture-required'] });

  try {
    const page = await browser.newPage();
    await installRecognition(page);
    await page.goto(url);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    await page.locator(button).click();

    console.log(
      `Voice latency (${String(runs)} questions; model: first token ${String(delays.ttftMs)} ms, ${String(delays.tokensPerSecond)} tokens/s; voice: first byte ${String(delays.ttsFirstByteMs)} ms, streamed at ${String(delays.ttsRealTimeFactor)}x real time)`,
    );
    console.log('\n1. From the final transcript');
    console.log('run  first chunk  first audio      limit  ratio');
    const samples: Sample[] = [];
    for (let run = 0; run < runs; run += 1) {
      const sample = await askFinal(page, questions[run % questions.length] ?? 'Hallo');
      samples.push(sample);
      const limit = sample.firstChunkMs + delays.ttsFirstByteMs;
      console.log(
        `${String(run + 1).padStart(3)}  ${ms(sample.firstChunkMs).padStart(11)}  ${ms(sample.firstAudioMs).padStart(11)}  ${ms(limit).padStart(9)}  ${(sample.firstAudioMs / limit).toFixed(3)}`,
      );
    }
    const ratios = samples.map((sample) => sample.firstAudioMs / (sample.firstChunkMs + delays.ttsFirstByteMs));
    const firstAudioMs = median(samples.map((sample) => sample.firstAudioMs));
    const limit = median(samples.map((sample) => sample.firstChunkMs + delays.ttsFirstByteMs));
    const ratio = median(ratios);
    console.log(
      `median: final transcript → first audio ${ms(firstAudioMs)}; limit (time to the first speakable chunk + TTS first byte) ${ms(limit)}; ratio ${ratio.toFixed(3)} (budget ${budget.ratio.toFixed(2)} and ${ms(budget.firstAudioMs)}; worst ratio ${Math.max(...ratios).toFixed(3)})`,
    );

    console.log(`\n2. From the end of speech (recogniser: final words ${String(endOfSpeechMs)} ms after the last one)`);
    console.log('run  → final transcript  → first audio');
    const spoken: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      const sample = await askSpoken(page, questions[run % questions.length] ?? 'Hallo');
      spoken.push(sample.speechEndToAudioMs);
      console.log(`${String(run + 1).padStart(3)}  ${ms(sample.speechEndToTranscriptMs).padStart(18)}  ${ms(sample.speechEndToAudioMs).padStart(13)}`);
    }
    console.log(`median: end of speech → first audio ${ms(median(spoken))} (without an early start it could not be below ${ms(endOfSpeechMs + firstAudioMs)})`);

    await page.close();
    await browser.close();

    console.log('\n3. Barge-in by voice (hands-free; German speech from a fake microphone while the coach greets)');
    const reactions = await withMicrophone(spokenWav('bench-barge-in', 'Moment, ich habe eine Frage.', 2).path, async (page, run) => {
      const reaction = await bargeIn(page, url);
      console.log(`${String(run + 1).padStart(3)}  voice onset → coach stopped ${ms(reaction)}`);
      return reaction;
    });
    const bargeInMs = median(reactions);
    console.log(`median: voice onset → coach audio stopped ${ms(bargeInMs)} (budget ${ms(budget.bargeInMs)})`);

    console.log(
      `\n4. Speech to text (no recogniser, as in Firefox; fake transcription delay ${String(DEFAULT_TRANSCRIPTION_DELAY_MS)} ms, end of utterance after 700 ms of silence)`,
    );
    const sttTimes = await withMicrophone(spokenWav('bench-question', 'Ich bin gestresst, was kann ich tun?', 1).path, async (page, run) => {
      const time = await transcribed(page, url);
      console.log(`${String(run + 1).padStart(3)}  end of speech → transcript ${ms(time)}`);
      return time;
    });
    console.log(`median: end of speech → transcript ${ms(median(sttTimes))}`);

    const over: string[] = [];
    if (ratio > budget.ratio) over.push(`ratio ${ratio.toFixed(3)} > ${budget.ratio.toFixed(2)}`);
    if (firstAudioMs > budget.firstAudioMs) over.push(`first audio ${ms(firstAudioMs)} > ${ms(budget.firstAudioMs)}`);
    if (!(bargeInMs <= budget.bargeInMs)) over.push(`barge-in ${ms(bargeInMs)} > ${ms(budget.bargeInMs)}`);
    if (over.length > 0) {
      console.log(`\nOver budget: ${over.join('; ')}`);
      process.exitCode = 1;
    }
  } finally {
    await browser.close().catch(() => undefined);
    site.close();
    await Promise.all([stack.close(), openai.close(), elevenLabs.close()]);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
