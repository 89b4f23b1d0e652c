/**
 * The body of a request to a public function, read only up to a cap: a caller who declares a
 * larger body is refused before anything is read, and one who sends more than declared (or no
 * Content-Length at all) is cut off at the cap, so no request can make a function buffer more.
 */

/** The cap of the coach's and tts's JSON bodies: ample for 20 messages of 2,000 characters. */
export const MAX_JSON_BODY_BYTES = 64 * 1024;

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

export type BodyRead = { ok: true; bytes: Uint8Array } | { ok: false };

/** The whole body, or `{ ok: false }` as soon as it grows past `max` bytes (the rest is not read). */
export async function readBodyUpTo(request: Request, max: number): Promise<BodyRead> {
  if (declaredTooLarge(request, max)) return { ok: false };
  const reader = request.body?.getReader();
  if (!reader) return { ok: true, bytes: new Uint8Array() };
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return { ok: false };
    }
    parts.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return { ok: true, bytes };
}

/** The body as JSON when it is at most `max` bytes: `{ ok: false }` when larger, `value: null` when not JSON. */
export async function readJsonUpTo(request: Request, max: number): Promise<{ ok: true; value: unknown } | { ok: false }> {
  const read = await readBodyUpTo(request, max);
  if (!read.ok) return read;
  try {
    return { ok: true, value: JSON.parse(new TextDecoder().decode(read.bytes)) as unknown };
  } catch {
    return { ok: true, value: null };
  }
}
