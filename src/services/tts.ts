/**
 * Text to speech through the project's `tts` function (it holds the ElevenLabs key; the browser
 * never sees it). `fetchSpeech` gets one sentence's audio; `speak` fetches and plays, for callers
 * that want one call (the admin's "Probehören").
 */
import { env } from '../config/env';
import { playSpeech, type SpeechAudio } from './audioPlayback';
import { functionUrl } from './functionsUrl';
import type { VoiceSettings } from './voiceConfig';

export type { SpeechAudio } from './audioPlayback';
export { PlaybackError } from './audioPlayback';

/** A refused or failed synthesis; `message` is the function's catalogue text. */
export class TtsError extends Error {
  override readonly name = 'TtsError';
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export const emptyAudioMessage = 'Die API hat keine Audio-Daten zurückgegeben.';

export interface SpeechOptions {
  /** Ask the function to cache the audio (the greeting: the same text every time). */
  cache?: boolean;
  /** Unsaved settings to try out; the function honours them only for an admin's token. */
  voiceSettings?: VoiceSettings;
  /** The signed-in user's access token; the public anon key otherwise. */
  accessToken?: string;
  signal?: AbortSignal;
}

function headerNumber(response: Response, name: string, min: number, max: number): number {
  const value = Number(response.headers.get(name) ?? '1');
  if (!Number.isFinite(value) || value <= 0) return 1;
  return Math.min(max, Math.max(min, value));
}

async function errorOf(response: Response): Promise<TtsError> {
  const body: unknown = await response.json().catch(() => null);
  if (typeof body === 'object' && body !== null && 'error' in body) {
    const { error } = body;
    if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string') {
      const code = 'code' in error && typeof error.code === 'string' ? error.code : 'error';
      return new TtsError(error.message, code, response.status);
    }
  }
  return new TtsError(`API-Fehler: ${response.status}`, 'error', response.status);
}

let savedVoice: Promise<{ rate: number; pitch: number }> | null = null;

/**
 * The saved speed and pitch, for the browser's voice. Loaded once per visit and only on this
 * fallback path, so the Supabase client stays out of the coach's usual downloads.
 */
function savedBrowserVoice(): Promise<{ rate: number; pitch: number }> {
  savedVoice ??= import('./voiceConfig')
    .then(({ loadActiveVoiceSettings }) => loadActiveVoiceSettings())
    .then(
      (settings) => ({ rate: settings.speed, pitch: settings.pitch }),
      () => ({ rate: 1, pitch: 1 }),
    );
  return savedVoice;
}

/**
 * One text's audio. Without an ElevenLabs key the function answers `not_configured`; then the
 * result asks for the browser's own German voice, with the speed and pitch of the given settings
 * (or of the saved ones).
 */
export async function fetchSpeech(text: string, options: SpeechOptions = {}): Promise<SpeechAudio> {
  const { voiceSettings } = options;
  const body = {
    text,
    ...(options.cache ? { cache: true } : {}),
    ...(voiceSettings
      ? {
          voiceSettings: {
            stability: voiceSettings.stability,
            similarity_boost: voiceSettings.similarityBoost,
            style: voiceSettings.style,
            use_speaker_boost: voiceSettings.useSpeakerBoost,
            speed: voiceSettings.speed,
            pitch: voiceSettings.pitch,
          },
        }
      : {}),
  };
  const response = await fetch(functionUrl('tts'), {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${options.accessToken ?? env.VITE_SUPABASE_ANON_KEY}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(body),
    signal: options.signal ?? null,
  });
  if (!response.ok) {
    const error = await errorOf(response);
    if (error.code === 'not_configured') {
      const voice = voiceSettings ? { rate: voiceSettings.speed, pitch: voiceSettings.pitch } : await savedBrowserVoice();
      return { kind: 'browser', ...voice };
    }
    throw error;
  }
  const blob = await response.blob();
  if (blob.size === 0) throw new TtsError(emptyAudioMessage, 'empty_audio', response.status);
  return {
    kind: 'audio',
    blob,
    // The function sends what ElevenLabs accepts and leaves the rest of the tempo and the pitch
    // to the browser, so speed and pitch change independently.
    playbackRate: headerNumber(response, 'x-playback-rate', 0.25, 4),
    pitch: headerNumber(response, 'x-pitch', 0.5, 2),
  };
}

/**
 * Speaks a text and resolves when it has been spoken (or was stopped through the signal). Rejects
 * with TtsError (the function refused: its catalogue message) or PlaybackError (the browser could
 * not play: autoplay blocked or a broken file).
 */
export async function speak(text: string, options: SpeechOptions = {}): Promise<void> {
  const audio = await fetchSpeech(text, options);
  await playSpeech(audio, text, options.signal ? { signal: options.signal } : {});
}
