/**
 * Helpers for the live coach's end-to-end tests. The browser's speech recognition is the one part
 * of the page replaced (headless Chromium has no microphone): `installFakeRecognition` defines a
 * scriptable `window.SpeechRecognition` before the app loads. Audio plays for real (the fake
 * ElevenLabs streams real PCM at three times real time through the page's AudioWorklet player);
 * `watchAudio` only records what the player reports and is told.
 */
import type { Page, Request } from '@playwright/test';
import { persona } from '../../src/config/persona';
import { coachTexts } from '../../src/features/coach/texts';
import { chromiumArgs, findTestChromium } from '../../scripts/find-chromium';
import { fakeMicrophoneArgs } from '../fixtures/audio/fakeMicrophone';
import { wavLength } from '../fixtures/fakeProviders/fakeTranscription';
import { makeTextPdf, wrapParagraphs } from '../fixtures/pdf/makePdf';
import { KNOWLEDGE_TAB, documentRow, expect, uploadPdfs } from './admin';
import { fakeOpenAIUrl } from './env';

export const coachPath = `/produkte/${persona.slug}-ai`;
export { coachTexts, persona };

interface FakeSpeechControl {
  instances: { lang: string; continuous: boolean; interimResults: boolean; maxAlternatives: number; stopped: boolean }[];
  interim(text: string): void;
  final(text: string): void;
  fail(code: string): void;
  end(): void;
}

interface AudioLog {
  /**
   * 'playing' (a piece's first sound), 'ended' (its last), 'stop' (everything dropped), 'hold' /
   * 'release' (silent while the visitor may be starting to speak), 'blocked'.
   */
  events: string[];
  /** The tempo the player was set to, each time it changed. */
  tempos: number[];
  /** The pitch of each SoundTouch node (read when the log is read). */
  shifters: number[];
}

interface SpokenUtterance {
  text: string;
  lang: string;
  rate: number;
  pitch: number;
}

declare global {
  interface Window {
    __speech?: FakeSpeechControl;
    __audio?: AudioLog;
    __spoken?: SpokenUtterance[];
  }
}

/**
 * A fake recogniser the test drives with `speech(page).final('…')` and friends, or (supported:
 * false) a browser without speech recognition at all.
 */
export async function installFakeRecognition(page: Page, { supported = true }: { supported?: boolean } = {}) {
  await page.addInitScript((isSupported: boolean) => {
    for (const name of ['SpeechRecognition', 'webkitSpeechRecognition']) {
      Object.defineProperty(window, name, { value: undefined, configurable: true, writable: true });
    }
    if (!isSupported) return;
    type Handler<T> = ((event: T) => void) | null;
    const instances: FakeRecognitionInstance[] = [];
    class FakeRecognitionInstance {
      lang = '';
      continuous = true;
      interimResults = false;
      maxAlternatives = 0;
      stopped = false;
      onresult: Handler<unknown> = null;
      onerror: Handler<{ error: string }> = null;
      onend: Handler<undefined> = null;
      constructor() {
        instances.push(this);
      }
      start() {
        /* listening */
      }
      stop() {
        this.stopped = true;
        // As the browser does: whatever was heard is delivered, then the end.
        setTimeout(() => this.onend?.(undefined), 0);
      }
      abort() {
        this.onresult = null;
        this.onerror = null;
        this.onend = null;
      }
    }
    const latest = () => {
      const last = instances.at(-1);
      if (!last) throw new Error('no recognition started');
      return last;
    };
    const results = (text: string, isFinal: boolean) => ({
      resultIndex: 0,
      results: [Object.assign([{ transcript: text, confidence: 0.9 }], { isFinal })],
    });
    window.__speech = {
      instances,
      interim: (text) => latest().onresult?.(results(text, false)),
      final: (text) => {
        const recognition = latest();
        recognition.onresult?.(results(text, true));
        recognition.onend?.(undefined);
      },
      fail: (code) => {
        const recognition = latest();
        recognition.onerror?.({ error: code });
        recognition.onend?.(undefined);
      },
      end: () => latest().onend?.(undefined),
    };
    Object.defineProperty(window, 'SpeechRecognition', { value: FakeRecognitionInstance, configurable: true, writable: true });
  }, supported);
}

