/**
 * Voice input where the browser has no speech recognition of its own (Firefox) or its recognition
 * service fails: the coach's session records the visitor's speech itself (from the voice onset, in
 * segments cut at pauses) and this module has the project's `stt` function transcribe each segment
 * (the provider key stays on the server). Segments go as 16 kHz WAV (src/lib/wav.ts): exact in
 * length, so the billed seconds are the spoken ones. Problems are SpeechRecognitionErrors, so the
 * coach treats both paths alike: 'denied' (no microphone access), 'noSpeech' (nothing understood),
 * 'unsupported' (no provider on the server), 'failed'.
 */
import { encodeWav, wavSeconds } from '../lib/wav';
import { callFunctionJson, FunctionCallError, providerAvailable } from './edgeFunctions';
import { SpeechRecognitionError } from './speechRecognition';
import { visitorToken, VisitorSessionError } from './visitorSession';

/** The function's limit for one segment. */
export const MAX_UTTERANCE_MS = 60_000;
/** Context sent with a segment: the end of what the visitor said before it. */
const MAX_PREVIOUS_TEXT = 500;

/**
 * Whether the `stt` function has a provider; asked once per page view. A failed question counts as
 * none: the visitor is told at once that voice input is missing, rather than after speaking.
 */
export function serverTranscriptionAvailable(): Promise<boolean> {
  return providerAvailable('stt').then((available) => available ?? false);
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
  let body: Record<string, unknown>;
  try {
    body = await callFunctionJson('stt', {
      body: wav,
      contentType: 'audio/wav',
      // The visitor's session where Turnstile asks for one (./visitorSession.ts), else the anon key.
      accessToken: await visitorToken(),
      headers: {
        'x-audio-duration': wavSeconds(wav).toFixed(2),
        // Headers carry ASCII only: the German text goes URI-encoded.
        ...(context ? { 'x-previous-text': encodeURIComponent(context) } : {}),
      },
      signal,
    });
  } catch (error) {
    if (error instanceof VisitorSessionError) throw new SpeechRecognitionError('failed', error.message);
    if (!(error instanceof FunctionCallError)) throw error;
    if (error.code === 'not_configured') throw new SpeechRecognitionError('unsupported', error.code);
    if (error.code === 'empty_audio') throw new SpeechRecognitionError('noSpeech', error.code);
    throw new SpeechRecognitionError('failed', error.code ?? (error.status === null ? error.message : `http ${String(error.status)}`));
  }
  return typeof body.text === 'string' ? body.text.trim() : '';
}
