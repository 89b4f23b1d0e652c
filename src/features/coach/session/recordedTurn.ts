/**
 * One turn of the visitor on the recording path (no recogniser in the browser): from the voice
 * onset to the end of speech, with the words made out by the `stt` function while the visitor is
 * still talking.
 *
 * - The recording starts at the voice onset, with a pre-roll (utterance.ts), not when listening
 *   starts: silence before the words is never uploaded.
 * - At every pause of CUT_PAUSE_MS the audio since the last cut goes to the function as a segment
 *   (with the words of the earlier segments as context). When all segments so far have come back
 *   and the visitor is still silent, `onPause` hands over the words: the session starts the reply
 *   on them, speculatively (shown and heard only once confirmed).
 * - If the visitor goes on speaking, `onResume` withdraws that; the segments stay (nothing is
 *   uploaded twice) and the next pause hands over the longer text.
 * - The end of speech (the detector's 700 ms of silence, a click, or nothing heard) ends the turn:
 *   `onWords` gives the whole text ('' when nothing was said), which confirms the speculative reply
 *   when it has the same words.
 */
import type { VoiceActivityEvent } from '../../../lib/voiceActivity';
import type { UtteranceCapture } from './utterance';

/** A pause this long ends a segment: longer than the silences inside words (a stop's closure). */
export const CUT_PAUSE_MS = 100;

export interface TurnTranscriber {
  /** The words of one segment; `previousText` is what the visitor said before it. */
  transcribe(samples: Float32Array, options: { previousText: string; signal: AbortSignal }): Promise<string>;
}

export interface TurnEvents {
  /** The visitor pauses and every segment so far is transcribed: the words so far. */
  onPause(text: string): void;
  /** The visitor goes on speaking after such a pause. */
  onResume(): void;
  /** The turn is over and words are still being made out. */
  onTranscribing(): void;
  /** The turn's words ('' when nothing was said). */
  onWords(text: string): void;
  /** A segment could not be transcribed (a SpeechRecognitionError). */
  onError(error: unknown): void;
}

/** What the voice detector made of one frame. */
export interface FrameHearing {
  events: readonly VoiceActivityEvent[];
  /** Milliseconds since the last speech frame (0 while one just came). */
  silenceMs: number;
  /** How long the current run of voice has lasted (ms). */
  runMs: number;
  /** Whether the detector is sure the visitor speaks (between speech-start and speech-end). */
  speaking: boolean;
}

interface Segment {
  text: string | null;
  done: Promise<void>;
}

export class RecordedTurn {
  private readonly controller = new AbortController();
  private readonly segments: Segment[] = [];
  /** The voice began (after the detector's first doubt). */
  private started = false;
  /** The detector is sure it is speech (not a cough). */
  private confirmed = false;
  private voicedSinceCut = false;
  /** A pause after a cut, handed over or to be handed over. */
  private pausing = false;
  private ended = false;
  private failed = false;

  constructor(
    private readonly capture: UtteranceCapture,
    private readonly transcriber: TurnTranscriber,
    private readonly events: TurnEvents,
  ) {}

  /** Whether the visitor's voice has been heard in this turn. */
  get heardVoice(): boolean {
    return this.started;
  }

  /** Follows one frame of the detector's decisions. */
  hear({ events, silenceMs, runMs, speaking }: FrameHearing): void {
    if (this.ended) return;
    // A turn that starts while the visitor already speaks (a barge-in) starts at that voice's onset.
    if (!this.started && (speaking || events.includes('speech-maybe') || events.includes('speech-start'))) {
      this.capture.start(runMs);
      this.started = true;
      this.voicedSinceCut = true;
    }
    if (!this.started) return;
    if (speaking || events.includes('speech-start')) this.confirmed = true;
    if (events.includes('speech-dropped') && !this.confirmed && this.segments.length === 0) {
      // A cough, a click: nothing to record yet.
      this.capture.stop();
      this.started = false;
      this.voicedSinceCut = false;
      return;
    }
    if (silenceMs === 0) {
      this.voicedSinceCut = true;
      if (this.pausing) {
        this.pausing = false;
        this.events.onResume();
      }
    }
    if (this.confirmed && this.voicedSinceCut && silenceMs >= CUT_PAUSE_MS) {
      this.cutSegment();
      this.pausing = true;
    }
    if (events.includes('speech-end')) this.end();
  }

  /** Ends the turn now (the end of speech, a click, or the time without a word ran out). */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.started && this.voicedSinceCut) this.cutSegment();
    this.capture.stop();
    if (this.segments.some((segment) => segment.text === null)) this.events.onTranscribing();
    void Promise.all(this.segments.map((segment) => segment.done)).then(() => {
      if (this.failed || this.controller.signal.aborted) return;
      this.events.onWords(this.text());
    });
  }

  /** Drops the turn: nothing more is uploaded, pending transcriptions are cancelled, no events follow. */
  abort(): void {
    this.ended = true;
    this.capture.stop();
    this.controller.abort();
  }

  /** The words of the segments transcribed so far, in order. */
  private text(): string {
    return this.segments
      .map((segment) => segment.text?.trim() ?? '')
      .filter((text) => text !== '')
      .join(' ');
  }

  private cutSegment(): void {
    this.voicedSinceCut = false;
    const samples = this.capture.cut();
    if (!samples) return;
    const segment: Segment = { text: null, done: Promise.resolve() };
    segment.done = this.transcriber.transcribe(samples, { previousText: this.text(), signal: this.controller.signal }).then(
      (text) => {
        segment.text = text;
        this.handOverPause();
      },
      (error: unknown) => {
        if (this.controller.signal.aborted || this.failed) return;
        this.failed = true;
        this.controller.abort();
        this.events.onError(error);
      },
    );
    this.segments.push(segment);
  }

  /** While the visitor is still pausing and every segment is back, the words so far go out. */
  private handOverPause(): void {
    if (this.ended || !this.pausing || this.voicedSinceCut) return;
    if (this.segments.some((segment) => segment.text === null)) return;
    const text = this.text();
    if (text !== '') this.events.onPause(text);
  }
}
