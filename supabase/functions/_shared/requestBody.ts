/**
 * The body of a request to a public function, read only up to a cap and within a deadline, before
 * anything is reserved for it: a caller who declares a larger body is refused before anything is
 * read, one who sends more than declared (or no Content-Length at all) is cut off at the cap, and
 * one who sends too slowly is cut off at the deadline, so no request can make a function buffer
 * more or wait longer, and what a request reserves is known from the body itself.
 */

/** The cap of the coach's and tts's JSON bodies: ample for 20 messages of 2,000 characters. */
export const MAX_JSON_BODY_BYTES = 64 * 1024;

/** How long a body may take to arrive. */
export const BODY_DEADLINE_MS = 10_000;

/** The declared body size, or null when there is none (chunked) or it is not a number. */
export function declaredBodyBytes(request: Request): number | null {
  const header = request.headers.get('content-length');
  if (header === null) return null;
  const bytes = Number(header);
  return Number.isSafeInteger(bytes) && bytes >= 0 ? bytes : null;
}

/** Whether the declared size is already over `max` (refused without reading anything). */
export function declaredTooLarge(request: Request, max: number): boolean {
  return (declaredBodyBytes(request) ?? 0) > max;
}

/** 'too_large': past `max` bytes; 'too_slow': not all there within the deadline. */
export type BodyRead = { ok: true; bytes: Uint8Array } | { ok: false; problem: 'too_large' | 'too_slow' };

/** The whole body, or why not: past `max` bytes, or not complete within `deadlineMs` (the rest is not read). */
export async function readBodyUpTo(request: Request, max: number, deadlineMs = BODY_DEADLINE_MS): Promise<BodyRead> {
  if (declaredTooLarge(request, max)) return { ok: false, problem: 'too_large' };
  const reader = request.body?.getReader();
  if (!reader) return { ok: true, bytes: new Uint8Array() };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), deadlineMs);
  });
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), late]);
      if (next === 'late') {
        await reader.cancel().catch(() => undefined);
        return { ok: false, problem: 'too_slow' };
      }
      if (next.done) break;
      size += next.value.length;
      if (size > max) {
        await reader.cancel().catch(() => undefined);
        return { ok: false, problem: 'too_large' };
      }
      parts.push(next.value);
    }
  } finally {
    clearTimeout(timer);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return { ok: true, bytes };
}

export type JsonRead = { ok: true; value: unknown; bytes: number } | { ok: false; problem: 'too_large' | 'too_slow' };

/** The body as JSON (`value: null` when it is not JSON) when it arrives whole within the cap and the deadline. */
export async function readJsonUpTo(request: Request, max: number, deadlineMs = BODY_DEADLINE_MS): Promise<JsonRead> {
  const read = await readBodyUpTo(request, max, deadlineMs);
  if (!read.ok) return read;
  try {
    return { ok: true, value: JSON.parse(new TextDecoder().decode(read.bytes)) as unknown, bytes: read.bytes.length };
  } catch {
    return { ok: true, value: null, bytes: read.bytes.length };
  }
}
