/**
 * What the stt function accepts: exactly what the coach page sends, one segment of the visitor's
 * speech as a WAV file of 16 kHz mono 16-bit PCM (src/lib/wav.ts): the 44-byte header of a RIFF
 * file with one `fmt ` chunk and one `data` chunk that runs to the end of the file, at most 60 s.
 * Its length is its bytes: 32,000 a second, whatever a header or `x-audio-duration` claims, so the
 * seconds counted are the seconds the provider receives. Anything else (another format, another
 * rate, a second chunk after the data, a size field that does not match the file) is refused
 * before the provider sees it. Nothing is stored.
 */

import { readBodyUpTo } from '../_shared/requestBody.ts';

export const WAV_SAMPLE_RATE = 16_000;
const BYTES_PER_SECOND = WAV_SAMPLE_RATE * 2;
const HEADER_BYTES = 44;

/** The limits of one segment. */
export const MAX_AUDIO_SECONDS = 60;
export const MAX_AUDIO_BYTES = HEADER_BYTES + MAX_AUDIO_SECONDS * BYTES_PER_SECOND;

/** The types a WAV file is sent as. */
const WAV_TYPES = new Set(['audio/wav', 'audio/x-wav', 'audio/wave']);

export interface Utterance {
  /** The whole file, as the provider receives it. */
  audio: Uint8Array;
  type: 'audio/wav';
  /** File name for the provider's multipart upload (the extension names the format). */
  fileName: 'utterance.wav';
  /** How long it plays: its samples at 16 kHz. */
  exactSeconds: number;
  /** What the day's spend counts for it: whole seconds, rounded up. */
  seconds: number;
}

/** type: not such a WAV (415); size: longer than 60 s (413); empty: no samples (400); slow: not there in time (408). */
export type AudioCheck = { ok: true; utterance: Utterance } | { ok: false; problem: 'type' | 'size' | 'empty' | 'slow' };

/** Whether the request says it sends a WAV file (`audio/wav`, parameters ignored). */
export function isWavType(contentType: string | null): boolean {
  return WAV_TYPES.has((contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '');
}

const ascii = (bytes: Uint8Array, start: number, length: number) => String.fromCharCode(...bytes.subarray(start, start + length));

/**
 * The samples' byte count of a 16 kHz mono 16-bit PCM WAV whose one data chunk runs to the end of
 * the file, or null when `bytes` is anything else.
 */
export function wavDataBytes(bytes: Uint8Array): number | null {
  if (bytes.length < HEADER_BYTES) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dataBytes = bytes.length - HEADER_BYTES;
  const matches =
    ascii(bytes, 0, 4) === 'RIFF' &&
    view.getUint32(4, true) === bytes.length - 8 &&
    ascii(bytes, 8, 4) === 'WAVE' &&
    ascii(bytes, 12, 4) === 'fmt ' &&
    view.getUint32(16, true) === 16 &&
    view.getUint16(20, true) === 1 && // PCM
    view.getUint16(22, true) === 1 && // mono
    view.getUint32(24, true) === WAV_SAMPLE_RATE &&
    view.getUint32(28, true) === BYTES_PER_SECOND &&
    view.getUint16(32, true) === 2 && // block align
    view.getUint16(34, true) === 16 && // bits per sample
    ascii(bytes, 36, 4) === 'data' &&
    view.getUint32(40, true) === dataBytes &&
    dataBytes % 2 === 0;
  return matches ? dataBytes : null;
}

/** Checks the declared type, then reads at most MAX_AUDIO_BYTES + 1 bytes of the body (within its deadline) and checks the file. */
export async function readUtterance(request: Request): Promise<AudioCheck> {
  if (!isWavType(request.headers.get('content-type'))) return { ok: false, problem: 'type' };
  const body = await readBodyUpTo(request, MAX_AUDIO_BYTES);
  if (!body.ok) return { ok: false, problem: body.problem === 'too_large' ? 'size' : 'slow' };
  const audio = body.bytes;
  if (audio.length === 0) return { ok: false, problem: 'empty' };
  const data = wavDataBytes(audio);
  if (data === null) return { ok: false, problem: 'type' };
  if (data === 0) return { ok: false, problem: 'empty' };
  const exactSeconds = data / BYTES_PER_SECOND;
  return { ok: true, utterance: { audio, type: 'audio/wav', fileName: 'utterance.wav', exactSeconds, seconds: Math.ceil(exactSeconds) } };
}
