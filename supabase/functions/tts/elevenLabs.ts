/**
 * The ElevenLabs text-to-speech call (streaming endpoint) and the reading of its error bodies. The
 * key stays here, on the server; it never appears in an answer.
 *
 * Formats: MP3 at 44.1 kHz / 128 kbit/s, or raw PCM at 24 kHz (16-bit mono little-endian), which
 * the live coach plays from its first bytes through an AudioWorklet in every browser (Firefox's
 * Media Source Extensions refuse audio/mpeg, so MP3 could only play once complete there).
 */
import { isRecord } from '../_shared/http.ts';
import type { ProviderVoiceSettings } from './providerSettings.ts';
import type { AudioFormat } from './request.ts';

/** The seed's model; `ELEVENLABS_MODEL` may name another (e.g. eleven_flash_v2_5 for lower latency). */
export const DEFAULT_ELEVENLABS_MODEL = 'eleven_multilingual_v2';
const DEFAULT_BASE_URL = 'https://api.elevenlabs.io';

/** The sample rate of the PCM format: speech needs no more, and it halves the bytes of 48 kHz. */
export const PCM_SAMPLE_RATE = 24_000;

const OUTPUT_FORMATS: Record<AudioFormat, string> = {
  mp3: 'mp3_44100_128',
  pcm: `pcm_${String(PCM_SAMPLE_RATE)}`,
};

/**
 * Models that enforce a language through `language_code`; ElevenLabs refuses the parameter for the
 * others (eleven_multilingual_v2 among them), which read German text as German anyway.
 */
const LANGUAGE_CODE_MODELS = new Set(['eleven_turbo_v2_5', 'eleven_flash_v2_5']);

export interface ElevenLabsConfig {
  apiKey: string;
  voiceId: string;
  baseUrl: string;
  model: string;
}

/** The provider configuration, or null when the key or the voice id is missing. */
export function elevenLabsConfig(env: Record<string, string>): ElevenLabsConfig | null {
  const apiKey = env.ELEVENLABS_API_KEY?.trim();
  const voiceId = env.ELEVENLABS_VOICE_ID?.trim();
  if (!apiKey || !voiceId) return null;
  const baseUrl = (env.ELEVENLABS_BASE_URL?.trim() || DEFAULT_BASE_URL).replace(/\/+$/, '');
  const model = env.ELEVENLABS_MODEL?.trim() || DEFAULT_ELEVENLABS_MODEL;
  return { apiKey, voiceId, baseUrl, model };
}

export interface SpeechRequest {
  text: string;
  voiceSettings: ProviderVoiceSettings;
  format: AudioFormat;
  /** Text spoken right before this one ('' for none): ElevenLabs' request stitching. */
  previousText: string;
}

/** The JSON body ElevenLabs receives. */
export function speechBody(config: ElevenLabsConfig, request: SpeechRequest): Record<string, unknown> {
  return {
    text: request.text,
    model_id: config.model,
    voice_settings: request.voiceSettings,
    ...(request.previousText ? { previous_text: request.previousText } : {}),
    // So numbers, dates and abbreviations are spoken the German way.
    ...(LANGUAGE_CODE_MODELS.has(config.model) ? { language_code: 'de' } : {}),
  };
}

/** How long ElevenLabs may take to answer with its status before the function gives up (502). */
export const SPEECH_HEADERS_TIMEOUT_MS = 15_000;

/**
 * Asks ElevenLabs for the speech. Resolves once it has answered with its status; the audio then
 * streams for as long as it takes (a long text plays for minutes). `signal` (the visitor left)
 * aborts the request and the audio; the wait for the status is bounded by
 * SPEECH_HEADERS_TIMEOUT_MS.
 */
export async function requestSpeech(config: ElevenLabsConfig, request: SpeechRequest, signal?: AbortSignal): Promise<Response> {
  const url = `${config.baseUrl}/v1/text-to-speech/${encodeURIComponent(config.voiceId)}/stream?output_format=${OUTPUT_FORMATS[request.format]}`;
  const controller = new AbortController();
  const abort = () => controller.abort();
  if (signal?.aborted) abort();
  signal?.addEventListener('abort', abort, { once: true });
  const timer = setTimeout(abort, SPEECH_HEADERS_TIMEOUT_MS);
  try {
    return await fetch(url, {
      method: 'POST',
      headers: {
        Accept: request.format === 'mp3' ? 'audio/mpeg' : 'audio/pcm',
        'Content-Type': 'application/json',
        'xi-api-key': config.apiKey,
      },
      body: JSON.stringify(speechBody(config, request)),
      signal: controller.signal,
    });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What ElevenLabs said about a failure, for the function's log only: its `detail.message`, else
 * its `message`, else `detail` when that is a string, else the start of the body. It can name the
 * account's plan or remaining credits, so it never goes into an answer.
 */
export function providerErrorDetail(bodyText: string): string {
  let body: unknown = null;
  try {
    body = JSON.parse(bodyText) as unknown;
  } catch {
    // Not JSON (a proxy's HTML page, plain text).
  }
  if (isRecord(body)) {
    const { detail, message } = body;
    if (isRecord(detail) && typeof detail.message === 'string' && detail.message) return detail.message;
    if (typeof message === 'string' && message) return message;
    if (typeof detail === 'string' && detail) return detail;
  }
  return bodyText.slice(0, 200);
}
