/**
 * The session's ear: the open microphone with what listens to it. Each 20 ms frame has the coach's
 * own echo taken out (echo.ts, against what the page played at the same moment), the voice
 * detector decides on what remains, and the frame is kept for a recording's pre-roll
 * (utteranceCapture.ts). Each frame goes one way: first the detector's decision to the session
 * (`onVoice`: holding the coach, barge-in, the quiet spell), then the whole frame to the listening
 * path the session listens with (`listener`).
 */
import { createVoiceActivityDetector, type VoiceActivityDetector, type VoiceActivityEvent } from '../../../lib/voiceActivity';
import { createEchoDecision, type EchoDecision } from './echo';
import type { HeardFrame } from './listeningPath';
import type { MicrophoneFeed, MicrophonePort } from './ports';
import { createUtteranceCapture, type UtteranceCapture } from './utteranceCapture';

/**
 * Voice needed before the coach is held (the detector's doubt): long enough for a click or a
 * short noise to pass, short enough that a hold never lasts beyond voiceHold's MAX_HOLD_MS before
 * the detector is sure (it is at 250 ms of voice).
 */
const MAYBE_MS = 140;

/** The open microphone with what listens to it. */
interface Open {
  feed: MicrophoneFeed;
  detector: VoiceActivityDetector;
  /** Created with the first frame (its analysis needs the frame's length). */
  echo: EchoDecision | null;
  capture: UtteranceCapture;
}

/** An opening of the microphone; `cancelled` once it is no longer wanted (it is then closed on arrival). */
interface Opening {
  cancelled: boolean;
}

/** What the detector made of one frame, for the session. */
export interface HeardVoice {
  events: readonly VoiceActivityEvent[];
  frameMs: number;
}

export class SessionEar {
  private open: Open | null = null;
  private opening: Opening | null = null;
  /** The microphone could not be opened: not asked again until it is no longer wanted. */
  private refusedOpening = false;

  /**
   * `onVoice` gets every frame's decision; `onRefused` an opening's failure that was still wanted
   * (a cancelled opening fails silently); `listener` is the listening path that hears the frames
   * after the session, or null.
   */
  constructor(
    private readonly microphone: MicrophonePort,
    private readonly onVoice: (heard: HeardVoice) => void,
    private readonly onRefused: (error: unknown) => void,
    private readonly listener: () => { hear(frame: HeardFrame): void } | null,
  ) {}

  /** The microphone is open, or being opened. */
  get active(): boolean {
    return this.open !== null || this.opening !== null;
  }

  /** The last opening was refused, and the microphone is still wanted. */
  get refused(): boolean {
    return this.refusedOpening;
  }

  /** Milliseconds since the visitor last spoke, or null while nothing listens. */
  get silenceMs(): number | null {
    return this.open ? this.open.detector.silenceMs : null;
  }

  /** Opens the microphone when it is wanted (unless it was refused), closes it when it is not. */
  want(wanted: boolean): void {
    if (!wanted) this.refusedOpening = false;
    if (wanted && !this.active && !this.refusedOpening) this.start();
    else if (!wanted && this.active) this.close();
  }

  close(): void {
    if (this.opening) this.opening.cancelled = true;
    this.opening = null;
    this.open?.feed.close();
    this.open = null;
  }

  /** After a false start: the coach's echo is expected louder from now on. */
  raiseEcho(): void {
    this.open?.echo?.raise();
  }

  private start(): void {
    const attempt: Opening = { cancelled: false };
    this.opening = attempt;
    this.microphone.open((samples, reference) => this.hear(samples, reference)).then(
      (feed) => {
        if (attempt.cancelled) {
          feed.close();
          return;
        }
        this.open = {
          feed,
          detector: createVoiceActivityDetector({ sampleRate: feed.sampleRate, maybeMs: MAYBE_MS }),
          echo: null,
          capture: createUtteranceCapture({ sampleRate: feed.sampleRate }),
        };
        this.opening = null;
      },
      (error: unknown) => {
        if (this.opening === attempt) this.opening = null;
        if (attempt.cancelled) return;
        this.refusedOpening = true;
        this.onRefused(error);
      },
    );
  }

  private hear(samples: Float32Array, reference: Float32Array | null): void {
    const open = this.open;
    if (!open) return;
    const { feed, detector, capture } = open;
    open.echo ??= createEchoDecision({ sampleRate: feed.sampleRate, frameLength: samples.length });
    const levels = open.echo.push(samples, reference);
    const events = levels ? detector.pushLevels(levels) : detector.push(samples);
    capture.push(samples);
    const frameMs = (samples.length / feed.sampleRate) * 1000;
    this.onVoice({ events, frameMs });
    // After the session's reaction: a barge-in or a resumed pause has attached its path by now.
    this.listener()?.hear({
      samples,
      sampleRate: feed.sampleRate,
      frameMs,
      events,
      silenceMs: detector.silenceMs,
      runMs: detector.runMs,
      speaking: detector.speaking,
      capture,
    });
  }
}
