/**
 * Speaks pieces of text in order while synthesising them in parallel: each piece's synthesis (the
 * `tts` function, tts.ts) starts the moment it is queued, its PCM plays from the first bytes on
 * through the page's audio output, right after the piece before it (no gap: one player plays them
 * back to back). Each request carries the text spoken before it, so the provider continues the
 * intonation. Without a voice provider the browser's own German voice speaks each piece.
 *
 * The first problem (synthesis refused, autoplay blocked, broken audio) is reported once and the
 * rest stays silent. An aborted signal stops the sound and cancels every pending synthesis at once
 * (barge-in) and reports nothing. The live coach speaks its greeting and its answers through it,
 * the admin's "Probehören" its sample (speechPlayback.ts).
 */
import { audioOutput, currentOutput, type OutputPiece } from './audioOutput';
import { speakWithBrowser } from './audioPlayback';
import { PlaybackError, TtsError } from './speechErrors';
import { emptyAudioMessage, openSpeech, type SpeechOptions, type SpeechSource } from './tts';

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
  /** Why the rest stays silent: a TtsError or a PlaybackError (speechErrors.ts). */
  onProblem: (error: unknown) => void;
  /**
   * Playback waits for this (synthesis does not): a reply started while the visitor may still be
   * speaking is prepared but only heard once the visitor's words are confirmed.
   */
  gate?: Promise<void>;
  /** Unsaved settings and the admin's token, for every piece (the admin's sample). */
  voice?: Pick<SpeechOptions, 'voiceSettings' | 'accessToken'>;
}

const ignore = () => undefined;

/**
 * Feeds a PCM stream into a piece as it arrives and ends the piece with the stream. Throws
 * TtsError for a stream without a single byte, PlaybackError when the connection breaks mid-way
 * (what arrived is still played); an abort cancels the download and ends quietly.
 */
export async function pump(body: ReadableStream<Uint8Array>, piece: OutputPiece, signal?: AbortSignal): Promise<void> {
  const reader = body.getReader();
  const cancel = () => void reader.cancel().catch(ignore);
  signal?.addEventListener('abort', cancel, { once: true });
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      piece.push(value);
    }
  } catch (error) {
    if (signal?.aborted) return;
    throw new PlaybackError('failed', error instanceof Error ? error.message : String(error));
  } finally {
    signal?.removeEventListener('abort', cancel);
    piece.end();
  }
  if (bytes === 0 && !signal?.aborted) throw new TtsError(emptyAudioMessage, 'empty_audio', 200);
}

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

export function createSpeechQueue({ signal, onStart, onProblem, gate, voice = {} }: SpeechQueueOptions): SpeechQueue {
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
      const source = openSpeech(text, { ...voice, signal, previousText, cache });
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
          onProblem(error);
        }
      });
    },
    finished: () => chain,
  };
}