export const speech = (page: Page) => ({
  interim: (text: string) => page.evaluate((value) => window.__speech?.interim(value), text),
  final: (text: string) => page.evaluate((value) => window.__speech?.final(value), text),
  fail: (code: string) => page.evaluate((value) => window.__speech?.fail(value), code),
  end: () => page.evaluate(() => window.__speech?.end()),
  instances: () => page.evaluate(() => window.__speech?.instances.map((instance) => ({ ...instance })) ?? []),
});

/**
 * Records what the page's PCM player reports (a piece started, a piece ended) and is told (stop,
 * tempo), and the SoundTouch nodes (pitch). With `blockAutoplay`, every AudioContext stays
 * suspended, as a browser keeps audio off without a user gesture.
 */
export async function watchAudio(page: Page, { blockAutoplay = false }: { blockAutoplay?: boolean } = {}) {
  await page.addInitScript((block: boolean) => {
    const log: AudioLog = { events: [], tempos: [], shifters: [] };
    const shifters: AudioWorkletNode[] = [];
    window.__audio = log;
    Object.defineProperty(window, '__audioShifters', { value: shifters });
    const NativeWorkletNode = window.AudioWorkletNode;
    window.AudioWorkletNode = class extends NativeWorkletNode {
      constructor(context: BaseAudioContext, name: string, options?: AudioWorkletNodeOptions) {
        super(context, name, options);
        if (name === 'soundtouch-processor') shifters.push(this);
        if (name !== 'pcm-player') return;
        this.port.addEventListener('message', (event: MessageEvent<{ type: string }>) => {
          log.events.push(event.data.type === 'started' ? 'playing' : event.data.type);
        });
        const port = this.port;
        const post = port.postMessage.bind(port) as (message: unknown, transfer: Transferable[]) => void;
        Object.defineProperty(port, 'postMessage', {
          value: (message: { type: string; tempo?: number }, transfer?: Transferable[]) => {
            if (message.type === 'clear') log.events.push('stop');
            if (message.type === 'hold' || message.type === 'release') log.events.push(message.type);
            if (message.type === 'format' && message.tempo !== undefined) log.tempos.push(message.tempo);
            post(message, transfer ?? []);
          },
        });
      }
    };
    if (block) {
      const NativeContext = window.AudioContext;
      window.AudioContext = class extends NativeContext {
        override get state(): AudioContextState {
          return 'suspended';
        }
        override resume(): Promise<void> {
          log.events.push('blocked');
          return Promise.resolve();
        }
      };
    }
  }, blockAutoplay);
}

export const audioEvents = (page: Page) => page.evaluate(() => window.__audio?.events ?? []);

/**
 * The 'stop's of an audio log that cut a piece while it was sounding (more pieces begun than
 * ended): what a barge-in does. A 'stop' while nothing sounds drops audio no one heard, as when a
 * reply started early on the visitor's pause is replaced by one for their final words.
 */
export function stopsWhilePlaying(events: readonly string[]): number {
  let sounding = 0;
  let cuts = 0;
  for (const event of events) {
    if (event === 'playing') sounding += 1;
    else if (event === 'ended') sounding = Math.max(0, sounding - 1);
    else if (event === 'stop') {
      if (sounding > 0) cuts += 1;
      sounding = 0;
    }
  }
  return cuts;
}
/** Resolves as soon as the player has reported `event` (watched in the page, so nothing is missed or late). */
export const untilAudio = (page: Page, event: string) =>
  page.waitForFunction((wanted) => window.__audio?.events.includes(wanted) === true, event);
