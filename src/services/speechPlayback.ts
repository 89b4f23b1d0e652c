/**
 * Plays speech from the `tts` function: its PCM stream through the page's audio output, from the
 * first bytes on, or the browser's own voice when no provider is configured.
 */
import { audioOutput, unlockAudio, type OutputPiece } from './audioOutput';
import { PlaybackError, speakWithBrowser, type PlayOptions } from './audioPlayback';
import { emptyAudioMessage, openSpeech, TtsError, type SpeechOptions, type SpeechSource } from './tts';

/**
 * Feeds a PCM stream into a piece as it arrives and ends the piece with the stream. Throws
 * TtsError for a stream without a single byte, PlaybackError when the connection breaks mid-way
 * (what arrived is still played); an abort cancels the download and ends quietly.
 */
export async function pump(body: ReadableStream<Uint8Array>, piece: OutputPiece, signal?: AbortSignal): Promise<void> {
  const reader = body.getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
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

/** Plays one source to its end; resolves early (silently) when the signal aborts. */
export async function playSource(source: SpeechSource, text: string, { signal, onStart }: PlayOptions = {}): Promise<void> {
  if (source.kind === 'browser') {
    await speakWithBrowser(text, { rate: source.rate, pitch: source.pitch }, { ...(signal ? { signal } : {}), ...(onStart ? { onStart } : {}) });
    return;
  }
  const output = await audioOutput();
  if (signal?.aborted) return;
  const piece = output.piece(source, onStart);
  const stop = () => output.stop();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    await pump(source.body, piece, signal);
    await piece.done;
  } finally {
    signal?.removeEventListener('abort', stop);
  }
}

/**
 * Speaks a text and resolves when it has been spoken (or was stopped through the signal): the
 * admin's "Probehören". Call it from the click handler, so the audio is unlocked by the click.
 * Rejects with TtsError (the function refused: its catalogue message) or PlaybackError (the
 * browser could not play: autoplay blocked or Web Audio missing).
 */
export async function speak(text: string, options: SpeechOptions = {}): Promise<void> {
  unlockAudio();
  const source = await openSpeech(text, options);
  await playSource(source, text, options.signal ? { signal: options.signal } : {});
}
