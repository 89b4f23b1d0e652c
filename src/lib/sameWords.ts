/**
 * Whether two transcripts say the same words: the recogniser's final transcript often differs from
 * its last interim result only in case, punctuation or spacing ("ich bin gestresst" → "Ich bin
 * gestresst."). A reply started early on the words so far is kept only when the final words are
 * the same.
 */
export function normalizeWords(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

export function sameWords(a: string, b: string): boolean {
  const normalized = normalizeWords(a);
  return normalized !== '' && normalized === normalizeWords(b);
}
