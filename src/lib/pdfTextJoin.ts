/**
 * Joining the pieces of a unit that the typesetting broke across lines: line-end hyphenation
 * undone ("Metho-" + "de"), real hyphens kept ("E-" + "Mail", "Herz-" + "oder …").
 */

// Words that follow a truncated compound ("Herz- oder Lungenerkrankungen"): the hyphen is real.
const conjunction = /^(?:und|oder|bis|sowie|noch|bzw\.?|als|wie|or|and)\b/u;

/**
 * Joins line-end hyphenation: "Metho-" + "de" → "Methode". A hyphen before a capital or a digit
 * ("E-" + "Mail", "4-7-8-" + "Atmung") is real and stays, without the line break; a hyphen before
 * "und"/"oder" (a truncated compound) stays with a space.
 */
export function joinHyphenation(text: string): string {
  return text.replace(/([\p{L}\p{N}])-\n(?=([\p{L}\p{N}]+\.?))/gu, (_match, before: string, next: string) => {
    if (conjunction.test(next)) return `${before}- `;
    if (/^[\p{Lu}\p{N}]/u.test(next) || /\p{N}/u.test(before)) return `${before}-`;
    return before;
  });
}

/** Two pieces of one unit joined: hyphenation at the end of the first undone, else a space. */
export function joinUnit(first: string, second: string): string {
  // Only the boundary is looked at: the last word of `first` and the first word of `second`.
  const cut = first.search(/\S+$/u);
  const head = cut < 0 ? first : first.slice(0, cut);
  const next = /^\S+/u.exec(second)?.[0] ?? '';
  const boundary = joinHyphenation(`${first.slice(head.length)}\n${next}`).replace('\n', ' ');
  return head + boundary + second.slice(next.length);
}
