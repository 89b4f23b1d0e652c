/**
 * The ElevenLabs text-to-speech call (streaming endpoint, MP3 at 44.1 kHz / 128 kbit/s) and the
 * reading of its error bodies. The key stays here, on the server; it never appears in an answer.
 */
import { isRecord } from '../_shared/http.ts';
import { providerStatusMessage } from './messages.ts';
import type { ProviderVoiceSettings } from './providerSettings.ts';

export const ELEVENLABS_MODEL = 'eleven_multilingual_v2';
const DEFAULT_BASE_URL = 'https://api.elevenlabs.io';

export interface ElevenLabsConfig {
  apiKey: string;
  voiceId: string;
  baseUrl: string;
}

/** The provider configuration, or null when the key or the voice id is missing. */
export function elevenLabsConfig(env: Record<string, string>): ElevenLabsConfig | null {
  const apiKey = env.ELEVENLABS_API_KEY?.trim();
  const voiceId = env.ELEVENLABS_VOICE_ID?.trim();
  if (!apiKey || !voiceId) return null;
  const baseUrl = (env.ELEVENLABS_BASE_URL?.trim() || DEFAULT_BASE_URL).replace(/\/+$/, '');
  return { apiKey, voiceId, baseUrl };
}

export function requestSpeech(config: ElevenLabsConfig, text: string, voiceSettings: ProviderVoiceSettings): Promise<Response> {
  const url = `${config.baseUrl}/v1/text-to-speech/${encodeURIComponent(config.voiceId)}/stream?output_format=mp3_44100_128`;
  return fetch(url, {
    method: 'POST',
    headers: { Accept: 'audio/mpeg', 'Content-Type': 'application/json', 'xi-api-key': config.apiKey },
    body: JSON.stringify({ text, model_id: ELEVENLABS_MODEL, voice_settings: voiceSettings }),
  });
}

/**
 * The catalogue's "Voice API failure" text: the provider's `detail.message`, else its `message`,
 * else `detail` when that is a string, else 'API-Fehler: {status}'.
 */
export function providerErrorMessage(status: number, bodyText: string): string {
  let body: unknown = null;
  try {
    body = JSON.parse(bodyText) as unknown;
  } catch {
    // Not JSON (a proxy's HTML page, plain text): only the status is worth showing.
  }
  if (isRecord(body)) {
    const { detail, message } = body;
    if (isRecord(detail) && typeof detail.message === 'string' && detail.message) return detail.message;
    if (typeof message === 'string' && message) return message;
    if (typeof detail === 'string' && detail) return detail;
  }
  return providerStatusMessage(status);
}
