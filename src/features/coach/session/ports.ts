/**
 * What the coach session drives, as interfaces: the browser's recogniser, the microphone, the
 * speech-to-text functions (uploaded and streamed), the audio output and speech queue, the coach call, the hands-free
 * preference. browserPorts.ts connects them to the services; the session's tests pass fakes.
 */
import type { BrowserStore } from '../../../lib/browserStore';
import type { StartCoachReply } from '../../../services/replyPipeline';
import type { SpeechQueue, SpeechQueueOptions } from '../../../services/speechQueue';
import type { RecognitionHandlers, RecognitionSession } from '../../../services/speechRecognition';
import type { SpeechStream, SpeechStreamCapability, SpeechStreamHandlers } from '../../../services/speechStream';

export interface RecognitionPort {
  /** Whether the browser has a recogniser (looked up each time: a test may install one later). */
  supported(): boolean;
  /** Throws SpeechRecognitionError('unsupported') without one; the rest arrives through the handlers. */
  start(handlers: RecognitionHandlers): RecognitionSession;
}

/** The open microphone: its frames go to the callback given to `open`. */
export interface MicrophoneFeed {
  readonly sampleRate: number;
  /** Stops the frames and gives the microphone back (the browser's indicator goes out). */
  close(): void;
}

/**
 * One frame of 20 ms: the microphone's samples and what the page played at the same moment (null
 * when the page's output plays nothing through Web Audio).
 */
export type FrameListener = (microphone: Float32Array, reference: Float32Array | null) => void;

export interface MicrophonePort {
  /** Opens the microphone; rejects with a SpeechRecognitionError ('denied', 'failed', 'unsupported'). */
  open(onFrame: FrameListener): Promise<MicrophoneFeed>;
}

export interface TranscriptionPort {
  /** Whether the stt function has a provider (asked once per page view). */
  available(): Promise<boolean>;
  /** Whether this browser can record (the session takes the microphone's samples through Web Audio). */
  canRecord(): boolean;
  /** The words of one segment of speech; rejects with a SpeechRecognitionError. */
  transcribe(samples: Float32Array, sampleRate: number, options: { previousText: string; signal: AbortSignal }): Promise<string>;
}

export interface StreamingPort {
  /** Whether the stt-stream function has a transcriber, and whether every browser should use it (asked once per page view). */
  capability(): Promise<SpeechStreamCapability>;
  /** Whether this browser can stream (the microphone's samples through Web Audio, a WebSocket). */
  canStream(): boolean;
  /** Opens a stream to the function; its words and its failure arrive through the handlers. */
  open(handlers: SpeechStreamHandlers): SpeechStream;
}

/** The page's audio output, synchronous: `unlock` must run inside the visitor's click. */
export interface AudioPort {
  unlock(): void;
  /** Starts setting up the player now (its worklet loads), so the first sound need not wait for it. */
  prepare(): void;
  /** Silent at once, keeping the place (the visitor may be starting to speak). */
  hold(): void;
  release(): void;
}

/** The speech queue's code, loaded with the first click. */
export interface SpeechPort {
  createQueue: (options: SpeechQueueOptions) => SpeechQueue;
}

export interface CoachCallPort {
  /** Starts loading the SDK ahead of the first question. */
  preload(): void;
  /** Gets the way to the function ready (its preflight, an instance) ahead of the first question. */
  warmUp(): void;
  startReply: StartCoachReply;
  rate(conversationId: string, value: number): Promise<void>;
}

export interface CoachPorts {
  recognition: RecognitionPort;
  microphone: MicrophonePort;
  transcription: TranscriptionPort;
  streaming: StreamingPort;
  audio: AudioPort;
  speech(): Promise<SpeechPort>;
  coach: CoachCallPort;
  handsFree: BrowserStore<'on' | 'off'>;
  /**
   * Loads what the first click needs (the speech queue's code, whether a voice provider exists) at
   * the visitor's first sign of intent, so the greeting waits for neither; returns what stops
   * waiting for it.
   */
  warmUp(): () => void;
  /** Listens for the page being left (closed, or put in the back-forward cache); returns the unsubscribe. */
  onPageHide(listener: () => void): () => void;
}
