/**
 * Test doubles for what jsdom lacks and the coach needs from the outside world: the browser's
 * speech recognition, audio playback, and the project's functions over fetch. Only for tests.
 */
import { vi } from 'vitest';
import type {
  BrowserSpeechRecognition,
  RecognitionErrorEvent,
  RecognitionResultEvent,
} from '../../../src/services/speechRecognition';

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

/** A piece of speech as the fake player received it. */
export interface FakePiece {
  id: number;
  /** Samples received (16-bit PCM turned into floats). */
  samples: number;
  /** The main thread said the piece is complete. */
  complete: boolean;
  played: boolean;
}

/**
 * Web Audio as a test controls it (jsdom has none): one AudioContext and the PCM player worklet,
 * whose pieces the test plays out with `playNext()` (or `autoPlay`). The real player runs in the
 * end-to-end tests in Chromium.
 */
export interface FakeWebAudio {
  pieces: FakePiece[];
  /** `clear` commands (barge-in, stop). */
  clears: number;
  /** Whether the player is held silent (the visitor may be starting to speak). */
  held: boolean;
  /** Microphone frames worklets that are listened to right now. */
  readonly microphoneWorklets: number;
  /** Tempo of each `format` command. */
  tempos: number[];
  /** The context will not start (the browser blocks audio). */
  suspended: boolean;
  /** Complete pieces play out by themselves, in order. */
  autoPlay: boolean;
  /** Plays the oldest unplayed piece (it must be complete). */
  playNext(): void;
  /**
   * Delivers 20 ms microphone frames through the frames worklet, each with what the page played at
   * that moment (`reference[i]`; silence when missing).
   */
  micFrames(frames: Float32Array[], reference?: Float32Array[]): void;
  reset(): void;
}

let webAudio: { state: FakeWebAudio; context: unknown; node: unknown } | null = null;

/**
 * Installs the fake (again: the page's audio output keeps its one context for the whole test file,
 * so the fake's state is reset rather than replaced).
 */
export function installWebAudio(): FakeWebAudio {
  webAudio ??= createWebAudio();
  webAudio.state.reset();
  vi.stubGlobal('AudioContext', webAudio.context);
  vi.stubGlobal('AudioWorkletNode', webAudio.node);
  return webAudio.state;
}

function createWebAudio(): { state: FakeWebAudio; context: unknown; node: unknown } {
  type Port = { onmessage: ((event: MessageEvent) => void) | null };
  const players: { port: Port }[] = [];
  const microphones: { port: Port }[] = [];
  const post = (data: unknown) => {
    for (const player of players) player.port.onmessage?.(new MessageEvent('message', { data }));
  };
  const state: FakeWebAudio = {
    pieces: [],
    clears: 0,
    held: false,
    get microphoneWorklets() {
      return microphones.filter((microphone) => microphone.port.onmessage !== null).length;
    },
    tempos: [],
    suspended: false,
    autoPlay: false,
    playNext() {
      const piece = state.pieces.find((candidate) => !candidate.played);
      if (!piece?.complete) throw new Error('no complete piece to play');
      piece.played = true;
      if (piece.samples > 0) post({ type: 'started', piece: piece.id });
      post({ type: 'ended', piece: piece.id });
    },
    micFrames(frames, reference = []) {
      frames.forEach((frame, index) => {
        const data = { microphone: frame, reference: reference[index] ?? new Float32Array(frame.length) };
        for (const microphone of microphones) microphone.port.onmessage?.(new MessageEvent('message', { data }));
      });
    },
    reset() {
      state.pieces = [];
      state.clears = 0;
      state.held = false;
      state.tempos = [];
      state.suspended = false;
      state.autoPlay = false;
    },
  };
  const piece = (id: number) => {
    let found = state.pieces.find((candidate) => candidate.id === id);
    if (!found) {
      found = { id, samples: 0, complete: false, played: false };
      state.pieces.push(found);
      state.pieces.sort((a, b) => a.id - b.id);
    }
    return found;
  };
  const autoPlay = () => {
    if (!state.autoPlay) return;
    setTimeout(() => {
      while (state.pieces.find((candidate) => !candidate.played)?.complete) state.playNext();
    }, 0);
  };
  class FakeAudioParam {
    value = 1;
  }
  class FakeNode {
    connect<T>(target: T): T {
      return target;
    }
    disconnect() {
      /* nothing to undo */
    }
  }
  class FakeWorkletNode extends FakeNode {
    readonly playbackRate = new FakeAudioParam();
    readonly pitch = new FakeAudioParam();
    readonly port = {
      onmessage: null as ((event: MessageEvent) => void) | null,
      postMessage(command: { type: string; piece?: number; samples?: Float32Array; tempo?: number }) {
        if (command.type === 'push' && command.piece !== undefined) piece(command.piece).samples += command.samples?.length ?? 0;
        if (command.type === 'end' && command.piece !== undefined) {
          piece(command.piece).complete = true;
          autoPlay();
        }
        if (command.type === 'clear') {
          state.clears += 1;
          for (const entry of state.pieces) entry.played = true;
        }
        if (command.type === 'format' && command.tempo !== undefined) state.tempos.push(command.tempo);
        if (command.type === 'hold') state.held = true;
        if (command.type === 'release') state.held = false;
      },
    };
    constructor(_context: unknown, name: string) {
      super();
      if (name === 'mic-frames') microphones.push(this);
      else players.push(this);
    }
  }
  class FakeAudioContext {
    readonly sampleRate = 24_000;
    readonly destination = new FakeNode();
    readonly audioWorklet = { addModule: () => Promise.resolve() };
    get state(): AudioContextState {
      return state.suspended ? 'suspended' : 'running';
    }
    resume() {
      return Promise.resolve();
    }
    createBuffer() {
      return {};
    }
    createBufferSource() {
      return Object.assign(new FakeNode(), { buffer: null, start: () => undefined });
    }
    createAnalyser() {
      return Object.assign(new FakeNode(), { fftSize: 2048, getFloatTimeDomainData: (array: Float32Array) => array.fill(0) });
    }
    createMediaStreamSource() {
      return new FakeNode();
    }
    createGain() {
      return Object.assign(new FakeNode(), { gain: new FakeAudioParam() });
    }
  }
  return { state, context: FakeAudioContext, node: FakeWorkletNode };
}

