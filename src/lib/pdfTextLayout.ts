/**
 * Turns the text runs a PDF reader reports per page into plain text that keeps its paragraphs:
 * a line break where the reader marks an end of line or the baseline moves, an empty line where
 * the gap between two lines is clearly wider than the page's usual line spacing, and an empty
 * line between pages. The database splits passages on exactly those empty lines.
 *
 * The document's text is cleaned the way a reader would read it: words hyphenated at a line end
 * are joined ("Metho-" + "de"), while real hyphens stay ("E-" + "Mail", "4-7-8-" + "Atmung",
 * "Herz-" + "oder Lungen…"); running headers, footers and page numbers that repeat at the edges
 * of the pages are dropped; ligatures, soft hyphens and odd dashes are normalised.
 */

/** A run of text as pdfjs's `getTextContent()` reports it (only the fields used here). */
export interface PdfTextRun {
  str: string;
  /** The reader saw the end of a line after this run. */
  hasEOL: boolean;
  /** Text matrix [a, b, c, d, e, f]; f is the baseline's y, growing upwards. */
  transform: readonly number[];
  /** Font height in user space units (0 for some synthetic runs). */
  height: number;
}

/** pdfjs's marker items (`beginMarkedContent` …) carry no text. */
export type PdfTextItem = PdfTextRun | { type: string };

interface Line {
  text: string;
  y: number;
  height: number;
}

// What the database could not store (NUL) or a reader should not see: control characters
// other than tab and newline, soft hyphens and zero-width characters.
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const invisible = /[\u0000-\u0008\u000b-\u001f\u007f\u00ad\u200b-\u200d\u2060\ufeff]/g;
const horizontalSpace = /[^\S\n]+/g;
// Typographic ligatures (ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ) become their letters.
const ligatures = /[\ufb00-\ufb06]/g;
// Hyphen look-alikes become the ASCII hyphen; a figure dash and the horizontal bar become dashes.
const hyphens = /[\u2010\u2011\u2043\u2212]/g;
const soloDashes = /[\u2012\u2015]/g;
// A soft hyphen at a line's end is where the word was hyphenated.
const trailingSoftHyphen = /\u00ad\s*$/;

/** One line's characters as a reader means them: ligatures, dashes and spaces normalised. */
function normaliseLine(text: string): string {
  return text
    .replace(trailingSoftHyphen, '-')
    .replace(invisible, '')
    .replace(ligatures, (ligature) => ligature.normalize('NFKC'))
    .replace(hyphens, '-')
    .replace(soloDashes, '–')
    .replace(horizontalSpace, ' ')
    .trim();
}

const isRun = (item: PdfTextItem): item is PdfTextRun => 'str' in item;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? 0;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? upper) + upper) / 2;
}

function collectLines(items: readonly PdfTextItem[]): Line[] {
  const lines: Line[] = [];
  let parts: string[] = [];
  let y = 0;
  let height = 0;
  const endLine = () => {
    const text = normaliseLine(parts.join(''));
    if (text !== '') lines.push({ text, y, height });
    parts = [];
  };
  for (const item of items) {
    if (!isRun(item)) continue;
    if (item.str.trim() !== '') {
      const itemY = item.transform[5] ?? 0;
      const itemHeight = Math.abs(item.height || (item.transform[3] ?? 0));
      if (parts.length > 0 && Math.abs(itemY - y) > 0.5 * Math.max(itemHeight, height, 1)) endLine();
      if (parts.length === 0) {
        y = itemY;
        height = itemHeight;
      }
      parts.push(item.str);
    } else if (parts.length > 0) {
      parts.push(item.str);
    }
    if (item.hasEOL) endLine();
  }
  endLine();
  return lines;
}

