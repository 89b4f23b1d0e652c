/**
 * The speech-to-text providers: OpenAI's `/audio/transcriptions` (or any OpenAI-compatible server
 * through OPENAI_BASE_URL) when OPENAI_API_KEY is set, else ElevenLabs' speech to text when its key
 * is set. Both take the audio as a multipart upload and answer `{ text }`. The keys stay here.
 */
import { isRecord } from '../_shared/http.ts';
import type { Utterance } from './audio.ts';

export const DEFAULT_OPENAI_STT_MODEL = 'gpt-4o-mini-transcribe';
export const DEFAULT_ELEVENLABS_STT_MODEL = 'scribe_v1';
const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
const DEFAULT_ELEVENLABS_BASE_URL = 'https://api.elevenlabs.io';
/** How long a provider may take for one utterance before the function gives up (502). */
const PROVIDER_TIMEOUT_MS = 30_000;

export type SttProvider =
  | { kind: 'openai'; apiKey: string; baseUrl: string; model: string }
  | { kind: 'elevenlabs'; apiKey: string; baseUrl: string; model: string };

/** The provider to use, or null when no key is set. */
export function sttProvider(env: Record<string, string>): SttProvider | null {
  const openaiKey = env.OPENAI_API_KEY?.trim();
  if (openaiKey) {
    return {
      kind: 'openai',
      apiKey: openaiKey,
      baseUrl: (env.OPENAI_BASE_URL?.trim() || DEFAULT_OPENAI_BASE_URL).replace(/\/+$/u, ''),
      model: env.OPENAI_STT_MODEL?.trim() || DEFAULT_OPENAI_STT_MODEL,
    };
  }
  const elevenLabsKey = env.ELEVENLABS_API_KEY?.trim();
  if (elevenLabsKey) {
    return {
      kind: 'elevenlabs',
      apiKey: elevenLabsKey,
      baseUrl: (env.ELEVENLABS_BASE_URL?.trim() || DEFAULT_ELEVENLABS_BASE_URL).replace(/\/+$/u, ''),
      model: env.ELEVENLABS_STT_MODEL?.trim() || DEFAULT_ELEVENLABS_STT_MODEL,
    };
  }
  return null;
}

/**
 * `billed`: whether the provider may bill the audio although no text came back. A provider that
 * answers with an error status has refused the audio and bills nothing; one that timed out or
 * broke off may have transcribed it, and one that answered 200 with a body we cannot read did.
 */
export type Transcription = { ok: true; text: string } | { ok: false; status: number; billed: boolean };

function upload(utterance: Utterance): Blob {
  // A copy into a fresh ArrayBuffer: the Blob constructor wants plain ArrayBuffer-backed parts.
  return new Blob([utterance.audio.slice().buffer], { type: utterance.type });
}

/**
 * `previousText` is what the visitor said just before this audio (the page sends its speech in
 * segments cut at pauses): OpenAI continues from it through `prompt`; ElevenLabs has no such field.
 */
export async function transcribe(
  provider: SttProvider,
  utterance: Utterance,
  { signal, previousText = '' }: { signal?: AbortSignal; previousText?: string } = {},
): Promise<Transcription> {
  const form = new FormData();
  form.append('file', upload(utterance), utterance.fileName);
  let url: string;
  let headers: Record<string, string>;
  if (provider.kind === 'openai') {
    form.append('model', provider.model);
    form.append('language', 'de');
    form.append('response_format', 'json');
    if (previousText) form.append('prompt', previousText);
    url = `${provider.baseUrl}/audio/transcriptions`;
    headers = { Authorization: `Bearer ${provider.apiKey}` };
  } else {
    form.append('model_id', provider.model);
    form.append('language_code', 'de');
    url = `${provider.baseUrl}/v1/speech-to-text`;
    headers = { 'xi-api-key': provider.apiKey };
  }
  let response: Response;
  try {
    const timeout = AbortSignal.timeout(PROVIDER_TIMEOUT_MS);
    response = await fetch(url, { method: 'POST', headers, body: form, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  } catch {
    return { ok: false, status: 502, billed: true };
  }
  if (!response.ok) {
    await response.body?.cancel();
    return { ok: false, status: response.status, billed: false };
  }
  const body: unknown = await response.json().catch(() => null);
  if (!isRecord(body) || typeof body.text !== 'string') return { ok: false, status: 502, billed: true };
  return { ok: true, text: body.text.trim() };
}
