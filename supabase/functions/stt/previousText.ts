/**
 * The `x-previous-text` header: what the visitor said right before this audio, URI-encoded (headers
 * carry ASCII only). Bounded to its last 500 characters; anything unreadable counts as none.
 */
const MAX_PREVIOUS_TEXT = 500;

export function previousTextOf(request: Request): string {
  const raw = request.headers.get('x-previous-text');
  if (!raw) return '';
  try {
    return decodeURIComponent(raw).trim().slice(-MAX_PREVIOUS_TEXT);
  } catch {
    return '';
  }
}
