/**
 * The streaming transcriber: ElevenLabs Scribe v2 Realtime (`GET /v1/speech-to-text/realtime`, a
 * WebSocket). Chosen over OpenAI's realtime transcription because the coach already speaks with
 * ElevenLabs (one vendor, one key for the whole voice), it takes the page's 16 kHz PCM as it is
 * (OpenAI's realtime sessions want 24 kHz), and it sends partial words while the audio arrives and
 * the final words of a segment on a commit, which is what the live caption and the early reply use.
 *
 * The connection is opened with a single-use token (`POST /v1/single-use-token/realtime_scribe`,
 * `xi-api-key`), passed as the `token` query parameter: the documented way that needs no request
 * headers, which the standard WebSocket of Deno (and of browsers) cannot set. The key stays in this
 * function; the token opens one session and expires after 15 minutes.
 *
 * Commits are manual (the page's voice detector says when the visitor paused); audio goes as
 * `input_audio_chunk` messages with base64 PCM, a commit as an empty chunk with `commit: true`, as
 * ElevenLabs' own client sends it.
 */
import { PCM_RATE } from './protocol.ts';

export const DEFAULT_STREAM_MODEL = 'scribe_v2_realtime';
const DEFAULT_BASE_URL = 'https://api.elevenlabs.io';
/** How long minting a token may take before the stream counts as failed. */
const TOKEN_TIMEOUT_MS = 10_000;

export interface StreamProvider {
  apiKey: string;
  /** `https://…`, no trailing slash. */
  baseUrl: string;
  model: string;
}

/** The transcriber, or null without an ElevenLabs key. */
export function streamProvider(env: Record<string, string>): StreamProvider | null {
  const apiKey = env.ELEVENLABS_API_KEY?.trim();
  if (!apiKey) return null;
  return {
    apiKey,
    baseUrl: (env.ELEVENLABS_BASE_URL?.trim() || DEFAULT_BASE_URL).replace(/\/+$/u, ''),
    model: env.ELEVENLABS_STT_STREAM_MODEL?.trim() || DEFAULT_STREAM_MODEL,
  };
}

/** A single-use token for one realtime session, or null when the provider refused or did not answer. */
export async function mintToken(provider: StreamProvider): Promise<string | null> {
  try {
    const response = await fetch(`${provider.baseUrl}/v1/single-use-token/realtime_scribe`, {
      method: 'POST',
      headers: { 'xi-api-key': provider.apiKey },
      signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return null;
    }
    const body: unknown = await response.json();
    const token = typeof body === 'object' && body !== null ? (body as { token?: unknown }).token : undefined;
    return typeof token === 'string' && token !== '' ? token : null;
  } catch {
    return null;
  }
}

/** The session's URL: German, the page's PCM, manual commits. */
export function realtimeUrl(provider: StreamProvider, token: string): string {
  const url = new URL('/v1/speech-to-text/realtime', provider.baseUrl.replace(/^http/u, 'ws'));
  url.searchParams.set('model_id', provider.model);
  url.searchParams.set('token', token);
  url.searchParams.set('audio_format', `pcm_${String(PCM_RATE)}`);
  url.searchParams.set('language_code', 'de');
  url.searchParams.set('commit_strategy', 'manual');
  return url.toString();
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let offset = 0; offset < bytes.length; offset += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000));
  }
  return btoa(binary);
}

/** One piece of audio for the transcriber. */
export const audioChunk = (bytes: Uint8Array): string =>
  JSON.stringify({ message_type: 'input_audio_chunk', audio_base_64: base64(bytes), commit: false, sample_rate: PCM_RATE });

/** "The words so far are final": an empty chunk that commits. */
export const commitChunk = (): string => JSON.stringify({ message_type: 'input_audio_chunk', audio_base_64: '', commit: true, sample_rate: PCM_RATE });

export type ProviderEvent =
  | { kind: 'started' }
  | { kind: 'partial'; text: string }
  | { kind: 'final'; text: string }
  | { kind: 'error'; type: string }
  | { kind: 'other' };

/**
 * The error types of the event reference that end the stream. Two others do not:
 * `commit_throttled` (commits too close together: the audio stays in the segment and the next
 * commit finalises it) and `insufficient_audio_activity` (a commit without speech: final words '').
 */
const ERRORS = new Set([
  'error',
  'auth_error',
  'quota_exceeded',
  'unaccepted_terms',
  'rate_limited',
  'queue_overflow',
  'resource_exhausted',
  'session_time_limit_exceeded',
  'input_error',
  'chunk_size_exceeded',
  'transcriber_error',
]);

/** A transcriber message as what it means for the stream. */
export function readProviderMessage(data: string | Uint8Array): ProviderEvent {
  if (typeof data !== 'string') return { kind: 'other' };
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch {
    return { kind: 'other' };
  }
  if (typeof message !== 'object' || message === null) return { kind: 'other' };
  const { message_type: type, text } = message as { message_type?: unknown; text?: unknown };
  if (type === 'session_started') return { kind: 'started' };
  if (type === 'partial_transcript' && typeof text === 'string') return { kind: 'partial', text };
  if (type === 'committed_transcript' && typeof text === 'string') return { kind: 'final', text: text.trim() };
  if (type === 'insufficient_audio_activity') return { kind: 'final', text: '' };
  if (typeof type === 'string' && ERRORS.has(type)) return { kind: 'error', type };
  return { kind: 'other' };
}
