/**
 * Plays synthesized speech: an MP3 from the `tts` function through an <audio> element, or, when
 * no voice provider is configured, the browser's own German voice (speechSynthesis).
 *
 * Tempo and pitch are independent: the tempo is the element's playbackRate with preservesPitch,
 * the pitch an AudioWorklet pitch shifter between the element and the speakers (only when the
 * pitch is not 1, so the usual case needs no Web Audio at all).
 */

export type SpeechAudio =
  | { kind: 'audio'; blob: Blob; playbackRate: number; pitch: number }
  /** No voice provider: the browser speaks the text itself. */
  | { kind: 'browser'; rate: number; pitch: number };

/** 'blocked': the browser refused to start audio without a user gesture; 'failed': anything else. */
export class PlaybackError extends Error {
  override readonly name = 'PlaybackError';
  constructor(readonly reason: 'blocked' | 'failed', detail: string) {
    super(`playback ${reason}: ${detail}`);
  }
}

export interface PlayOptions {
  /** Stops the audio at once (barge-in); the promise then resolves. */
  signal?: AbortSignal;
  /** Called when sound actually starts. */
  onStart?: () => void;
}

export function playSpeech(audio: SpeechAudio, text: string, options: PlayOptions = {}): Promise<void> {
  return audio.kind === 'audio'
    ? playAudio(audio.blob, { playbackRate: audio.playbackRate, pitch: audio.pitch }, options)
    : speakWithBrowser(text, { rate: audio.rate, pitch: audio.pitch }, options);
}

let context: AudioContext | null = null;
let workletReady: Promise<void> | null = null;

/**
 * Routes the element through the pitch shifter. The worklet is a file of its own from our origin
 * (the Content-Security-Policy allows no inline or blob scripts for it).
 */
async function connectPitchShifter(element: HTMLAudioElement, pitch: number): Promise<() => void> {
  context ??= new AudioContext();
  const audioContext = context;
  workletReady ??= import('./pitchShifter.worklet?worker&url').then(({ default: url }) =>
    audioContext.audioWorklet.addModule(url),
  );
  try {
    await workletReady;
  } catch (error) {
    workletReady = null;
    throw error;
  }
  if (audioContext.state === 'suspended') await audioContext.resume();
  const source = audioContext.createMediaElementSource(element);
  const shifter = new AudioWorkletNode(audioContext, 'pitch-shifter', {
    parameterData: { pitch },
    outputChannelCount: [2],
  });
  source.connect(shifter).connect(audioContext.destination);
  return () => {
    source.disconnect();
    shifter.disconnect();
    shifter.port.postMessage('stop');
  };
}

function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

export async function playAudio(
  blob: Blob,
  { playbackRate, pitch }: { playbackRate: number; pitch: number },
  { signal, onStart }: PlayOptions = {},
): Promise<void> {
  if (signal?.aborted) return;
  const element = new Audio();
  const url = URL.createObjectURL(blob);
  element.preload = 'auto';
  element.preservesPitch = true;
  // Loading a source resets playbackRate to defaultPlaybackRate, so both carry the tempo.
  element.defaultPlaybackRate = playbackRate;
  element.playbackRate = playbackRate;
  element.src = url;

  let disconnect: (() => void) | null = null;
  if (pitch !== 1) {
    // Without the shifter the voice keeps its natural pitch; better than no voice at all.
    disconnect = await connectPitchShifter(element, pitch).catch(() => null);
  }

  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const finish = (error?: PlaybackError) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      element.removeEventListener('ended', onEnded);
      element.removeEventListener('error', onError);
      element.pause();
      element.removeAttribute('src');
      URL.revokeObjectURL(url);
      disconnect?.();
      if (error) reject(error);
      else resolve();
    };
    const onAbort = () => finish();
    const onEnded = () => finish();
    const onError = () => finish(new PlaybackError('failed', element.error?.message ?? 'media error'));
    signal?.addEventListener('abort', onAbort);
    element.addEventListener('ended', onEnded);
    element.addEventListener('error', onError);
    element.play().then(
      () => {
        if (!settled) onStart?.();
      },
      (error: unknown) => {
        if (settled || (signal?.aborted && isAbortError(error))) return finish();
        if (error instanceof DOMException && error.name === 'NotAllowedError') {
          finish(new PlaybackError('blocked', error.message));
        } else {
          finish(new PlaybackError('failed', error instanceof Error ? error.message : String(error)));
        }
      },
    );
  });
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
