/**
 * Test doubles for what jsdom lacks and the coach needs from the outside world: the browser's
 * speech recognition, audio playback, and the project's functions over fetch. Only for tests.
 */
import { vi } from 'vitest';
import type {
  BrowserSpeechRecognition,
  RecognitionErrorEvent,
  RecognitionResultEvent,
} from '../speechRecognition';

/** A scriptable stand-in for window.SpeechRecognition; every instance is recorded. */
export class FakeRecognition implements BrowserSpeechRecognition {
  static instances: FakeRecognition[] = [];
  static latest(): FakeRecognition {
    const last = FakeRecognition.instances.at(-1);
    if (!last) throw new Error('no recognition was started');
    return last;
  }

  lang = '';
  continuous = true;
  interimResults = false;
  maxAlternatives = 0;
  onresult: ((event: RecognitionResultEvent) => void) | null = null;
  onerror: ((event: RecognitionErrorEvent) => void) | null = null;
  onend: (() => void) | null = null;
  started = false;
  stopped = false;
  aborted = false;

  constructor() {
    FakeRecognition.instances.push(this);
  }
  start() {
    this.started = true;
  }
  stop() {
    this.stopped = true;
  }
  abort() {
    this.aborted = true;
  }

  /** Delivers results: each entry is [transcript, isFinal]. */
  hear(...parts: [string, boolean][]) {
    const results = parts.map(([transcript, isFinal]) => Object.assign([{ transcript }], { isFinal }));
    this.onresult?.({ resultIndex: 0, results });
  }
  fail(error: string) {
    this.onerror?.({ error });
  }
  end() {
    this.onend?.();
  }
}

export function installRecognition(): void {
  FakeRecognition.instances = [];
  window.SpeechRecognition = FakeRecognition;
}

export function removeRecognition(): void {
  delete window.SpeechRecognition;
  delete window.webkitSpeechRecognition;
}

/** Audio elements' play() as a test controls it; jsdom implements no media playback. */
export interface FakeAudio {
  /** Elements whose play() was called, in order. */
  played: HTMLMediaElement[];
  /** Object URLs given back. */
  revoked: string[];
  /** Lets the oldest playing element end (fires 'ended'). */
  finishNext(): void;
  /** When set, every play() rejects with this error. */
  rejectWith: Error | null;
  /** When true, playback ends by itself right after it starts. */
  autoEnd: boolean;
  /** Puts the real (unimplemented) media methods back. */
  restore(): void;
}

export function installAudio(): FakeAudio {
  const spies: { mockRestore(): void }[] = [];
  const originalCreate = Object.getOwnPropertyDescriptor(URL, 'createObjectURL');
  const originalRevoke = Object.getOwnPropertyDescriptor(URL, 'revokeObjectURL');
  const state: FakeAudio = {
    played: [],
    revoked: [],
    rejectWith: null,
    autoEnd: false,
    finishNext() {
      const element = playing.shift();
      element?.dispatchEvent(new Event('ended'));
    },
    restore() {
      for (const spy of spies) spy.mockRestore();
      for (const [name, original] of [
        ['createObjectURL', originalCreate],
        ['revokeObjectURL', originalRevoke],
      ] as const) {
        if (original) Object.defineProperty(URL, name, original);
        else Reflect.deleteProperty(URL, name);
      }
    },
  };
  const playing: HTMLMediaElement[] = [];
  const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    if (state.rejectWith) return Promise.reject(state.rejectWith);
    state.played.push(this);
    if (state.autoEnd) setTimeout(() => this.dispatchEvent(new Event('ended')), 0);
    else playing.push(this);
    return Promise.resolve();
  });
  const pause = vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (this: HTMLMediaElement) {
    const index = playing.indexOf(this);
    if (index >= 0) playing.splice(index, 1);
  });
  const load = vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
  spies.push(play, pause, load);
  URL.createObjectURL = () => 'blob:fake';
  URL.revokeObjectURL = (url: string) => {
    state.revoked.push(url);
  };
  return state;
}

export interface RecordedRequest {
  url: string;
  method: string;
  headers: Headers;
  body: string;
}

export type FetchHandler = (request: RecordedRequest) => Response | Promise<Response>;

/** Replaces fetch with a handler; returns the requests it received. */
export function installFetch(handler: FetchHandler): RecordedRequest[] {
  const requests: RecordedRequest[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const recorded: RecordedRequest = {
      url: request.url,
      method: request.method,
      headers: request.headers,
      body: await request.text(),
    };
    requests.push(recorded);
    return handler(recorded);
  });
  return requests;
}

/** A streamed chat completion in the OpenAI SSE format, as the coach function sends it. */
export function sseResponse(deltas: readonly string[], headers: Record<string, string> = {}): Response {
  const encoder = new TextEncoder();
  const chunk = (delta: Record<string, string>, finish: string | null) =>
    `data: ${JSON.stringify({
      id: 'chatcmpl-test',
      object: 'chat.completion.chunk',
      created: 0,
      model: 'test',
      choices: [{ index: 0, delta, finish_reason: finish }],
    })}\n\n`;
  const events = [
    chunk({ role: 'assistant', content: '' }, null),
    ...deltas.map((content) => chunk({ content }, null)),
    chunk({}, 'stop'),
    'data: [DONE]\n\n',
  ];
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const event of events) controller.enqueue(encoder.encode(event));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream', ...headers } });
}

export function audioResponse(headers: Record<string, string> = {}): Response {
  return new Response(new Uint8Array([0xff, 0xfb, 0x90, 0x64, 0, 0, 0, 0]), {
    status: 200,
    headers: { 'content-type': 'audio/mpeg', ...headers },
  });
}

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