/** A PCM answer of the tts function: `samples` 16-bit samples, sent in two pieces as a stream. */
export function pcmResponse(headers: Record<string, string> = {}, samples = 480): Response {
  const bytes = new Uint8Array(samples * 2).fill(1);
  const half = Math.floor(bytes.length / 2) + 1;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes.subarray(0, half));
      controller.enqueue(bytes.subarray(half));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'audio/pcm', 'x-sample-rate': '24000', ...headers } });
}

/** The microphone as a test controls it: getUserMedia answers a stream whose tracks record `stop()`. */
export interface FakeMicrophone {
  /** getUserMedia refuses (the visitor denied access). */
  deny: boolean;
  /** Streams handed out. */
  opened: number;
  /** Whether every handed-out track has been stopped (the recording indicator is off). */
  allStopped(): boolean;
}

export function installMicrophone(): FakeMicrophone {
  const tracks: { stopped: boolean }[] = [];
  const state: FakeMicrophone = {
    deny: false,
    opened: 0,
    allStopped: () => tracks.every((track) => track.stopped),
  };
  const getUserMedia = () => {
    if (state.deny) return Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
    state.opened += 1;
    const track = { stopped: false, stop: () => (track.stopped = true) };
    tracks.push(track);
    const stream = {
      getTracks: () => [track],
      get active() {
        return !track.stopped;
      },
    };
    return Promise.resolve(stream as unknown as MediaStream);
  };
  Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia }, configurable: true });
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

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/**
 * The browser's WebSocket, with the far end (the `stt-stream` function) played by the test: it
 * opens the socket, sends the function's messages and closes it. Records what the page sent.
 */
export class FakeSocket extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static instances: FakeSocket[] = [];
  static latest(): FakeSocket {
    const socket = FakeSocket.instances.at(-1);
    if (!socket) throw new Error('no WebSocket was opened');
    return socket;
  }

  readyState = FakeSocket.CONNECTING;
  binaryType: BinaryType = 'blob';
  /** What the page sent: PCM as ArrayBuffers, messages as text. */
  readonly sent: (ArrayBuffer | string)[] = [];
  closedWith: number | null = null;

  constructor(readonly url: string) {
    super();
    FakeSocket.instances.push(this);
  }

  send(data: ArrayBuffer | string): void {
    if (this.readyState !== FakeSocket.OPEN) throw new DOMException('not open', 'InvalidStateError');
    this.sent.push(data);
  }

  close(code = 1000): void {
    if (this.readyState === FakeSocket.CLOSED) return;
    this.closedWith = code;
    this.readyState = FakeSocket.CLOSED;
  }

  /** Bytes of PCM the page sent. */
  pcmBytes(): number {
    return this.sent.reduce((sum, data) => sum + (typeof data === 'string' ? 0 : data.byteLength), 0);
  }

  /** The text messages the page sent, parsed. */
  messages(): unknown[] {
    return this.sent.filter((data): data is string => typeof data === 'string').map((data) => JSON.parse(data) as unknown);
  }

  // The far end:
  open(): void {
    this.readyState = FakeSocket.OPEN;
    this.dispatchEvent(new Event('open'));
  }

  receive(message: unknown): void {
    this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(message) }));
  }

  serverClose(code: number, reason = ''): void {
    this.readyState = FakeSocket.CLOSED;
    this.dispatchEvent(new CloseEvent('close', { code, reason }));
  }
}

export function installWebSocket(): void {
  FakeSocket.instances = [];
  vi.stubGlobal('WebSocket', FakeSocket);
}
