/**
 * Listening by streaming (no recogniser in the browser, its service fails, or the operator sends
 * every browser through the speech-to-text provider): the microphone goes to the `stt-stream`
 * function while the visitor speaks (services/speechStream.ts), and the transcriber's words come
 * back as they are spoken.
 *
 * - The stream starts at the voice onset with its pre-roll (utteranceCapture.ts, as a recording
 *   does). The socket opens once the detector is sure it is speech, not a cough, and gets what was
 *   captured since the onset at once: a cough opens nothing and costs nothing.
 * - Every frame after that is sent as it comes (16 kHz), after the coach's echo was decided on;
 *   silence only up to SILENCE_SENT_MS after the voice. Longer silence is held back (the stream's
 *   seconds are billed, and a manual commit needs no trailing silence), and its last
 *   SILENCE_SENT_MS go out before the voice that ends it, so a soft onset is not cut off: the
 *   seconds streamed stay within about half a second of the seconds spoken.
 * - The transcriber's partial words are the live caption. At a pause of PAUSE_MS the words so far
 *   (the final words of earlier commits and the partial words) go out as `listening-pause`: the
 *   session starts the reply on them, speculatively, as it does with a recording's segments. Words
 *   that change during the pause go out again; the visitor's voice withdraws them.
 * - The end of speech (the detector's 700 ms of silence, a click, or the session's quiet limit)
 *   commits: the transcriber's final words are the turn's `listening-final`, which confirms the
 *   speculative reply when it has the same words; nothing said fails as 'noSpeech'.
 * - A stream that fails (refused, no transcriber, the connection lost) hands everything the turn
 *   captured so far to the caller (`listening-stream-failed`), which transcribes it by recording
 *   instead: nothing the visitor said is lost.
 */
import { SpeechRecognitionError } from '../../../services/speechRecognition';
import type { SpeechStream } from '../../../services/speechStream';
import type { HeardFrame, ListeningEmit, ListeningPath } from './listeningPath';
import type { StreamingPort } from './ports';
import { CUT_PAUSE_MS } from './recordingPath';
import { joinSamples, type UtteranceCapture } from './utteranceCapture';

/** A pause this long hands over the words so far: as long as a recording's cut, for the same reason. */
export const PAUSE_MS = CUT_PAUSE_MS;
/** Silence sent after the voice, and before the voice that resumes after a longer pause. */
export const SILENCE_SENT_MS = 100;

const joinWords = (parts: readonly string[]) =>
  parts
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .join(' ');

export class StreamingPath implements ListeningPath {
  readonly needsMicrophone = true;
  private capture: UtteranceCapture | null = null;
  private stream: SpeechStream | null = null;
  /** What the turn sent, at 16 kHz, in order: handed over when the stream fails. */
  private readonly heard: Float32Array[] = [];
  /** The latest silence held back during a long pause (at most SILENCE_SENT_MS of it). */
  private held: Float32Array[] = [];
  /** The detector's silence at the latest frame. */
  private silenceMs = 0;
  /** The voice began (after the detector's first doubt). */
  private started = false;
  /** The detector is sure it is speech: the stream is open. */
  private confirmed = false;
  private voicedSincePause = false;
  private pausing = false;
  /** The words handed over at the current pause. */
  private pausedWords: string | null = null;
  /** The final words of earlier commits (the transcriber may commit by itself in a long turn). */
  private readonly finals: string[] = [];
  private partial = '';
  /** The end of the turn was committed; its final words are awaited. */
  private committed = false;
  private ended = false;
  private done = false;

  constructor(
    private readonly streaming: Pick<StreamingPort, 'open'>,
    private readonly emit: ListeningEmit,
  ) {}

