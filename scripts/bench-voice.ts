/**
 * npm run bench:voice — how soon the coach starts speaking after the visitor stops talking.
 *
 * Drives the built live-coach page in Chromium against the real local stack, whose functions talk
 * to the fake providers at realistic speeds: the model's first token after 400 ms and then 40
 * tokens/s, the voice's first audio byte after 250 ms. For each question it reads the page's
 * performance marks (coach:transcript, coach:first-sentence, coach:first-audio) and compares the
 * time to first audio with its floor: the time until the first sentence is complete plus the
 * voice's time to first byte (nothing can speak a sentence before it exists and its audio starts
 * arriving). Budget: first audio ≤ 1.15 × that limit.
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
import { startFakeElevenLabs } from '../tests/fixtures/fakeProviders/fakeElevenLabs';
import { startFakeOpenAI } from '../tests/fixtures/fakeProviders/fakeOpenAI';
import { chromiumArgs, findChromium } from './find-chromium';
import { createStaticServer } from './staticServer';

const budget = 1.15;
const runs = Number(process.env.BENCH_RUNS ?? 5);
const delays = { ttftMs: 400, tokensPerSecond: 40, ttsFirstByteMs: 250 };
const reply =
  'Das klingt nach einem vollen Tag. Nimm dir zuerst zwei Minuten für ein paar ruhige Atemzüge. Danach schreibst du die drei wichtigsten Aufgaben auf. Alles andere darf bis morgen warten.';
const questions = [
  'Ich habe heute so viel zu tun und weiß nicht, wo ich anfangen soll.',
  'Wie kann ich mich vor einem schwierigen Gespräch beruhigen?',
  'Was hilft mir abends beim Abschalten?',
  'Ich fühle mich im Team oft überfordert.',
  'Wie plane ich Pausen in meinen Arbeitstag ein?',
];

interface Sample {
  firstSentenceMs: number;
  firstAudioMs: number;
}

/** A fake recogniser the script drives (headless Chromium has no microphone). */
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
    window.__say = (text) => {
      const recognition = instances[instances.length - 1];
      const result = Object.assign([{ transcript: text, confidence: 0.9 }], { isFinal: true });
      recognition.onresult && recognition.onresult({ resultIndex: 0, results: [result] });
      recognition.onend && recognition.onend();
    };
    Object.defineProperty(window, 'SpeechRecognition', { value: FakeRecognition, configurable: true });
  })()`);
}

async function ask(page: Page, question: string): Promise<Sample> {
  const button = page.locator('main button[data-state]');
  await page.waitForFunction(() => document.querySelector('main button[data-state]')?.getAttribute('data-state') === 'ready', null, {
    timeout: 60_000,
  });
  await page.evaluate(() => performance.clearMarks());
  await button.click();
  await page.waitForFunction(() => document.querySelector('main button[data-state]')?.getAttribute('data-state') === 'listening');
  await page.evaluate(`window.__say(${JSON.stringify(question)})`);
  await page.waitForFunction(() => performance.getEntriesByName('coach:first-audio').length > 0, null, { timeout: 30_000 });
  return page.evaluate<Sample>(`(() => {
    const at = (name) => performance.getEntriesByName('coach:' + name)[0]?.startTime ?? Number.NaN;
    const transcript = at('transcript');
    return { firstSentenceMs: at('first-sentence') - transcript, firstAudioMs: at('first-audio') - transcript };
  })()`);
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
  Object.assign(openai.control, { reply, ttftMs: delays.ttftMs, tokensPerSecond: delays.tokensPerSecond });
  elevenLabs.control.firstByteMs = delays.ttsFirstByteMs;
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
    },
  };
  const stack = await startLocalStack(config);
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
    await page.locator('main button[data-state]').click();

    const samples: Sample[] = [];
    for (let run = 0; run < runs; run += 1) {
      samples.push(await ask(page, questions[run % questions.length] ?? 'Hallo'));
    }

    console.log(
      `Voice latency (${String(runs)} questions; model: first token ${String(delays.ttftMs)} ms, ${String(delays.tokensPerSecond)} tokens/s; voice: first byte ${String(delays.ttsFirstByteMs)} ms)`,
    );
    console.log('run  first sentence  first audio  limit      ratio');
    const ratios = samples.map((sample, index) => {
      const limit = sample.firstSentenceMs + delays.ttsFirstByteMs;
      const ratio = sample.firstAudioMs / limit;
      console.log(
        `${String(index + 1).padStart(3)}  ${ms(sample.firstSentenceMs).padStart(14)}  ${ms(sample.firstAudioMs).padStart(11)}  ${ms(limit).padStart(9)}  ${ratio.toFixed(3)}`,
      );
      return ratio;
    });
    const firstAudio = median(samples.map((sample) => sample.firstAudioMs));
    const limit = median(samples.map((sample) => sample.firstSentenceMs + delays.ttsFirstByteMs));
    const ratio = median(ratios);
    console.log(
      `time from final transcript to first audio (median): ${ms(firstAudio)}; limit (time to first sentence + TTS first byte): ${ms(limit)}; ratio ${ratio.toFixed(3)} (budget ${budget.toFixed(2)}, worst ${Math.max(...ratios).toFixed(3)})`,
    );
    if (ratio > budget) {
      console.log(`Over budget: ${ratio.toFixed(3)} > ${budget.toFixed(2)}`);
      process.exitCode = 1;
    }
  } finally {
    await browser.close();
    site.close();
    await Promise.all([stack.close(), openai.close(), elevenLabs.close()]);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
