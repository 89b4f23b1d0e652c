/**
 * What the stt function accepts: one utterance or a segment of one (the live coach sends 16 kHz WAV
 * segments; any common audio file works), sent as the raw request body with its Content-Type.
 * Nothing is stored.
 */

import { readBodyUpTo } from '../_shared/requestBody.ts';
import { measureDuration } from './duration.ts';

/** The limits of one utterance. */
export const MAX_AUDIO_BYTES = 10 * 1024 * 1024;
export const MAX_AUDIO_SECONDS = 60;
/**
 * The recorder stops on a 60-second timer, so its last frame may end a moment later; a
 * recording is refused once it is longer than the limit by more than this.
 */
export const DURATION_TOLERANCE_SECONDS = 0.5;
/** The most one utterance can count, which admission reserves before the body is read. */
export const MAX_COUNTED_SECONDS = Math.ceil(MAX_AUDIO_SECONDS + DURATION_TOLERANCE_SECONDS);
/**
 * Compressed audio counts at least its size at 128 kbit/s (the highest rate the browsers record
 * speech at), up to the limit: a file whose packets were made to look short still counts its
 * bytes. WAV is measured exactly from its header and data.
 */
const FLOOR_BYTES_PER_SECOND = 16_000;

/**
 * The recorders' formats (Chrome and Firefox: WebM/Ogg with Opus; Safari: MP4/AAC) and the usual
 * files, with the extension the providers recognise the format by.
 */
const TYPES: Record<string, string> = {
  'audio/webm': 'webm',
  'audio/ogg': 'ogg',
  'audio/mp4': 'mp4',
  'audio/aac': 'aac',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
};

export interface Utterance {
  audio: Uint8Array;
  /** The type without parameters, e.g. audio/webm. */
  type: string;
  /** File name for the provider's multipart upload (the extension names the format). */
  fileName: string;
  /** How long it plays, measured from the file itself (./duration.ts). */
  measuredSeconds: number;
  /** What the day's spend counts for it: the measured length, at least its size's floor. */
  seconds: number;
}

export type AudioCheck = { ok: true; utterance: Utterance } | { ok: false; problem: 'type' | 'size' | 'empty' };

/** The type's extension, or null when the type is not accepted. `audio/webm;codecs=opus` → webm. */
export function audioExtension(contentType: string | null): string | null {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return TYPES[type] ?? null;
}

/**
 * Checks the declared type, the size and the length, reading at most MAX_AUDIO_BYTES + 1 bytes of
 * the body. The length is measured from the audio (./duration.ts); the recorder's declared
 * `x-audio-duration` only refuses early when it already says more than 60 s. Audio whose length
 * cannot be measured is refused as an unsupported type: nothing the function cannot bound reaches
 * the provider.
 */
export async function readUtterance(request: Request): Promise<AudioCheck> {
  const contentType = request.headers.get('content-type');
  const extension = audioExtension(contentType);
  if (!extension) return { ok: false, problem: 'type' };
  const declared = Number(request.headers.get('x-audio-duration') ?? '0');
  if (!Number.isFinite(declared) || declared > MAX_AUDIO_SECONDS) return { ok: false, problem: 'size' };

  const body = await readBodyUpTo(request, MAX_AUDIO_BYTES);
  if (!body.ok) return { ok: false, problem: 'size' };
  const audio = body.bytes;
  if (audio.length === 0) return { ok: false, problem: 'empty' };
  if (!hasSignature(extension, audio)) return { ok: false, problem: 'type' };
  // Larger than 60 s at the codec's highest bit rate: too long, without parsing it.
  if (audio.length > maxBytesFor(extension)) return { ok: false, problem: 'size' };
  const measured = measureDuration(extension, audio);
  if (!measured) return { ok: false, problem: 'type' };
  if (measured.seconds === 0) return { ok: false, problem: 'empty' };
  if (measured.seconds > MAX_AUDIO_SECONDS + DURATION_TOLERANCE_SECONDS) return { ok: false, problem: 'size' };
  const floor = extension === 'wav' ? 0 : Math.min(MAX_AUDIO_SECONDS, audio.length / FLOOR_BYTES_PER_SECOND);
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return {
    ok: true,
    utterance: { audio, type, fileName: `utterance.${extension}`, measuredSeconds: measured.seconds, seconds: Math.max(measured.seconds, floor) },
  };
}

const ascii = (bytes: Uint8Array, start: number, length: number) => String.fromCharCode(...bytes.subarray(start, start + length));

/**
 * Whether the body begins as a file of its declared type does (EBML header, `OggS`, an `ftyp`
 * box, ADTS/ADIF, ID3 or an MPEG frame sync, `RIFF…WAVE`): a mislabelled upload never reaches the
 * provider.
 */
export function hasSignature(extension: string, bytes: Uint8Array): boolean {
  const frameSync = bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0;
  switch (extension) {
    case 'webm':
      return bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3;
    case 'ogg':
      return ascii(bytes, 0, 4) === 'OggS';
    case 'mp4':
      return ascii(bytes, 4, 4) === 'ftyp';
    case 'aac':
      return ascii(bytes, 0, 4) === 'ADIF' || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xf6) === 0xf0);
    case 'mp3':
      return ascii(bytes, 0, 3) === 'ID3' || frameSync;
    case 'wav':
      return ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WAVE';
    default:
      return false;
  }
}

/**
 * The highest bit rate each compressed format is recorded at: a file larger than 60 s at this rate
 * (plus 10 % container overhead and 64 KB of headers) is longer than 60 s, whatever it holds, so it
 * is refused before it is parsed.
 */
const MAX_BITS_PER_SECOND: Record<string, number> = { webm: 512_000, ogg: 512_000, mp4: 640_000, aac: 640_000, mp3: 320_000 };

export function maxBytesFor(extension: string): number {
  const bits = MAX_BITS_PER_SECOND[extension];
  if (bits === undefined) return MAX_AUDIO_BYTES;
  return Math.min(MAX_AUDIO_BYTES, Math.ceil(((MAX_AUDIO_SECONDS * bits) / 8) * 1.1) + 64 * 1024);
}
