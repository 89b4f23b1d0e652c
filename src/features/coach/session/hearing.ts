/**
 * The session's ear: the open microphone with what listens to it. Each 20 ms frame has the coach's
 * own echo taken out (echo.ts, against what the page played at the same moment), the voice
 * detector decides on what remains, and the frame is kept for a recording's pre-roll
 * (utterance.ts). The session hears the detector's events frame by frame.
 */
import { createVoiceActivityDetector, type VoiceActivityDetector, type VoiceActivityEvent } from '../../../lib/voiceActivity';
import { createEchoDecision, type EchoDecision } from './echo';
import type { MicrophoneFeed, MicrophonePort } from './ports';
import { createUtteranceCapture, type UtteranceCapture } from './utterance';

/**
 * Voice needed before the coach is held (the detector's doubt): long enough for a click or a
 * short noise to pass, short enough that a hold never lasts beyond voiceHold's MAX_HOLD_MS before
 * the detector is sure (it is at 250 ms of voice).
 */
const MAYBE_MS = 140;

/** The open microphone with what listens to it. */
export interface Hearing {
  feed: MicrophoneFeed;
  detector: VoiceActivityDetector;
  /** Created with the first frame (its analysis needs the frame's length). */
  echo: EchoDecision | null;
  capture: UtteranceCapture;
}

/** One frame as the detector heard it. */
export interface HeardFrame {
  events: readonly VoiceActivityEvent[];
  frameMs: number;
  detector: VoiceActivityDetector;
}

/** An opening of the microphone; `cancelled` once it is no longer wanted (it is then closed on arrival). */
export interface Opening {
  cancelled: boolean;
  ready: Promise<Hearing>;
}

export class SessionEar {
  private hearing: Hearing | null = null;
  private opening: Opening | null = null;

  /**
   * `onFrame` gets every frame's events; `onRefused` an opening's failure that was still wanted
   * (a cancelled opening fails silently).
   */
  constructor(
    private readonly microphone: MicrophonePort,
    private readonly onFrame: (frame: HeardFrame) => void,
    private readonly onRefused: (error: unknown) => void,
  ) {}

  /** The microphone is open, or being opened. */
  get active(): boolean {
    return this.hearing !== null || this.opening !== null;
  }

  /** The open microphone, or null. */
  get current(): Hearing | null {
    return this.hearing;
  }

  /** Milliseconds since the visitor last spoke, or null while nothing listens. */
  get silenceMs(): number | null {
    return this.hearing ? this.hearing.detector.silenceMs : null;
  }

  /** The open microphone, opened now if it is not (yet). Rejects like the microphone port. */
  ready(): Promise<Hearing> {
    if (this.hearing) return Promise.resolve(this.hearing);
    return (this.opening ?? this.open()).ready;
  }

  open(): Opening {
    const ready = this.microphone.open((samples, reference) => this.hear(samples, reference)).then(
      (feed) => {
        if (attempt.cancelled) {
          feed.close();
          throw new DOMException('The microphone is no longer wanted', 'AbortError');
        }
        const hearing: Hearing = {
          feed,
          detector: createVoiceActivityDetector({ sampleRate: feed.sampleRate, maybeMs: MAYBE_MS }),
          echo: null,
          capture: createUtteranceCapture({ sampleRate: feed.sampleRate }),
        };
        this.hearing = hearing;
        this.opening = null;
        return hearing;
      },
      (error: unknown) => {
        if (this.opening === attempt) this.opening = null;
        if (!attempt.cancelled) this.onRefused(error);
        throw error;
      },
    );
    // Whoever waits for it handles a failure; the voice detector alone needs nobody to.
    ready.catch(() => undefined);
    const attempt: Opening = { cancelled: false, ready };
    this.opening = attempt;
    return attempt;
  }

  close(): void {
    if (this.opening) this.opening.cancelled = true;
    this.opening = null;
    this.hearing?.feed.close();
    this.hearing = null;
  }

  /** After a false start: the coach's echo is expected louder from now on. */
  raiseEcho(): void {
    this.hearing?.echo?.raise();
  }

  private hear(samples: Float32Array, reference: Float32Array | null): void {
    const hearing = this.hearing;
    if (!hearing) return;
    hearing.echo ??= createEchoDecision({ sampleRate: hearing.feed.sampleRate, frameLength: samples.length });
    const levels = hearing.echo.push(samples, reference);
    const events = levels ? hearing.detector.pushLevels(levels) : hearing.detector.push(samples);
    hearing.capture.push(samples);
    this.onFrame({ events, frameMs: (samples.length / hearing.feed.sampleRate) * 1000, detector: hearing.detector });
  }
}
