/**
 * Text to speech through the project's `tts` function (it holds the ElevenLabs key; the browser
 * never sees it). `openSpeech` starts one piece's synthesis and hands over its PCM stream as it
 * arrives; speechQueue.ts plays it.
 */
import { callFunction, FunctionCallError, providerAvailable, providerMissing } from './edgeFunctions';
import { visitorToken } from './visitorSession';
import { toStoredVoiceSettings, type BrowserVoiceSettings } from '../../supabase/functions/_shared/voiceSettings';
import { catalogue } from '../../supabase/functions/_shared/catalogue';
import { TtsError } from './speechErrors';

export { TtsError };

export const emptyAudioMessage = catalogue.emptyAudio;

export interface SpeechOptions {
  /** Ask the function to cache the audio (the greeting: the same text every time). */
  cache?: boolean;
  /** Unsaved settings to try out; the function honours them only for an admin's token. */
  voiceSettings?: BrowserVoiceSettings;
  /** The signed-in user's access token; the public anon key otherwise. */
  accessToken?: string;
  signal?: AbortSignal;
}

function headerNumber(response: Response, name: string, min: number, max: number, fallback = 1): number {
  const value = Number(response.headers.get(name) ?? fallback);
  if (!Number.isFinite(value) || value <= 0) return fallback;
  return Math.min(max, Math.max(min, value));
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
 * Whether the `tts` function has a voice provider, asked once per page view: without one the
 * browser's own voice speaks from the start, instead of a refused request for every sentence.
 * A failed question counts as available (the request itself then says what is wrong).
 */
export function voiceProviderAvailable(): Promise<boolean> {
  return providerAvailable('tts').then((available) => available ?? true);
}

/** Speech ready to play: raw PCM arriving from the provider, or the browser's own voice. */
export type SpeechSource =
  | { kind: 'pcm'; body: ReadableStream<Uint8Array>; sampleRate: number; playbackRate: number; pitch: number }
  /** No voice provider: the browser speaks the text itself. */
  | { kind: 'browser'; rate: number; pitch: number };

export interface StreamOptions extends SpeechOptions {
  /** The answer's text already sent for speech (request stitching). */
  previousText?: string;
}

async function browserVoice(voiceSettings: BrowserVoiceSettings | undefined): Promise<SpeechSource> {
  const voice = voiceSettings ? { rate: voiceSettings.speed, pitch: voiceSettings.pitch } : await savedBrowserVoice();
  return { kind: 'browser', ...voice };
}

/**
 * One text's speech as it arrives: the response's body is the provider's PCM stream, to be played
 * from its first bytes. Without an ElevenLabs key (learnt once, or from a `not_configured` answer)
 * the result asks for the browser's own German voice, with the speed and pitch of the given
 * settings (or of the saved ones); so it does for a text the day's spend no longer covers (the
 * character cap of all visitors, or this visitor's budget), asking again for the next one.
 * Rejects with TtsError: the function's catalogue message.
 */
export async function openSpeech(text: string, options: StreamOptions = {}): Promise<SpeechSource> {
  const { voiceSettings } = options;
  if (!(await voiceProviderAvailable())) return browserVoice(voiceSettings);
  const body = {
    text,
    format: 'pcm',
    ...(options.cache ? { cache: true } : {}),
    ...(options.previousText ? { previousText: options.previousText } : {}),
    ...(voiceSettings ? { voiceSettings: toStoredVoiceSettings(voiceSettings) } : {}),
  };
  // The visitor's session where Turnstile asks for one; without it the browser's voice speaks.
  const accessToken = options.accessToken ?? (await visitorToken().catch(() => null));
  if (accessToken === null) return browserVoice(voiceSettings);
  let response: Response;
  try {
    response = await callFunction('tts', { json: body, accessToken, signal: options.signal });
  } catch (error) {
    if (!(error instanceof FunctionCallError) || error.status === null) throw error;
    if (error.code === 'not_configured') {
      providerMissing('tts');
      return browserVoice(voiceSettings);
    }
    if (error.code === 'spend_cap_reached' || error.code === 'budget_exhausted') return browserVoice(voiceSettings);
    throw new TtsError(error.catalogueMessage ?? catalogue.voiceApiStatus(error.status), error.code ?? 'error', error.status);
  }
  if (!response.body) throw new TtsError(emptyAudioMessage, 'empty_audio', response.status);
  return {
    kind: 'pcm',
    body: response.body,
    sampleRate: headerNumber(response, 'x-sample-rate', 8_000, 48_000, 24_000),
    // The function sends what ElevenLabs accepts and leaves the rest of the tempo and the pitch
    // to the browser, so speed and pitch change independently.
    playbackRate: headerNumber(response, 'x-playback-rate', 0.25, 4),
    pitch: headerNumber(response, 'x-pitch', 0.5, 2),
  };
}
