/**
 * What the stt function accepts: one utterance or a segment of one (the live coach sends 16 kHz WAV
 * segments; any common audio file works), sent as the raw request body with its Content-Type.
 * Nothing is stored.
 */

/** The limits of one utterance. */
export const MAX_AUDIO_BYTES = 10 * 1024 * 1024;
export const MAX_AUDIO_SECONDS = 60;

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
  /**
   * Its length in seconds, for the daily spend cap: read from a WAV header, else the recorder's
   * declared length, but never less than the size at 128 kbit/s (a low declaration buys nothing).
   */
  seconds: number;
}

export type AudioCheck = { ok: true; utterance: Utterance } | { ok: false; problem: 'type' | 'size' | 'empty' };

/** The type's extension, or null when the type is not accepted. `audio/webm;codecs=opus` → webm. */
export function audioExtension(contentType: string | null): string | null {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return TYPES[type] ?? null;
}

/**
 * Checks the declared type, the declared length (`x-audio-duration`, seconds, set by the recorder)
 * and the size, reading at most MAX_AUDIO_BYTES + 1 bytes of the body.
 */
export async function readUtterance(request: Request): Promise<AudioCheck> {
  const contentType = request.headers.get('content-type');
  const extension = audioExtension(contentType);
  if (!extension) return { ok: false, problem: 'type' };
  const declaredLength = Number(request.headers.get('content-length') ?? '0');
  if (declaredLength > MAX_AUDIO_BYTES) return { ok: false, problem: 'size' };
  const duration = Number(request.headers.get('x-audio-duration') ?? '0');
  if (!Number.isFinite(duration) || duration > MAX_AUDIO_SECONDS) return { ok: false, problem: 'size' };

  const reader = request.body?.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > MAX_AUDIO_BYTES) {
        await reader.cancel();
        return { ok: false, problem: 'size' };
      }
      parts.push(value);
    }
  }
  if (size === 0) return { ok: false, problem: 'empty' };
  const audio = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    audio.set(part, offset);
    offset += part.length;
  }
  if (!hasSignature(extension, audio)) return { ok: false, problem: 'type' };
  const lengthProblem = durationProblem(extension, audio);
  if (lengthProblem) return { ok: false, problem: lengthProblem };
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const seconds = extension === 'wav' ? (wavSeconds(audio) ?? 0) : Math.min(MAX_AUDIO_SECONDS, Math.max(duration, audio.length / 16_000));
  return { ok: true, utterance: { audio, type, fileName: `utterance.${extension}`, seconds } };
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

/** A WAV file's length from its `fmt ` byte rate and `data` size, or null when unreadable. */
export function wavSeconds(bytes: Uint8Array): number | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let byteRate = 0;
  for (let offset = 12; offset + 8 <= bytes.length; ) {
    const id = ascii(bytes, offset, 4);
    const size = view.getUint32(offset + 4, true);
    if (id === 'fmt ' && offset + 20 <= bytes.length) byteRate = view.getUint32(offset + 16, true);
    if (id === 'data') {
      if (byteRate === 0) return null;
      // A streaming writer may leave the size open (0 or 0xFFFFFFFF): count what is there.
      const available = bytes.length - (offset + 8);
      return (size === 0 || size > available ? available : size) / byteRate;
    }
    offset += 8 + size + (size % 2);
  }
  return null;
}

/**
 * The highest bit rate each compressed format is recorded at. Compressed audio cannot be measured
 * without decoding it, so besides the declared `x-audio-duration` its length is bounded by size: a
 * file larger than 60 s at this rate (plus 10 % container overhead and 64 KB of headers) is longer
 * than 60 s, whatever it declares.
 */
const MAX_BITS_PER_SECOND: Record<string, number> = { webm: 512_000, ogg: 512_000, mp4: 640_000, aac: 640_000, mp3: 320_000 };

export function maxBytesFor(extension: string): number {
  const bits = MAX_BITS_PER_SECOND[extension];
  if (bits === undefined) return MAX_AUDIO_BYTES;
  return Math.min(MAX_AUDIO_BYTES, Math.ceil(((MAX_AUDIO_SECONDS * bits) / 8) * 1.1) + 64 * 1024);
}

/**
 * At most 60 s: computed exactly for WAV (an unreadable header is no WAV, one without samples is
 * empty), bounded by the codec's highest bit rate otherwise.
 */
function durationProblem(extension: string, audio: Uint8Array): 'type' | 'size' | 'empty' | null {
  if (extension !== 'wav') return audio.length <= maxBytesFor(extension) ? null : 'size';
  const seconds = wavSeconds(audio);
  if (seconds === null) return 'type';
  if (seconds === 0) return 'empty';
  return seconds <= MAX_AUDIO_SECONDS ? null : 'size';
}