  hear({ events, silenceMs, runMs, speaking, capture }: HeardFrame): void {
    // Once failed, the turn (and the capture, still running) belongs to the path that took it over.
    if (this.ended || this.done) return;
    this.capture = capture;
    // A turn that starts while the visitor already speaks (a barge-in) starts at that voice's onset.
    if (!this.started && (speaking || events.includes('speech-maybe') || events.includes('speech-start'))) {
      capture.start(runMs);
      this.started = true;
    }
    if (!this.started) return;
    if (!this.confirmed && events.includes('speech-dropped')) {
      // A cough, a click: nothing to stream.
      capture.stop();
      this.started = false;
      this.heard.length = 0;
      return;
    }
    if (!this.confirmed && (speaking || events.includes('speech-start'))) this.open();
    // Until the detector is sure, the capture keeps what it heard; the stream gets it all at once.
    if (!this.confirmed) return;
    this.silenceMs = silenceMs;
    this.send(silenceMs);
    if (silenceMs === 0) {
      this.voicedSincePause = true;
      if (this.pausing) {
        this.pausing = false;
        this.pausedWords = null;
        this.emit({ type: 'listening-resume' });
      }
    }
    if (this.voicedSincePause && silenceMs >= PAUSE_MS) {
      this.voicedSincePause = false;
      this.pausing = true;
      this.handOverPause();
    }
    if (events.includes('speech-end')) this.stop();
  }

  /** Ends the turn now (the end of speech, or a click): the words so far become final. */
  stop(): void {
    if (this.ended || this.done) return;
    this.ended = true;
    // A click while the first syllable is still in doubt: what was said is still transcribed.
    if (this.started && !this.confirmed) this.open();
    if (this.confirmed) this.send(this.silenceMs);
    this.capture?.stop();
    if (!this.stream) {
      this.finish();
      this.emit({ type: 'listening-failed', error: new SpeechRecognitionError('noSpeech', 'nothing heard') });
      return;
    }
    this.committed = true;
    this.stream.commit();
    this.emit({ type: 'segment-sent' });
    this.emit({ type: 'listening-transcribing' });
  }

  /** No word for the session's limit: the turn ends (without hands-free: 'Keine Sprache erkannt…'). */
  quiet(): void {
    this.stop();
  }

  abort(): void {
    this.ended = true;
    this.capture?.stop();
    this.finish();
  }

  private open(): void {
    this.confirmed = true;
    this.voicedSincePause = true;
    this.stream = this.streaming.open({
      partial: (text) => this.onPartial(text),
      final: (text) => this.onFinal(text),
      failed: (error) => this.onFailed(error),
    });
  }

  /** What the capture holds since the last frame goes out (and is kept for a fallback), unless it is a long pause's silence. */
  private send(silenceMs: number): void {
    const samples = this.capture?.cut();
    if (!samples) return;
    if (silenceMs > SILENCE_SENT_MS) {
      this.hold(samples);
      return;
    }
    for (const chunk of [...this.held, samples]) {
      this.heard.push(chunk);
      this.stream?.send(chunk);
    }
    this.held = [];
  }

  private hold(samples: Float32Array): void {
    this.held.push(samples);
    const limit = (SILENCE_SENT_MS / 1000) * (this.capture?.sampleRate ?? 16_000);
    let kept = this.held.reduce((sum, chunk) => sum + chunk.length, 0);
    while (this.held.length > 1 && kept - (this.held[0]?.length ?? 0) >= limit) kept -= this.held.shift()?.length ?? 0;
  }

  private words(): string {
    return joinWords([...this.finals, this.partial]);
  }

  private onPartial(text: string): void {
    if (this.done) return;
    this.partial = text;
    this.emit({ type: 'listening-interim', text: this.words() });
    this.handOverPause();
  }

  private onFinal(text: string): void {
    if (this.done) return;
    this.finals.push(text);
    this.partial = '';
    if (!this.committed) {
      // The transcriber committed by itself (a long turn): the words so far stay, the turn goes on.
      this.emit({ type: 'listening-interim', text: this.words() });
      return;
    }
    this.finish();
    this.emit({ type: 'segment-words' });
    const words = this.words();
    if (words === '') this.emit({ type: 'listening-failed', error: new SpeechRecognitionError('noSpeech', 'nothing heard') });
    else this.emit({ type: 'listening-final', text: words });
  }

  private onFailed(error: SpeechRecognitionError): void {
    if (this.done) return;
    this.finish();
    this.emit({ type: 'listening-stream-failed', error, heard: joinSamples(this.heard), ended: this.ended });
  }

  /** While the visitor pauses, the words so far go out (again when they changed). */
  private handOverPause(): void {
    if (this.ended || !this.pausing) return;
    const words = this.words();
    if (words === '' || words === this.pausedWords) return;
    this.pausedWords = words;
    this.emit({ type: 'listening-pause', text: words });
  }

  private finish(): void {
    this.done = true;
    this.stream?.close();
    this.stream = null;
  }
}
