/**
 * The browser's own German voice (speechSynthesis), which speaks when no voice provider is
 * configured. The provider's audio plays through audioOutput.ts.
 */
import { PlaybackError } from './speechErrors';

export interface PlayOptions {
  /** Stops the audio at once (barge-in); the promise then resolves. */
  signal?: AbortSignal;
  /** Called when sound actually starts. */
  onStart?: () => void;
}

/** The browser's German voice, if it has one (a de-DE voice first, then any German one). */
function germanVoice(): SpeechSynthesisVoice | null {
  const voices = window.speechSynthesis.getVoices();
  return (
    voices.find((voice) => voice.lang === 'de-DE') ??
    voices.find((voice) => voice.lang.toLowerCase().startsWith('de')) ??
    null
  );
}

/**
 * A browser that cannot speak (no voices installed) sometimes never answers an utterance; after
 * this long without a start the attempt counts as failed, so the coach does not wait forever.
 */
const startTimeoutMs = 5_000;

export function speakWithBrowser(
  text: string,
  { rate, pitch }: { rate: number; pitch: number },
  { signal, onStart }: PlayOptions = {},
): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  if (typeof window === 'undefined' || !('speechSynthesis' in window)) {
    return Promise.reject(new PlaybackError('failed', 'speech synthesis unsupported'));
  }
  const synthesis = window.speechSynthesis;
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = 'de-DE';
  // The Web Speech API's ranges: rate 0.1–10, pitch 0–2; the voice sliders stay within both.
  utterance.rate = rate;
  utterance.pitch = pitch;
  const voice = germanVoice();
  if (voice) utterance.voice = voice;

  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const finish = (error?: PlaybackError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      utterance.onstart = null;
      utterance.onend = null;
      utterance.onerror = null;
      if (error) reject(error);
      else resolve();
    };
    const onAbort = () => {
      finish();
      synthesis.cancel();
    };
    const timer = setTimeout(() => {
      synthesis.cancel();
      finish(new PlaybackError('failed', 'speech synthesis did not start'));
    }, startTimeoutMs);
    utterance.onstart = () => {
      clearTimeout(timer);
      if (!settled) onStart?.();
    };
    utterance.onend = () => finish();
    utterance.onerror = (event) => {
      if (event.error === 'interrupted' || event.error === 'canceled') finish();
      else if (event.error === 'not-allowed') finish(new PlaybackError('blocked', event.error));
      else finish(new PlaybackError('failed', event.error));
    };
    signal?.addEventListener('abort', onAbort);
    synthesis.speak(utterance);
  });
}
