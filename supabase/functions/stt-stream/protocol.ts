/**
 * What the page and the `stt-stream` function say to each other over the WebSocket. Provider-
 * neutral on purpose: the page never sees the transcriber's own protocol, so another transcriber
 * would change this function only.
 *
 * page → function
 *   binary  the microphone: 16-bit little-endian mono PCM at 16 kHz, in order, from the voice onset
 *   text    `{"type":"commit"}`: the visitor paused; the words so far are final
 *
 * function → page
 *   `{"type":"ready"}`                      the transcriber listens (audio sent before is kept and sent on)
 *   `{"type":"partial","text":"…"}`         the words of the current segment so far (they may still change)
 *   `{"type":"final","text":"…"}`           a segment's final words, after a commit ('' when nothing was said)
 *   `{"type":"error","error":{"message":"…","code":"…"}}`   sent just before the function closes the
 *                                           socket with one of `closeCodes` (the same message is the reason)
 */
export const PCM_RATE = 16_000;
/** 16-bit mono: two bytes a sample. */
export const BYTES_PER_SECOND = PCM_RATE * 2;

/**
 * Close codes: 1000 when the page ends the stream, else 4000 + the HTTP status the same refusal
 * has in the `stt` function, so the page tells the cases apart without reading the message.
 */
export const closeCodes = {
  normal: 1000,
  badMessage: 4400,
  idle: 4408,
  tooLong: 4413,
  refused: 4429,
  providerFailed: 4502,
  unavailable: 4503,
} as const;

export type ClientMessage = { type: 'audio'; bytes: Uint8Array } | { type: 'commit' } | { type: 'invalid'; why: string };

/** A message from the page: audio (whole 16-bit samples), a commit, or something else (refused). */
export function parseClientMessage(data: string | Uint8Array): ClientMessage {
  if (typeof data !== 'string') {
    if (data.byteLength % 2 !== 0) return { type: 'invalid', why: 'audio must be whole 16-bit samples' };
    return { type: 'audio', bytes: data };
  }
  try {
    const message: unknown = JSON.parse(data);
    if (typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'commit') return { type: 'commit' };
  } catch {
    // falls through: not JSON
  }
  return { type: 'invalid', why: 'unknown message' };
}

export type ServerMessage =
  | { type: 'ready' }
  | { type: 'partial'; text: string }
  | { type: 'final'; text: string }
  | { type: 'error'; error: { message: string; code: string } };

export const encodeMessage = (message: ServerMessage): string => JSON.stringify(message);

/** A close reason within the protocol's 123 bytes (UTF-8), cut at a character. */
export function closeReason(text: string): string {
  const encoder = new TextEncoder();
  let reason = text;
  while (encoder.encode(reason).byteLength > 123) reason = reason.slice(0, -1);
  return reason;
}
