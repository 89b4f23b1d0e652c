/**
 * A way of turning the visitor's voice into words: the browser's recogniser
 * (recogniserPath.ts), recording at the microphone with the `stt` function transcribing
 * (recordingPath.ts), or streaming the microphone to a transcriber (streamingPath.ts). The session starts one per turn of the visitor and hears only its events.
 *
 * Frames flow one way: the microphone → the session's ear (hearing.ts: the echo taken out, the
 * voice detector's decision, the pre-roll kept) → the listening path (`hear`) → its events → the
 * session. A path that makes out words while the visitor speaks and its final words at the end
 * (a transcription streamed over a WebSocket, say) is a third implementation of the same interface:
 * it takes the frames from `hear`, emits `listening-interim` as the words come and
 * `listening-final` at the end of speech.
 */
import type { VoiceActivityEvent } from '../../../lib/voiceActivity';
import type { UtteranceCapture } from './utteranceCapture';

/** One 20 ms frame of the open microphone, as the ear heard it. */
export interface HeardFrame {
  /** The microphone's samples (at `sampleRate`). */
  samples: Float32Array;
  sampleRate: number;
  frameMs: number;
  /** What the voice detector made of this frame (after the coach's echo was taken out). */
  events: readonly VoiceActivityEvent[];
  /** Milliseconds since the last speech frame (0 while one just came). */
  silenceMs: number;
  /** How long the current run of voice has lasted (ms). */
  runMs: number;
  /** Whether the detector is sure the visitor speaks (between speech-start and speech-end). */
  speaking: boolean;
  /** The microphone's last second and what is captured from it: a turn starts at the voice onset with its pre-roll. */
  capture: UtteranceCapture;
}

/** What a listening path reports, in order. The session reduces these. */
export type ListeningEvent =
  /** Words made out while the visitor speaks (the live caption). */
  | { type: 'listening-interim'; text: string }
  /** The visitor pauses and these are the words so far: a reply may start on them, speculatively. */
  | { type: 'listening-pause'; text: string }
  /** The visitor goes on after such a pause: a reply started on the words so far is withdrawn. */
  | { type: 'listening-resume' }
  /** The visitor has finished; the words are still being made out. */
  | { type: 'listening-transcribing' }
  /** The visitor's final words ('' when the recogniser heard nothing it would call words). */
  | { type: 'listening-final'; text: string }
  /** The path ended without final words (stopped by a click, or by its own silence limit). */
  | { type: 'listening-ended' }
  /**
   * It heard no words within its own time limit (the recogniser's 'no-speech'); its end follows.
   * `error` is the SpeechRecognitionError ('noSpeech') to show when hands-free does not pause instead.
   */
  | { type: 'listening-silent'; error: unknown }
  /** It failed; `error` is a SpeechRecognitionError (its problem names the catalogue message). */
  | { type: 'listening-failed'; error: unknown }
  /** The browser's recognition service is not there (Chromium without Google's service): record instead. */
  | { type: 'listening-unavailable'; error: unknown }
  /**
   * The streamed path's transcriber failed: `heard` is what the turn captured so far (16 kHz), to be
   * transcribed by recording instead; `ended` when the visitor had already finished.
   */
  | { type: 'listening-stream-failed'; error: unknown; heard: Float32Array; ended: boolean }
  /**
   * A recorded segment went to the `stt` function, and its words came back; on the streamed path,
   * the commit at the end of speech, and its final words.
   */
  | { type: 'segment-sent' }
  | { type: 'segment-words' };

export interface ListeningPath {
  /** Whether the path hears through the session's microphone (its frames come through `hear`). */
  readonly needsMicrophone: boolean;
  /** One frame of the open microphone; the session's own reaction to it came first. */
  hear(frame: HeardFrame): void;
  /** The visitor clicked: the turn ends now, and what was said still arrives as final words. */
  stop(): void;
  /** The visitor has been quiet for the session's limit: a path that keeps no time of its own ends its turn. */
  quiet(): void;
  /** Drops the turn: nothing more is sent, and no event follows. */
  abort(): void;
}

/** A path reports through `emit` from its first callback on, never from inside its constructor. */

export type ListeningEmit = (event: ListeningEvent) => void;
