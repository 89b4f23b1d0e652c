import { audioOutput, currentOutput, type OutputPiece } from '../../services/audioOutput';
import { PlaybackError, speakWithBrowser } from '../../services/audioPlayback';
import { pump } from '../../services/speechPlayback';
import { openSpeech, type SpeechSource } from '../../services/tts';
import { coachTexts } from './texts';

/**
 * Speaks the pieces of an answer in order while synthesising them in parallel: each piece's
 * synthesis starts the moment it is queued, its audio plays from the first bytes on, right after
 * the piece before it (no gap: one player plays them back to back). Each request carries the text
 * spoken before it, so the provider continues the intonation. The first problem (synthesis
 * refused, autoplay blocked, broken audio) is reported once and the rest of the answer stays
 * silent: the visitor reads it instead. An aborted signal stops the sound and cancels every
 * pending synthesis at once (barge-in) and reports nothing.
 */
export interface SpeechQueue {
  /** Queues a piece of text; `cache` asks the function to cache it (the greeting). */
  enqueue(text: string, options?: { cache?: boolean }): void;
  /** Resolves when everything queued so far has been spoken, skipped or stopped. */
  finished(): Promise<void>;
}

export interface SpeechQueueOptions {
  signal: AbortSignal;
  /** The first sound of this queue started. */
  onStart: () => void;
  /** A catalogue message explaining why the rest stays silent. */
  onProblem: (message: string) => void;
  /**
   * Playback waits for this (synthesis does not): a reply started while the visitor may still be
   * speaking is prepared but only heard once the visitor's words are confirmed.
   */
  gate?: Promise<void>;
}

export function playbackProblem(error: unknown): string {
  return error instanceof PlaybackError && error.reason === 'blocked'
    ? coachTexts.errors.autoplayBlocked
    : coachTexts.errors.playback;
}

const ignore = () => undefined;

function stopOutput(): void {
  currentOutput()
    ?.then((output) => output.stop())
    .catch(ignore);
}

/** Resolves when the gate opens or the signal aborts (then nothing waits for a gate that stays shut). */
function opened(gate: Promise<void> | undefined, signal: AbortSignal): Promise<void> {
  if (!gate) return Promise.resolve();
  const aborted = new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
  return Promise.race([gate, aborted]);
}

export function createSpeechQueue({ signal, onStart, onProblem, gate }: SpeechQueueOptions): SpeechQueue {
  const open = opened(gate, signal);
  let chain: Promise<void> = open;
  /** Pieces get their place in the player in the order they were queued. */
  let allocation: Promise<unknown> = open;
  let silent = false;
  let started = false;
  let spoken = '';
  const stopped = () => silent || signal.aborted;
  const start = () => {
    if (started || stopped()) return;
    started = true;
    onStart();
  };
  signal.addEventListener('abort', stopOutput, { once: true });

  return {
    enqueue(text, { cache = false } = {}) {
      if (stopped()) return;
      const previousText = spoken;
      spoken = `${spoken} ${text}`.trim();
      const source = openSpeech(text, { signal, previousText, cache });
      // Handled in turn below (a refusal is reported once, in order); until then the rejection must
      // not count as unhandled, which it would while an earlier piece still holds its place.
      source.catch(ignore);
      const placed: Promise<{ source: SpeechSource; piece: OutputPiece | null }> = allocation.then(async () => {
        const ready = await source;
        if (ready.kind === 'browser' || stopped()) return { source: ready, piece: null };
        const output = await audioOutput();
        return { source: ready, piece: output.piece(ready, start) };
      });
      allocation = placed.catch(ignore);
      // The download runs ahead of playback; the player waits for what has not arrived yet.
      const downloaded = placed.then(({ source: ready, piece }) => (piece && ready.kind === 'pcm' ? pump(ready.body, piece, signal) : undefined));
      // Failures are handled in turn below; until then the rejection must not count as unhandled.
      downloaded.catch(ignore);

      chain = chain.then(async () => {
        if (stopped()) return;
        try {
          const { source: ready, piece } = await placed;
          if (stopped()) return;
          if (ready.kind === 'browser') {
            await speakWithBrowser(text, { rate: ready.rate, pitch: ready.pitch }, { signal, onStart: start });
            return;
          }
          await downloaded;
          await piece?.done;
        } catch (error) {
          if (signal.aborted) return;
          silent = true;
          stopOutput();
          onProblem(playbackProblem(error));
        }
      });
    },
    finished: () => chain,
  };
}
