import { PlaybackError, playSpeech, type SpeechAudio } from '../../services/audioPlayback';
import { fetchSpeech } from '../../services/tts';
import { coachTexts } from './texts';

/**
 * Speaks sentences in order while fetching their audio in parallel: each sentence's synthesis
 * starts the moment it is queued, playback waits only for the sentence before it. The first
 * problem (synthesis refused, autoplay blocked, broken audio) is reported once and the rest of
 * the answer stays silent: the visitor reads it instead. An aborted signal stops everything at
 * once (barge-in) and reports nothing.
 */
export interface SpeechQueue {
  /** Queues a sentence; `audio` is its already-requested audio (the cached greeting). */
  enqueue(text: string, audio?: Promise<SpeechAudio>): void;
  /** Resolves when everything queued so far has been spoken, skipped or stopped. */
  finished(): Promise<void>;
}

export interface SpeechQueueOptions {
  signal: AbortSignal;
  /** The first sound of this queue started. */
  onStart: () => void;
  /** A catalogue message explaining why the rest stays silent. */
  onProblem: (message: string) => void;
}

export function playbackProblem(error: unknown): string {
  return error instanceof PlaybackError && error.reason === 'blocked'
    ? coachTexts.errors.autoplayBlocked
    : coachTexts.errors.playback;
}

export function createSpeechQueue({ signal, onStart, onProblem }: SpeechQueueOptions): SpeechQueue {
  let chain: Promise<void> = Promise.resolve();
  let silent = false;
  let started = false;
  const stopped = () => silent || signal.aborted;
  const start = () => {
    if (started) return;
    started = true;
    onStart();
  };
  return {
    enqueue(text, audio) {
      if (stopped()) return;
      const pending = audio ?? fetchSpeech(text, { signal });
      // Failures are handled in turn below; until then the rejection must not count as unhandled.
      pending.catch(() => undefined);
      chain = chain.then(async () => {
        if (stopped()) return;
        try {
          await playSpeech(await pending, text, { signal, onStart: start });
        } catch (error) {
          if (signal.aborted) return;
          silent = true;
          onProblem(playbackProblem(error));
        }
      });
    },
    finished: () => chain,
  };
}

let greetingAudio: Promise<SpeechAudio> | null = null;

/**
 * The greeting's audio: the same text every time, so the function caches it and this visit keeps
 * it in memory (a second conversation on the same page view starts without a request).
 */
export function greetingSpeech(text: string): Promise<SpeechAudio> {
  const audio = (greetingAudio ??= fetchSpeech(text, { cache: true }));
  audio.catch(() => {
    if (greetingAudio === audio) greetingAudio = null;
  });
  return audio;
}
