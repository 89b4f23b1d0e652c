/**
 * Voice input where the browser has no speech recognition of its own (Firefox) or its recognition
 * service fails: the coach's session records the visitor's speech itself (from the voice onset, in
 * segments cut at pauses) and this module has the project's `stt` function transcribe each segment
 * (the provider key stays on the server). Segments go as 16 kHz WAV (src/lib/wav.ts): exact in
 * length, so the billed seconds are the spoken ones. Problems are SpeechRecognitionErrors, so the
 * coach treats both paths alike: 'denied' (no microphone access), 'noSpeech' (nothing understood),
 * 'unsupported' (no provider on the server), 'failed'.
 */
import { env } from '../config/env';
import { encodeWav, wavSeconds } from '../lib/wav';
import { functionUrl } from './functionsUrl';
import { SpeechRecognitionError } from './speechRecognition';
import { visitorToken } from './visitorSession';

/** The function's limit for one segment. */
export const MAX_UTTERANCE_MS = 60_000;
/** Context sent with a segment: the end of what the visitor said before it. */
const MAX_PREVIOUS_TEXT = 500;

let available: Promise<boolean> | null = null;

/** Whether the `stt` function has a provider; asked once per page view. */
export function serverTranscriptionAvailable(): Promise<boolean> {
  available ??= fetch(functionUrl('stt'), { headers: { Authorization: `Bearer ${env.VITE_SUPABASE_ANON_KEY}` } })
    .then((response) => (response.ok ? (response.json() as Promise<unknown>) : null))
    .then(
      (body) => typeof body === 'object' && body !== null && 'available' in body && body.available === true,
      () => false,
    );
  return available;
}

/** The `code` of the functions' error body `{ error: { message, code } }`, or ''. */
function errorCode(body: unknown): string {
  if (typeof body !== 'object' || body === null || !('error' in body)) return '';
  const { error } = body;
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : '';
}

/**
 * Transcribes one segment of speech (samples −1…1 at `sampleRate`). `previousText` is what the
 * visitor said before it in the same turn: the provider continues from it (spelling, names).
 * Returns the words, '' when nothing was understood.
 */
export async function transcribeSpeech(
  samples: Float32Array,
  sampleRate: number,
  { previousText = '', signal }: { previousText?: string; signal?: AbortSignal } = {},
): Promise<string> {
  const wav = encodeWav(samples.subarray(0, Math.round((MAX_UTTERANCE_MS / 1000) * sampleRate)), sampleRate);
  const context = previousText.slice(-MAX_PREVIOUS_TEXT);
  let response: Response;
  try {
    // The visitor's session where Turnstile asks for one (./visitorSession.ts), else the anon key.
    const token = await visitorToken();
    response = await fetch(functionUrl('stt'), {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'audio/wav',
        'x-audio-duration': wavSeconds(wav).toFixed(2),
        // Headers carry ASCII only: the German text goes URI-encoded.
        ...(context ? { 'x-previous-text': encodeURIComponent(context) } : {}),
      },
      body: wav,
      signal: signal ?? null,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new SpeechRecognitionError('failed', error instanceof Error ? error.message : 'network');
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const code = errorCode(body);
    if (code === 'not_configured') throw new SpeechRecognitionError('unsupported', code);
    if (code === 'empty_audio') throw new SpeechRecognitionError('noSpeech', code);
    throw new SpeechRecognitionError('failed', code || `http ${String(response.status)}`);
  }
  return typeof body === 'object' && body !== null && 'text' in body && typeof body.text === 'string' ? body.text.trim() : '';
}
