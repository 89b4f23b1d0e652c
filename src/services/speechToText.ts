/**
 * Voice input where the browser has no speech recognition of its own (Firefox) or its recognition
 * service fails: the utterance is recorded with MediaRecorder from the shared microphone stream and
 * transcribed by the project's `stt` function (the provider key stays on the server). The recording
 * ends by `stop()` (a click, or the voice activity detector hearing the visitor stop) or after 60 s.
 * Problems are SpeechRecognitionErrors, so the coach treats both paths alike: 'denied' (no microphone
 * access), 'noSpeech' (nothing understood), 'unsupported' (no provider on the server), 'failed'.
 */
import { env } from '../config/env';
import { functionUrl } from './functionsUrl';
import { SpeechRecognitionError } from './speechRecognition';

/** The function's limit for one utterance. */
export const MAX_UTTERANCE_MS = 60_000;

/** What the recorders of the major browsers make: Chrome/Firefox WebM or Ogg with Opus, Safari MP4. */
const RECORDING_TYPES = ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/webm', 'audio/mp4'];

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

function recordingType(): string | undefined {
  return RECORDING_TYPES.find((type) => MediaRecorder.isTypeSupported(type));
}

export interface Utterance {
  /** Ends the recording; the transcript follows in `transcript`. */
  stop(): void;
  /** Ends the recording and drops it: `transcript` then rejects with an AbortError. */
  abort(): void;
  /** Resolves when the recording has ended (before the upload). */
  readonly recorded: Promise<void>;
  /** The words, '' when nothing was understood (the caller then says 'Keine Sprache erkannt…'). */
  readonly transcript: Promise<string>;
}

/** The `code` of the functions' error body `{ error: { message, code } }`, or ''. */
function errorCode(body: unknown): string {
  if (typeof body !== 'object' || body === null || !('error' in body)) return '';
  const { error } = body;
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : '';
}

/** Posts the recording to the stt function; returns the transcript. */
export async function transcribe(audio: Blob, durationMs: number, signal?: AbortSignal): Promise<string> {
  let response: Response;
  try {
    response = await fetch(functionUrl('stt'), {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${env.VITE_SUPABASE_ANON_KEY}`,
        'Content-Type': audio.type || 'audio/webm',
        'x-audio-duration': (durationMs / 1000).toFixed(1),
      },
      body: audio,
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
  const text = typeof body === 'object' && body !== null && 'text' in body && typeof body.text === 'string' ? body.text.trim() : '';
  return text;
}

/** Starts recording one utterance from an open microphone stream. */
export function recordUtterance(stream: MediaStream): Utterance {
  const type = recordingType();
  const recorder = new MediaRecorder(stream, type ? { mimeType: type } : undefined);
  const chunks: Blob[] = [];
  const controller = new AbortController();
  const started = performance.now();
  let aborted = false;
  let endRecording: () => void = () => undefined;
  const recorded = new Promise<void>((resolve) => {
    endRecording = resolve;
  });
  const limit = setTimeout(() => {
    if (recorder.state === 'recording') recorder.stop();
  }, MAX_UTTERANCE_MS);

  const transcript = new Promise<Blob>((resolve, reject) => {
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    };
    recorder.onstop = () => {
      clearTimeout(limit);
      endRecording();
      if (aborted) reject(new DOMException('Recording aborted', 'AbortError'));
      else resolve(new Blob(chunks, { type: recorder.mimeType || type || 'audio/webm' }));
    };
    recorder.onerror = () => {
      clearTimeout(limit);
      endRecording();
      reject(new SpeechRecognitionError('failed', 'recorder error'));
    };
  }).then((audio) => {
    // Dropped right after the recording ended (e.g. nothing was heard): never uploaded.
    if (aborted) throw new DOMException('Recording aborted', 'AbortError');
    if (audio.size === 0) return '';
    return transcribe(audio, Math.min(MAX_UTTERANCE_MS, performance.now() - started), controller.signal);
  });

  recorder.start();
  return {
    stop() {
      if (recorder.state === 'recording') recorder.stop();
    },
    abort() {
      aborted = true;
      controller.abort();
      if (recorder.state === 'recording') recorder.stop();
    },
    recorded,
    transcript,
  };
}
