/**
 * Whether two transcripts say the same: the recogniser's final transcript often differs from its
 * last interim result only in case, punctuation or spacing ("ich bin gestresst" → "Ich bin
 * gestresst."). A reply started on the interim result is kept only when both say the same words.
 */
export function normalizeUtterance(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

export function sameUtterance(a: string, b: string): boolean {
  const normalized = normalizeUtterance(a);
  return normalized !== '' && normalized === normalizeUtterance(b);
}
