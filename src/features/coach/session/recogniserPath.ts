/**
 * Listening with the browser's own recogniser (Chrome, Edge, Safari): one utterance with interim
 * words. The recogniser waits for a long pause before it calls the words final; when the interim
 * words have not changed for a moment (and, with the microphone open, the voice detector hears
 * silence) the path reports a pause with them, so that the reply can start already and the final
 * words only confirm it.
 */
import { sameWords } from '../../../lib/sameWords';
import type { RecognitionSession } from '../../../services/speechRecognition';
import type { ListeningEmit, ListeningPath } from './listeningPath';
import type { RecognitionPort } from './ports';

/**
 * How long the interim words must stay the same before they count as a pause: longer than the
 * recogniser's pace between words while the visitor speaks, shorter than the pause it waits for
 * before calling the words final (most of a second in Chrome).
 */
export const STABLE_WORDS_MS = 250;
/** With the microphone open, the voice detector must also have heard this much silence. */
export const PAUSE_SILENCE_MS = 200;
/** While the detector still hears the visitor, the interim words are looked at again this often. */
const RECHECK_MS = 50;

/**
 * The browser's recognition service is unreachable, switched off, or cannot capture (Chromium
 * without Google's speech service): the session records and transcribes instead.
 */
const SERVICE_FAILURES = new Set(['network', 'service-not-allowed', 'audio-capture', 'language-not-supported']);

export class RecogniserPath implements ListeningPath {
  readonly needsMicrophone = false;
  private recognition: RecognitionSession | null = null;
  /** The interim words reported as a pause, until they change. */
  private pausedWords: string | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** The recogniser's service failed: its end is not the end of listening. */
  private replaced = false;

  /**
   * `silenceMs`: how long the voice detector has heard silence, or null while the microphone is
   * closed. Throws SpeechRecognitionError('unsupported') without a recogniser.
   */
  constructor(
    recognition: RecognitionPort,
    private readonly silenceMs: () => number | null,
    private readonly emit: ListeningEmit,
  ) {
    this.recognition = recognition.start({
      onInterim: (text) => {
        this.emit({ type: 'listening-interim', text });
        this.considerPause(text);
      },
      onFinal: (text) => {
        this.finish();
        this.emit({ type: 'listening-final', text });
      },
      onError: (error) => {
        if (SERVICE_FAILURES.has(error.code)) {
          this.replaced = true;
          this.finish();
          this.emit({ type: 'listening-unavailable', error });
          return;
        }
        this.emit(error.problem === 'noSpeech' ? { type: 'listening-silent', error } : { type: 'listening-failed', error });
      },
      onEnd: () => {
        if (this.replaced) return;
        this.finish();
        this.emit({ type: 'listening-ended' });
      },
    });
  }

  /** The recogniser hears for itself; the detector's silence is read through `silenceMs`. */
  hear(): void {
    return undefined;
  }

  stop(): void {
    this.recognition?.stop();
  }

  /** The recogniser keeps its own time. */
  quiet(): void {
    return undefined;
  }

  abort(): void {
    this.recognition?.abort();
    this.finish();
  }

  private finish(): void {
    this.recognition = null;
    this.clearTimer();
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private considerPause(interim: string): void {
    if (this.pausedWords !== null && !sameWords(this.pausedWords, interim)) {
      this.pausedWords = null;
      this.emit({ type: 'listening-resume' });
    }
    this.clearTimer();
    if (this.pausedWords !== null || interim.trim() === '') return;
    const check = (delay: number) => {
      this.timer = setTimeout(() => {
        this.timer = null;
        if (!this.recognition) return;
        // Still hearing the visitor: look again shortly.
        if ((this.silenceMs() ?? PAUSE_SILENCE_MS) < PAUSE_SILENCE_MS) check(RECHECK_MS);
        else {
          this.pausedWords = interim;
          this.emit({ type: 'listening-pause', text: interim });
        }
      }, delay);
    };
    check(STABLE_WORDS_MS);
  }
}
