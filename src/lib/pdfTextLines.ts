/**
 * A PDF page's text runs, as pdfjs's `getTextContent()` reports them, read as lines: runs on one
 * baseline joined, with where each line starts and ends, its style (font and size) and a tab
 * between the cells of a table row (runs on one line with a gap wider than a word space: a
 * table's columns, an option beside its description). Each line's characters are cleaned the way
 * a reader reads them: ligatures, soft hyphens and odd dashes normalised, control characters
 * dropped. pdfTextLayout.ts makes the page's units and blocks of these lines.
 */
import { entryMarkerSource } from '../../supabase/functions/_shared/listEntry';

/** A run of text as pdfjs's `getTextContent()` reports it (only the fields used here). */
export interface PdfTextRun {
  str: string;
  /** The reader saw the end of a line after this run. */
  hasEOL: boolean;
  /** Text matrix [a, b, c, d, e, f]; f is the baseline's y, growing upwards. */
  transform: readonly number[];
  /** Font height in user space units (0 for some synthetic runs). */
  height: number;
  /** Advance width in user space units; without it lines are kept as the reader reports them. */
  width?: number;
  /** The reader's name of the run's font (one per font of the file: a bold cut is another font). */
  fontName?: string;
}

/** What the reader says of a font (pdfjs's `styles`): its generic family, "monospace" for code. */
export type PdfFontStyles = Readonly<Record<string, { fontFamily?: string } | undefined>>;

/** pdfjs's marker items (`beginMarkedContent` …) carry no text. */
export type PdfTextItem = PdfTextRun | { type: string };

export interface Line {
  text: string;
  /** The baseline of the line's first printed line. */
  y: number;
  /** The baseline of its last printed line: y, but lower for a table row whose cells wrap (pdfTableRows.ts). */
  bottom: number;
  height: number;
  /** Where the line's text starts and ends on the x axis; NaN when the runs have no widths. */
  left: number;
  right: number;
  /** Where the line's last table cell starts (its left when it has one cell); NaN without widths. */
  cellLeft: number;
  /** Where each of its cells (the text between tabs) starts; empty without widths. */
  cellStarts: number[];
  /** The widths of the gaps read as cell breaks. */
  cellGaps: number[];
  /**
   * The one style of the line's text (its font and size), or null when it mixes styles (a bold
   * word in prose) or names no font.
   */
  style: string | null;
}

/** A gap between two runs on a line this many font heights wide separates table cells. */
const CELL_GAP = 1.2;
/** A gap this many font heights wide is a word space. */
const WORD_GAP = 0.12;

// What the database could not store (NUL) or a reader should not see: control characters
// other than tab and newline, soft hyphens and zero-width characters.
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const invisible = /[\u0000-\u0008\u000b-\u001f\u007f\u00ad\u200b-\u200d\u2060\ufeff]/g;
// Tabs separate table cells and stay; other horizontal whitespace becomes one space.
const horizontalSpace = /[^\S\n\t]+/g;
const cellBreak = / *\t[\t ]*/g;
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
    .replace(cellBreak, '\t')
    .trim();
}

const isRun = (item: PdfTextItem): item is PdfTextRun => 'str' in item;

/** The page's lines, top to bottom as the reader reports them (`styles`: to tell code from headings). */
export function collectLines(items: readonly PdfTextItem[], styles: PdfFontStyles): Line[] {
  const lines: Line[] = [];
  let parts: string[] = [];
  let y = 0;
  let height = 0;
  let left = Number.NaN;
  let right = Number.NaN;
  let cellLeft = Number.NaN;
  let cellStarts: number[] = [];
  let cellGaps: number[] = [];
  let lineStyles = new Set<string | undefined>();
  const endLine = () => {
    const text = normaliseLine(parts.join(''));
    const style = lineStyles.size === 1 ? ([...lineStyles][0] ?? null) : null;
    // The cells' starts only where every tab is one of the gaps measured (normalising keeps them).
    const starts = cellStarts.length === text.split('\t').length ? cellStarts : [];
    if (text !== '') lines.push({ text, y, bottom: y, height, left, right, cellLeft, cellStarts: starts, cellGaps, style });
    parts = [];
    left = Number.NaN;
    right = Number.NaN;
    cellLeft = Number.NaN;
    cellStarts = [];
    cellGaps = [];
    lineStyles = new Set();
  };
  for (const item of items) {
    if (!isRun(item)) continue;
    const x = item.transform[4] ?? 0;
    // Widths only count on upright text (no rotation or skew).
    const measured = item.width !== undefined && (item.transform[1] ?? 0) === 0 && (item.transform[2] ?? 0) === 0;
    if (item.str.trim() !== '') {
      const itemY = item.transform[5] ?? 0;
      const itemHeight = Math.abs(item.height || (item.transform[3] ?? 0));
      if (parts.length > 0 && Math.abs(itemY - y) > 0.5 * Math.max(itemHeight, height, 1)) endLine();
      if (parts.length === 0) {
        y = itemY;
        height = itemHeight;
        left = measured ? x : Number.NaN;
        cellLeft = left;
        cellStarts = measured ? [x] : [];
      } else if (measured && !Number.isNaN(right)) {
        const gap = separator(parts.join(''), x - right, Math.max(itemHeight, height, 1));
        if (gap === '\t') {
          cellLeft = x;
          cellStarts.push(x);
          cellGaps.push(x - right);
        }
        parts.push(gap);
      }
      parts.push(item.str);
      // Code in a monospaced font is set apart by its font, too, but it is no heading.
      const font = item.fontName !== undefined && styles[item.fontName]?.fontFamily !== 'monospace' ? item.fontName : undefined;
      lineStyles.add(font === undefined ? undefined : `${font}@${String(Math.round(itemHeight * 2) / 2)}`);
      right = measured ? x + (item.width ?? 0) : Number.NaN;
    } else if (parts.length > 0 && (!measured || Number.isNaN(right))) {
      // Without widths, the reader's own spaces are all there is.
      parts.push(item.str);
    }
    if (item.hasEOL) endLine();
  }
  endLine();
  return lines;
}

/** A list marker alone ("•", "1.", "a)"): it keeps the text after it as its own cell's. */
const markerAlone = new RegExp(`^\\s*(?:${entryMarkerSource})$`, 'u');

/** What a gap between two runs on a line stands for: a table cell's end, a word space, nothing. */
function separator(before: string, gap: number, height: number): string {
  if (/\s$/u.test(before)) return '';
  // A list marker keeps its text beside it as one cell ("•  Text", "1.  Text").
  if (gap >= CELL_GAP * height && !markerAlone.test(before)) return '\t';
  return gap >= WORD_GAP * height ? ' ' : '';
}