export const audioLog = (page: Page) =>
  page.evaluate(() => {
    const log = window.__audio ?? { events: [], tempos: [], shifters: [] };
    const nodes = (window as unknown as { __audioShifters?: AudioWorkletNode[] }).__audioShifters ?? [];
    return { ...log, shifters: nodes.map((node) => node.parameters.get('pitch')?.value ?? Number.NaN) };
  });

/** Replaces speechSynthesis by a recorder that "speaks" for 200 ms (headless Chromium has no voices). */
export async function recordBrowserSpeech(page: Page) {
  await page.addInitScript(() => {
    const spoken: SpokenUtterance[] = [];
    window.__spoken = spoken;
    const synthesis = {
      getVoices: () => [],
      speak(utterance: SpeechSynthesisUtterance) {
        spoken.push({ text: utterance.text, lang: utterance.lang, rate: utterance.rate, pitch: utterance.pitch });
        setTimeout(() => {
          utterance.onstart?.call(utterance, new Event('start') as SpeechSynthesisEvent);
        }, 10);
        setTimeout(() => {
          utterance.onend?.call(utterance, new Event('end') as SpeechSynthesisEvent);
        }, 200);
      },
      cancel() {
        /* nothing queued */
      },
    };
    Object.defineProperty(window, 'speechSynthesis', { value: synthesis, configurable: true });
  });
}

export const browserSpeech = (page: Page) => page.evaluate(() => window.__spoken ?? []);

/**
 * Keeps every microphone stream the page opens, to check that each is given back, and counts the
 * microphone's frames the page receives (its `mic-frames` worklet posts one per 20 ms).
 */
export async function watchMicrophone(page: Page) {
  await page.addInitScript(() => {
    const streams: MediaStream[] = [];
    Object.defineProperty(window, '__microphone', { value: streams });
    const open = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      const stream = await open(constraints);
      streams.push(stream);
      return stream;
    };
    const counter = { frames: 0 };
    Object.defineProperty(window, '__microphoneFrames', { value: counter });
    const NativeWorkletNode = window.AudioWorkletNode;
    window.AudioWorkletNode = class extends NativeWorkletNode {
      constructor(context: BaseAudioContext, name: string, options?: AudioWorkletNodeOptions) {
        super(context, name, options);
        if (name === 'mic-frames') this.port.addEventListener('message', () => (counter.frames += 1));
      }
    };
  });
}

/**
 * Waits until the page has received `ms` more of the microphone's audio (counted in its frames,
 * so a busy machine cannot shorten the wait); needs `watchMicrophone`.
 */
export async function microphoneHeard(page: Page, ms: number) {
  const frames = () => (window as unknown as { __microphoneFrames?: { frames: number } }).__microphoneFrames?.frames ?? 0;
  const from = await page.evaluate(frames);
  await page.waitForFunction(
    ({ until }) => ((window as unknown as { __microphoneFrames?: { frames: number } }).__microphoneFrames?.frames ?? 0) >= until,
    { until: from + Math.max(1, Math.ceil(ms / 20)) },
  );
}

/** Per stream the page opened: whether its tracks still record ('live') or were given back ('ended'). */
export const microphoneStreams = (page: Page) =>
  page.evaluate(() =>
    ((window as unknown as { __microphone?: MediaStream[] }).__microphone ?? []).map((stream) =>
      stream.getTracks().every((track) => track.readyState === 'ended') ? 'ended' : 'live',
    ),
  );

/** What the page uploads to the stt function: each upload's type and, read from its body, its length in seconds. */
export function watchUploads(page: Page): { type: string | null; seconds: number | null }[] {
  const uploads: { type: string | null; seconds: number | null }[] = [];
  page.on('request', (request: Request) => {
    if (request.method() !== 'POST' || !request.url().endsWith('/functions/v1/stt')) return;
    const body = request.postDataBuffer();
    uploads.push({ type: request.headers()['content-type'] ?? null, seconds: body ? wavLength(new Uint8Array(body)) : null });
  });
  return uploads;
}

