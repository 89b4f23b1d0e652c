/**
 * Turns the text runs a PDF reader reports per page into plain text that keeps its paragraphs:
 * a line break where the reader marks an end of line or the baseline moves, an empty line where
 * the gap between two lines is clearly wider than the page's usual line spacing, and an empty
 * line between pages. The database splits passages on exactly those empty lines.
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
    const text = parts.join('').replace(invisible, '').replace(horizontalSpace, ' ').trim();
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

/** The document's text: its pages' texts, an empty line between pages, empty pages left out. */
export function documentText(pages: readonly string[]): string {
  return pages.filter((page) => page !== '').join('\n\n');
}

/** Whether the text holds anything to search: at least one letter or digit. */
export function hasReadableText(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}
