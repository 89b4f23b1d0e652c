/**
 * Listening by recording (where neither the browser's recogniser nor a stream serves): one turn of the
 * visitor from the voice onset to the end of speech, with the words made out by the `stt`
 * function while the visitor is still talking.
 *
 * - The recording starts at the voice onset, with a pre-roll (utteranceCapture.ts), not when
 *   listening starts: silence before the words is never uploaded.
 * - At every pause of CUT_PAUSE_MS the audio since the last cut goes to the function as a segment
 *   (with the words of the earlier segments as context). When all segments so far have come back
 *   and the visitor is still silent, `listening-pause` hands over the words: the session starts the
 *   reply on them, speculatively (shown and heard only once confirmed).
 * - If the visitor goes on speaking, `listening-resume` withdraws that; the segments stay (nothing
 *   is uploaded twice) and the next pause hands over the longer text.
 * - It also takes over a streamed turn whose stream failed (`takeOver`), with what was captured.
 * - The end of speech (the detector's 700 ms of silence, a click, or the session's quiet limit)
 *   ends the turn: `listening-final` gives the whole text, which confirms the speculative reply when
 *   it has the same words; nothing said fails as 'noSpeech'.
 */
import { SpeechRecognitionError } from '../../../services/speechRecognition';
import type { HeardFrame, ListeningEmit, ListeningPath } from './listeningPath';
import type { TranscriptionPort } from './ports';
import type { UtteranceCapture } from './utteranceCapture';

/** A pause this long ends a segment: longer than the silences inside words (a stop's closure). */
export const CUT_PAUSE_MS = 100;

interface Segment {
  text: string | null;
  done: Promise<void>;
}

export class RecordingPath implements ListeningPath {
  readonly needsMicrophone = true;
  private readonly controller = new AbortController();
  private readonly segments: Segment[] = [];
  /** The microphone's capture, from the first frame heard. */
  private capture: UtteranceCapture | null = null;
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
    private readonly transcription: Pick<TranscriptionPort, 'transcribe'>,
    private readonly emit: ListeningEmit,
  ) {}

  hear({ events, silenceMs, runMs, speaking, capture }: HeardFrame): void {
    if (this.ended) return;
    this.capture = capture;
    // A turn that starts while the visitor already speaks (a barge-in) starts at that voice's onset.
    if (!this.started && (speaking || events.includes('speech-maybe') || events.includes('speech-start'))) {
      capture.start(runMs);
      this.started = true;
      this.voicedSinceCut = true;
    }
    if (!this.started) return;
    if (speaking || events.includes('speech-start')) this.confirmed = true;
    if (events.includes('speech-dropped') && !this.confirmed && this.segments.length === 0) {
      // A cough, a click: nothing to record yet.
      capture.stop();
      this.started = false;
      this.voicedSinceCut = false;
      return;
    }
    if (silenceMs === 0) {
      this.voicedSinceCut = true;
      if (this.pausing) {
        this.pausing = false;
        this.emit({ type: 'listening-resume' });
      }
    }
    if (this.confirmed && this.voicedSinceCut && silenceMs >= CUT_PAUSE_MS) {
      this.cutSegment();
      this.pausing = true;
    }
    if (events.includes('speech-end')) this.stop();
  }

  /** Ends the turn now (the end of speech, or a click). */
  stop(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.started && this.voicedSinceCut) this.cutSegment();
    this.capture?.stop();
    if (this.segments.some((segment) => segment.text === null)) this.emit({ type: 'listening-transcribing' });
    void Promise.all(this.segments.map((segment) => segment.done)).then(() => {
      if (this.failed || this.controller.signal.aborted) return;
      const text = this.text();
      if (text === '') this.emit({ type: 'listening-failed', error: new SpeechRecognitionError('noSpeech', 'nothing heard') });
      else this.emit({ type: 'listening-final', text });
    });
  }

  /**
   * Takes over a turn another path began (its stream failed): `heard` is what that path captured
   * (at `sampleRate`), sent as the first segment; the microphone's capture goes on where it left
   * off. `ended`: the visitor had already finished, so the turn ends with that segment's words.
   */
  takeOver(heard: Float32Array, sampleRate: number, ended: boolean): void {
    this.started = true;
    this.confirmed = true;
    this.voicedSinceCut = false;
    // A pause now hands over the words as soon as they are back; the visitor's voice withdraws them.
    this.pausing = true;
    if (heard.length > 0) this.sendSegment(heard, sampleRate);
    if (ended) this.stop();
  }

  /** No word for the session's limit: the turn ends (without hands-free: 'Keine Sprache erkannt…'). */
  quiet(): void {
    this.stop();
  }

  abort(): void {
    this.ended = true;
    this.capture?.stop();
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
    const samples = this.capture?.cut();
    if (!samples || !this.capture) return;
    this.sendSegment(samples, this.capture.sampleRate);
  }

  private sendSegment(samples: Float32Array, sampleRate: number): void {
    const segment: Segment = { text: null, done: Promise.resolve() };
    const { signal } = this.controller;
    this.emit({ type: 'segment-sent' });
    segment.done = this.transcription.transcribe(samples, sampleRate, { previousText: this.text(), signal }).then(
      (text) => {
        if (!signal.aborted) this.emit({ type: 'segment-words' });
        segment.text = text;
        this.handOverPause();
      },
      (error: unknown) => {
        if (signal.aborted || this.failed) return;
        this.failed = true;
        this.controller.abort();
        this.emit({ type: 'listening-failed', error });
      },
    );
    this.segments.push(segment);
  }

  /** While the visitor is still pausing and every segment is back, the words so far go out. */
  private handOverPause(): void {
    if (this.ended || !this.pausing || this.voicedSinceCut) return;
    if (this.segments.some((segment) => segment.text === null)) return;
    const text = this.text();
    if (text !== '') this.emit({ type: 'listening-pause', text });
  }
}
