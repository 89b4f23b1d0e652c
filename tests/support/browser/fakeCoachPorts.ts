/**
 * Fakes of everything the coach session drives (features/coach/session/ports.ts), for its unit
 * tests without React or a browser: a recogniser the test speaks through, a microphone it feeds
 * frames into, a speech queue it plays out, a coach call it streams answers through. Only for tests.
 */
import type { BrowserStore } from '../../../src/lib/browserStore';
import type { CoachMessage, CoachMode, CoachReply } from '../../../src/services/coach';
import type { SpeechQueue, SpeechQueueOptions } from '../../../src/services/speechQueue';
import { SpeechRecognitionError, type RecognitionHandlers } from '../../../src/services/speechRecognition';
import type { SpeechStreamCapability } from '../../../src/services/speechStream';
import type { CoachPorts, FrameListener, MicrophoneFeed } from '../../../src/features/coach/session/ports';

/** One start of the recogniser; the test plays the browser's part through its handlers. */
export interface FakeRecognitionRun {
  handlers: RecognitionHandlers;
  stopped: boolean;
  aborted: boolean;
  interim(text: string): void;
  /** The final words, then the end (as the browser does). */
  final(text: string): void;
  fail(code: string, problem?: SpeechRecognitionError['problem']): void;
  end(): void;
}

/** One queue the session created (the greeting's, or a reply's). */
export interface FakeQueue {
  options: SpeechQueueOptions;
  pieces: { text: string; cache: boolean }[];
  /** Whether the gate (if any) has opened: nothing of a speculative reply may be heard before. */
  gateOpen: boolean;
  /** The first sound is heard. */
  start(): void;
  /** Everything queued has been spoken. */
  finish(): void;
  /** A problem: the rest stays silent. */
  fail(error: unknown): void;
  readonly aborted: boolean;
}

/** One call of the coach; the test streams the answer. */
export interface FakeCoachCall {
  history: readonly CoachMessage[];
  conversationId: string | null;
  signal: AbortSignal;
  send(text: string): void;
  end(): void;
  /** The call fails before or while streaming. */
  fail(error: unknown): void;
}

/** One segment sent for transcription; the test answers it. */
export interface FakeTranscription {
  samples: Float32Array;
  /** The segment's length in seconds. */
  seconds: number;
  previousText: string;
  signal: AbortSignal;
  answer(text: string): void;
  fail(error: unknown): void;
}

/** One stream opened to the stt-stream function; the test plays the transcriber's part. */
export interface FakeStream {
  /** The samples sent, in order (16 kHz). */
  sent: Float32Array[];
  /** Seconds sent so far. */
  readonly seconds: number;
  commits: number;
  closed: boolean;
  partial(text: string): void;
  final(text: string): void;
  fail(error: SpeechRecognitionError): void;
}

export interface FakeCoachWorld {
  ports: CoachPorts;
  recognitions: FakeRecognitionRun[];
  queues: FakeQueue[];
  calls: FakeCoachCall[];
  transcriptions: FakeTranscription[];
  /** Audio output calls in order: 'unlock', 'hold', 'release'. */
  audio: string[];
  /** How often the session asked to warm up the way to the coach function. */
  coachWarmUps: number;
  microphone: {
    /** Opened feeds (each open of the microphone). */
    opened: number;
    open: boolean;
    deny: boolean;
    /**
     * Delivers microphone frames to the open feed, each with what the page played at that moment
     * (`reference[i]`, none when missing).
     */
    frames(frames: Float32Array[], reference?: Float32Array[]): void;
  };
  /** Whether a recogniser exists in this "browser". */
  recogniser: boolean;
  /** Whether the stt function has a provider (a promise: the answer is still on its way). */
  transcriptionAvailable: boolean | Promise<boolean>;
  /** What GET stt-stream answers (a promise: the answer is still on its way); no transcriber by default. */
  streaming: SpeechStreamCapability | Promise<SpeechStreamCapability>;
  streams: FakeStream[];
  latestStream(): FakeStream;
  ratings: [string, number][];
  handsFree: BrowserStore<'on' | 'off'>;
  leavePage(): void;
  latestQueue(): FakeQueue;
  latestCall(): FakeCoachCall;
  latestRecognition(): FakeRecognitionRun;
}

