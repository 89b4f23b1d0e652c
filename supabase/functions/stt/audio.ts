/**
 * What the stt function accepts: one utterance recorded by the browser's MediaRecorder (or any
 * common audio file), sent as the raw request body with its Content-Type. Nothing is stored.
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
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return { ok: true, utterance: { audio, type, fileName: `utterance.${extension}` } };
}