/**
 * Test options for a spec file whose browser has a fake microphone playing `wav` (a launch option:
 * one microphone file per spec file), with the microphone permission granted.
 */
export const withMicrophone = (wav: string) => ({
  launchOptions: { executablePath: findTestChromium(), args: [...chromiumArgs, ...fakeMicrophoneArgs(wav)] },
  permissions: ['microphone'],
});

/** Switches hands-free on before the page loads (the switch remembers the choice). */
export const handsFreeOn = (page: Page) => page.addInitScript(() => window.localStorage.setItem('coach.handsFree', 'on'));

export const voiceButton = (page: Page) =>
  page.getByRole('main').getByRole('button', { name: /Klick hier|Ich höre zu|spricht\.\.\.|Einen Moment|Pause/ });
export const hint = (page: Page) => page.getByTestId('coach-hint');
export const notice = (page: Page) => page.getByRole('main').getByRole('alert');
export const messages = (page: Page) => page.getByTestId('coach-messages').getByRole('listitem');
/** The text of the coach's latest message (without the speaker's name above it). */
export const lastAssistant = (page: Page) =>
  page.getByTestId('coach-messages').locator('li[data-role="assistant"]').last().getByTestId('coach-message-text');
export const textInput = (page: Page) => page.getByRole('textbox', { name: coachTexts.chat.inputLabel });

/** Expects the voice button in a state: its label, its colour class and its hint. */
export async function expectState(
  page: Page,
  status: 'idle' | 'ready' | 'listening' | 'processing' | 'speaking' | 'paused',
  { timeout = 5_000, hint: hintText }: { timeout?: number; hint?: string } = {},
) {
  const colours = { idle: 'purple', ready: 'blue', listening: 'red', processing: 'amber', speaking: 'green', paused: 'slate' } as const;
  const button = voiceButton(page);
  await expect(button).toHaveAttribute('data-state', status, { timeout });
  await expect(button).toHaveText(coachTexts.button[status]);
  await expect(button).toHaveClass(new RegExp(`bg-${colours[status]}-700`));
  if (hintText !== undefined) await expect(hint(page)).toHaveText(hintText);
}

/** Opens the coach page with the fake recogniser and starts the conversation (greeting). */
export async function openCoach(page: Page, options: { supported?: boolean } = {}) {
  await installFakeRecognition(page, options);
  await page.goto(coachPath);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  await voiceButton(page).click();
  await expect(messages(page).first()).toHaveText(new RegExp(escapeRegExp(persona.greeting)));
}

/**
 * Says something: a click (from ready it starts listening; while the greeting or an answer is
 * spoken it barges in), then the recogniser's final transcript.
 */
export async function say(page: Page, text: string) {
  await voiceButton(page).click();
  await expectState(page, 'listening');
  await speech(page).final(text);
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The fake model's recorded requests (bodies), newest last. */
export async function modelRequests(): Promise<{ body: { messages: { role: string; content: string }[] } }[]> {
  const response = await fetch(`${fakeOpenAIUrl}/__requests`);
  return (await response.json()) as { body: { messages: { role: string; content: string }[] } }[];
}

/** A one-page PDF with the given paragraphs, to upload through the admin's knowledge tab. */
export function knowledgePdf(paragraphs: readonly string[]): Buffer {
  return Buffer.from(makeTextPdf([wrapParagraphs(paragraphs, 80)], { title: 'Coach-Wissen' }));
}

/** Uploads a PDF in the admin's knowledge tab and waits until it is COMPLETED (searchable). */
export async function uploadKnowledge(page: Page, name: string, pdf: Buffer) {
  await page.goto(KNOWLEDGE_TAB);
  await uploadPdfs(page, [{ name, bytes: pdf }]);
  await expect(documentRow(page, name)).toHaveAttribute('data-status', 'COMPLETED', {
    timeout: 20_000,
  });
}