/**
 * Lets every promise chain the fakes have started run to its end before a test looks for what did
 * not happen: the fakes answer with promises alone (no fetch, no clock), so their chains are done
 * by the next macrotask.
 */
export function settled(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

function memoryStore(): BrowserStore<'on' | 'off'> {
  let value: 'on' | 'off' | null = null;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set: (next) => {
      value = next;
      listeners.forEach((listener) => listener());
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** An async iterable the test pushes text into. */
function textStream() {
  const queue: string[] = [];
  let ended = false;
  let failure: Error | null = null;
  let wake: () => void = () => undefined;
  async function* deltas(): AsyncGenerator<string> {
    for (;;) {
      const next = queue.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (failure !== null) throw failure;
      if (ended) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  }
  return {
    deltas: deltas(),
    send(text: string) {
      queue.push(text);
      wake();
    },
    end() {
      ended = true;
      wake();
    },
    fail(error: unknown) {
      failure = error instanceof Error ? error : new Error(String(error));
      wake();
    },
  };
}

export function fakeCoachWorld(): FakeCoachWorld {
  let onFrame: FrameListener | null = null;
  let pageHide: (() => void) | null = null;

  const world: Omit<FakeCoachWorld, 'ports'> = {
    recognitions: [],
    queues: [],
    calls: [],
    transcriptions: [],
    audio: [],
    coachWarmUps: 0,
    recogniser: true,
    transcriptionAvailable: true,
    streaming: { available: false, everyBrowser: false },
    streams: [],
    ratings: [],
    handsFree: memoryStore(),
    microphone: {
      opened: 0,
      open: false,
      deny: false,
      frames(frames, reference = []) {
        frames.forEach((frame, index) => onFrame?.(frame, reference[index] ?? null));
      },
    },
    leavePage: () => pageHide?.(),
    latestQueue() {
      const queue = world.queues.at(-1);
      if (!queue) throw new Error('no speech queue was created');
      return queue;
    },
    latestCall() {
      const call = world.calls.at(-1);
      if (!call) throw new Error('the coach was not called');
      return call;
    },
    latestStream() {
      const stream = world.streams.at(-1);
      if (!stream) throw new Error('no stream was opened');
      return stream;
    },
    latestRecognition() {
      const run = world.recognitions.at(-1);
      if (!run) throw new Error('no recognition was started');
      return run;
    },
  };

  const createQueue = (options: SpeechQueueOptions): SpeechQueue => {
    let finish: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    options.signal.addEventListener('abort', () => finish(), { once: true });
    let started = false;
    const queue: FakeQueue = {
      options,
      pieces: [],
      gateOpen: options.gate === undefined,
      start() {
        if (started || options.signal.aborted || !queue.gateOpen) return;
        started = true;
        options.onStart();
      },
      finish: () => finish(),
      fail(error) {
        options.onProblem(error);
        finish();
      },
      get aborted() {
        return options.signal.aborted;
      },
    };
    void options.gate?.then(() => {
      queue.gateOpen = true;
    });
    world.queues.push(queue);
    return {
      enqueue: (text, { cache = false } = {}) => queue.pieces.push({ text, cache }),
      finished: () => finished,
    };
  };

  const ports: CoachPorts = {
    recognition: {
      supported: () => world.recogniser,
      start(handlers) {
        if (!world.recogniser) throw new SpeechRecognitionError('unsupported', 'unsupported');
        let finished = false;
        const run: FakeRecognitionRun = {
          handlers,
          stopped: false,
          aborted: false,
          interim: (text) => {
            if (!finished) handlers.onInterim(text);
          },
          final: (text) => {
            if (finished) return;
            handlers.onInterim(text);
            handlers.onFinal(text);
            run.end();
          },
          fail: (code, problem = 'failed') => {
            if (finished) return;
            handlers.onError(new SpeechRecognitionError(problem, code));
            run.end();
          },
          end: () => {
            if (finished) return;
            finished = true;
            handlers.onEnd();
          },
        };
        world.recognitions.push(run);
        return {
          stop: () => {
            run.stopped = true;
          },
          abort: () => {
            run.aborted = true;
            finished = true;
          },
        };
      },
    },
    microphone: {
      open(listener) {
        if (world.microphone.deny) return Promise.reject(new SpeechRecognitionError('denied', 'NotAllowedError'));
        world.microphone.opened += 1;
        onFrame = listener;
        const feed: MicrophoneFeed = {
          sampleRate: 24_000,
          close() {
            world.microphone.open = false;
            onFrame = null;
          },
        };
        // Open (and fed by `frames`) once the session has received the feed.
        return Promise.resolve(feed).then((opened) => {
          world.microphone.open = true;
          return opened;
        });
      },
    },
    transcription: {
      available: () => Promise.resolve(world.transcriptionAvailable),
      canRecord: () => true,
      transcribe(samples, sampleRate, { previousText, signal }) {
        return new Promise<string>((resolve, reject) => {
          signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), { once: true });
          world.transcriptions.push({ samples, seconds: samples.length / sampleRate, previousText, signal, answer: resolve, fail: reject });
        });
      },
    },
    streaming: {
      capability: () => Promise.resolve(world.streaming),
      canStream: () => true,
      open(handlers) {
        let ended = false;
        const stream: FakeStream = {
          sent: [],
          get seconds() {
            return stream.sent.reduce((sum, samples) => sum + samples.length, 0) / 16_000;
          },
          commits: 0,
          closed: false,
          partial: (text) => {
            if (!ended) handlers.partial(text);
          },
          final: (text) => {
            if (!ended) handlers.final(text);
          },
          fail: (error) => {
            if (ended) return;
            ended = true;
            handlers.failed(error);
          },
        };
        world.streams.push(stream);
        return {
          send: (samples) => void stream.sent.push(samples),
          commit: () => {
            stream.commits += 1;
          },
          close: () => {
            ended = true;
            stream.closed = true;
          },
        };
      },
    },
    audio: {
      unlock: () => world.audio.push('unlock'),
      prepare: () => undefined,
      hold: () => world.audio.push('hold'),
      release: () => world.audio.push('release'),
    },
    speech: () => Promise.resolve({ createQueue }),
    coach: {
      preload: () => undefined,
      warmUp: () => {
        world.coachWarmUps += 1;
      },
      startReply(history, { conversationId, signal }) {
        const stream = textStream();
        let refuse: (error: unknown) => void = () => undefined;
        let answer: (reply: CoachReply) => void = () => undefined;
        const started = new Promise<CoachReply>((resolve, reject) => {
          answer = resolve;
          refuse = reject;
        });
        const mode: CoachMode = 'model';
        let answered = false;
        const respond = () => {
          if (answered) return;
          answered = true;
          answer({ conversationId: conversationId ?? 'c-1', mode, deltas: stream.deltas });
        };
        signal.addEventListener('abort', () => {
          const aborted = new DOMException('aborted', 'AbortError');
          refuse(aborted);
          stream.fail(aborted);
        });
        world.calls.push({
          history,
          conversationId,
          signal,
          send(text) {
            respond();
            stream.send(text);
          },
          end() {
            respond();
            stream.end();
          },
          fail(error) {
            if (answered) stream.fail(error);
            else refuse(error);
          },
        });
        return started;
      },
      rate(conversationId, value) {
        world.ratings.push([conversationId, value]);
        return Promise.resolve();
      },
    },
    handsFree: world.handsFree,
    warmUp: () => () => undefined,
    onPageHide(listener) {
      pageHide = listener;
      return () => {
        pageHide = null;
      };
    },
  };
  return Object.assign(world, { ports });
}