/** One page's text: lines separated by '\n', paragraphs by an empty line. */
export function pageText(items: readonly PdfTextItem[]): string {
  const lines = collectLines(items);
  const steps = lines.slice(1).map((line, i) => (lines[i]?.y ?? line.y) - line.y);
  // The usual distance between baselines; capped, so a page of one-line paragraphs still shows its gaps.
  const usualHeight = median(lines.map((line) => line.height).filter((height) => height > 0)) || 10;
  const forward = steps.filter((step) => step > 0.5 * usualHeight);
  const spacing = Math.min(forward.length > 0 ? median(forward) : usualHeight * 1.2, usualHeight * 1.5);
  return lines
    .map((line, i) => {
      if (i === 0) return line.text;
      const step = steps[i - 1] ?? 0;
      // A wide gap starts a paragraph; a jump upwards (next column, a footer drawn first) too.
      const paragraph = step > spacing * 1.4 || step < -0.5 * usualHeight;
      return `${paragraph ? '\n\n' : '\n'}${line.text}`;
    })
    .join('')
    .normalize('NFC');
}

/** A line that is nothing but a page number: "7", "- 7 -", "Seite 7", "Page 7 of 9", "7/9". */
const pageNumberLine = /^(?:(?:seite|page|s\.)\s*)?[-–—]?\s*\d{1,4}\s*[-–—]?(?:\s*(?:\/|von|of)\s*\d{1,4})?$/i;

/** What a running header or footer has in common across pages: its text with numbers blanked. */
const edgeKey = (line: string): string => line.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();

/** How many lines at a page's top and bottom may be running headers or footers. */
const EDGE_LINES = 3;

function edgeLines(lines: readonly string[]): string[] {
  const text = lines.filter((line) => line.trim() !== '');
  return [...new Set([...text.slice(0, EDGE_LINES), ...text.slice(-EDGE_LINES)])];
}

/** Drops the page's leading and trailing lines that are running headers, footers or page numbers. */
function trimEdges(lines: string[], repeated: ReadonlySet<string>): string[] {
  const droppable = (line: string) => line.trim() === '' || pageNumberLine.test(line.trim()) || repeated.has(edgeKey(line));
  let start = 0;
  let end = lines.length;
  for (let seen = 0; start < end && droppable(lines[start] ?? '') && seen < EDGE_LINES * 3; seen++) start++;
  for (let seen = 0; end > start && droppable(lines[end - 1] ?? '') && seen < EDGE_LINES * 3; seen++) end--;
  return lines.slice(start, end);
}

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

/**
 * The document's text: its pages' texts without running headers, footers and page numbers, an
 * empty line between pages (or a plain line break where a sentence runs on to the next page),
 * empty pages left out, line-end hyphenation joined.
 */
export function documentText(pages: readonly string[]): string {
  const pageLines = pages.map((page) => page.split('\n'));
  const seenOn = new Map<string, number>();
  for (const lines of pageLines) {
    for (const key of new Set(edgeLines(lines).map(edgeKey))) seenOn.set(key, (seenOn.get(key) ?? 0) + 1);
  }
  const textPages = pageLines.filter((lines) => lines.some((line) => line.trim() !== '')).length;
  // A line counts as running header or footer when it sits at the edge of at least half of the
  // pages (and of two pages at least); a lone page cannot tell.
  const repeated = new Set(
    textPages < 2 ? [] : [...seenOn].filter(([key, count]) => key !== '' && count >= Math.max(2, Math.ceil(textPages / 2))).map(([key]) => key),
  );
  let text = '';
  for (const lines of pageLines) {
    const page = trimEdges(lines, repeated).join('\n').trim();
    if (page === '') continue;
    if (text === '') text = page;
    else {
      // A sentence that runs on to the next page (no sentence end, next page starts in lower case).
      const runsOn = !/[.!?:…"“”»)]$/u.test(text) && /^\p{Ll}/u.test(page);
      text += (runsOn ? '\n' : '\n\n') + page;
    }
  }
  return joinHyphenation(text);
}

/** Whether the text holds anything to search: at least one letter or digit. */
export function hasReadableText(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}
