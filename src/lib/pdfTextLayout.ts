/**
 * Turns the text runs a PDF reader reports per page into plain text that keeps the document's
 * structure, as the database's passage splitting (private.document_passages) reads it:
 *   - an empty line between blocks (paragraphs, headings, lists, tables): where the gap between
 *     two lines is clearly wider than the page's usual line spacing, and between pages;
 *   - a line per unit inside a block: a paragraph of prose, a list entry or a table row. Lines the
 *     typesetting wrapped are joined again (the first word of a line would not have fit on the
 *     line before it); a line that starts a list entry ("•", "–", "1.", "a)", "-r") starts a unit;
 *   - a tab between the cells of a table row: runs on one line with a gap wider than a word space
 *     (a table's columns, an option beside its description);
 *   - a heading set apart by its font or size alone (bold, as word processors and groff's -ms set
 *     it, with little or no space before the text below it) as a block of its own.
 *
 * The document's text is cleaned the way a reader would read it: words hyphenated at a line end
 * are joined ("Metho-" + "de"), while real hyphens stay ("E-" + "Mail", "4-7-8-" + "Atmung",
 * "Herz-" + "oder Lungen…"); running headers, footers and page numbers that repeat at the edges
 * of the pages are dropped; ligatures, soft hyphens and odd dashes are normalised (the lines
 * themselves are read in pdfTextLines.ts).
 */
import { bulletOrOptionStart, entryStart } from '../../supabase/functions/_shared/listEntry';
import { joinWrappedRows } from './pdfTableRows';
import { joinHyphenation, joinUnit } from './pdfTextJoin';
import { collectLines, type Line, type PdfFontStyles, type PdfTextItem } from './pdfTextLines';

export { joinHyphenation, joinUnit };

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? 0;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? upper) + upper) / 2;
}

/**
 * A line of justified prose whose word spaces were stretched as wide as cell gaps (a long word
 * that could not be hyphenated left few spaces to stretch): it reaches the right edge of the text,
 * its gaps are all equally wide, as justification makes them (a table's gaps follow the lengths of
 * its cells), and its cells are single words (every space was stretched) or start with prose (four
 * words or more, set as one run by the reader).
 */
function justified(line: Line, rightEdge: number): boolean {
  if (line.cellGaps.length < 2 || Number.isNaN(line.right) || line.right < rightEdge - line.height) return false;
  const cells = line.text.split('\t');
  if (!cells.every((cell) => !cell.includes(' ')) && (cells[0] ?? '').split(' ').length < 4) return false;
  return Math.max(...line.cellGaps) - Math.min(...line.cellGaps) <= 0.1 * line.height;
}

/** One word without a sentence's punctuation: a term of a list ("SICHERN_PASSWORT"). */
const isTerm = (text: string): boolean => /^[^\s.,;:!?]+$/u.test(text);

/**
 * Whether `line` goes on the unit of the line before it: it starts no list entry, the two are not
 * two rows of a table, it is no term on its own left of a row's last cell (a wrapped cell goes on
 * below itself; a term at the first column starts the next entry of a list), and its first word
 * would not have fit at the end of the line before (or it is a description indented below its
 * option or term). Lines without widths never do.
 */
function continues(before: Line, line: Line, rightEdge: number, beforeContinued: boolean, beforeTerm: boolean): boolean {
  if (Number.isNaN(before.right) || Number.isNaN(line.left) || entryStart.test(line.text)) return false;
  if (beforeContinued && outdented(before, line)) return false;
  if (line.text.includes('\t') && (before.text.includes('\t') || /[.!?]$/u.test(before.text))) return false;
  if (before.text.includes('\t') && line.left < before.cellLeft - before.height && isTerm(line.text)) return false;
  if (describes(before, line, beforeTerm)) return true;
  const firstWord = /^\S+/u.exec(line.text)?.[0] ?? '';
  const charWidth = (line.right - line.left) / Math.max(1, line.text.length);
  return before.right + (firstWord.length + 1) * charWidth > rightEdge - 0.5 * before.height;
}

/**
 * A wrapped unit's lines after its first start at one left edge (only a first line may be
 * indented): a line left of a continued line starts the next unit (a list's next term).
 */
const outdented = (before: Line, line: Line): boolean => line.left < before.left - before.height;

/**
 * An option or a term (isTerm: too wide for the column of terms; `term`: a line that started left
 * of the wrapped description before it; a few words without a sentence's punctuation with a line
 * indented by more than a paragraph's first line below them) on a line of its own and its
 * description indented below it.
 */
const describes = (before: Line, line: Line, term = false): boolean =>
  (entryStart.test(before.text) ||
    isTerm(before.text) ||
    term ||
    (/^[^.,;:!?]+$/u.test(before.text) && before.text.split(' ').length <= 6 && line.left > before.left + 4 * before.height)) &&
  !before.text.includes('\t') &&
  line.left > before.left + 2 * before.height;

/** The style (font and size) most of the page's text is set in: its body text, and that text's size. */
function bodyStyle(lines: readonly Line[]): { style: string | null; height: number } {
  const characters = new Map<string, number>();
  for (const { style, text } of lines) if (style !== null) characters.set(style, (characters.get(style) ?? 0) + text.length);
  let body: string | null = null;
  for (const [style, count] of characters) if (body === null || count > (characters.get(body) ?? 0)) body = style;
  return { style: body, height: lines.find((line) => line.style === body)?.height ?? 0 };
}

/**
 * A line that can be a heading: short, no sentence (a question may be one: an FAQ's), no table
 * row and no bulleted entry (a numbered heading, "2. Zahlung", is one).
 */
const headingLike = (text: string): boolean =>
  text.length <= 90 &&
  !text.includes('\t') &&
  /\p{L}/u.test(text) &&
  !/[.,;:!…)"“”»]$/u.test(text) &&
  !bulletOrOptionStart.test(text);

/**
 * The lines that start a block because a heading set apart by its style ends before them or starts
 * with them: one to three heading-like lines in one style other than the body's (another font not
 * smaller than the body's, or the body's font larger; a caption or a footnote set smaller is
 * none), between lines of other styles, the line below not indented under it (a bold term with
 * its description indented below stays an entry). The gap around such a heading is often no
 * wider than a paragraph's. A heading-like line alone below it before a gap (a title's subtitle)
 * stays in its block, and so do headings right below one another. A wrapped heading's lines may
 * end with a comma. `gapBefore[i]`: line i starts a block by the gap above it.
 */
function styledHeadingEdges(lines: readonly Line[], gapBefore: readonly boolean[]): Set<number> {
  const body = bodyStyle(lines);
  // The headings set apart by their style, as [first line, line after the last).
  const headings: [number, number][] = [];
  for (let start = 0, end = 1; start < lines.length; start = end, end = start + 1) {
    const style = lines[start]?.style ?? null;
    while (end < lines.length && style !== null && lines[end]?.style === style) end++;
    const group = lines.slice(start, end);
    const first = group[0];
    const next = lines[end];
    if (
      style !== null &&
      style !== body.style &&
      first !== undefined &&
      first.height >= 0.95 * body.height &&
      group.length <= 3 &&
      group.every((line, k) => headingLike(k < group.length - 1 ? line.text.replace(/,$/u, '') : line.text)) &&
      !(next !== undefined && next.left > first.left + 2 * first.height)
    ) {
      headings.push([start, end]);
    }
  }
  const startsHeading = new Set(headings.map(([start]) => start));
  const endsHeading = new Set(headings.map(([, end]) => end));
  const edges = new Set<number>();
  for (const [start, end] of headings) {
    const next = lines[end];
    const startsBlock = (i: number) => i >= lines.length || gapBefore[i] === true || startsHeading.has(i);
    const subtitle = next !== undefined && (startsHeading.has(end) || (headingLike(next.text) && startsBlock(end + 1)));
    if (start > 0 && !endsHeading.has(start)) edges.add(start);
    if (next !== undefined && !subtitle) edges.add(end);
  }
  return edges;
}

/** At most this many lines starting where a column starts may reach further right than its edge. */
const OVERHANGING_LINES = 3;

/**
 * Where each line's text column ends. On a page of one column that is the page's right edge
 * (`pageEdge`); a line of a column that ends further left (two columns side by side, or a column
 * below a wider title) gets its column's edge: the rightmost right end at which at least three
 * lines of several words starting where it starts (within two font heights) end, within half a
 * font height of one another (a set column's full lines; not a list of short lines, nor a column
 * of labels, "(1)", "(2)"). Up to three lines starting there may reach further right when they are
 * set in another style than the page's body text (`body`): a title set larger, a running header in
 * its own font across a wider measure say nothing about where the column's lines end, while a
 * longer line of the body's own text (ragged prose above a list of lines of equal length) does. A
 * column that ends within two font heights of the page's edge gets the page's edge.
 */
function columnEdges(lines: readonly Line[], pageEdge: number, body: string | null): number[] {
  const prose = lines.filter((line) => !line.text.includes('\t') && !Number.isNaN(line.left) && !Number.isNaN(line.right));
  const overhangs = (line: Line) => line.style !== null && line.style !== body;
  return lines.map((line) => {
    if (Number.isNaN(line.left)) return pageEdge;
    const peers = prose.filter((other) => Math.abs(other.left - line.left) <= 2 * line.height).sort((a, b) => b.right - a.right);
    const full = (peer: Line, end: number) => peer.right >= end - 0.5 * line.height && peer.text.includes(' ');
    const edge = peers
      .slice(0, OVERHANGING_LINES + 1)
      .find(
        (candidate, i) =>
          peers.slice(0, i).every(overhangs) && peers.filter((peer) => peer.right <= candidate.right && full(peer, candidate.right)).length >= 3,
      )?.right;
    return edge !== undefined && edge < pageEdge - 2 * line.height ? edge : pageEdge;
  });
}

/**
 * A page's text and, for each of its lines (split at '\n'), how many characters would still have
 * fitted at the end of the last printed line of that unit before its column's edge (NaN for an
 * empty line, or when the reader gave no widths): documentText() reads a page that ends in a
 * full line without a sentence end as going on at the top of the next page.
 */
export interface PageText {
  text: string;
  room: number[];
}

/** One page's text: units separated by '\n', blocks by an empty line (`styles`: the reader's fonts, to tell code from headings). */
export function pageText(items: readonly PdfTextItem[], styles: PdfFontStyles = {}): string {
  return pageLayout(items, styles).text;
}

/** How many characters of the line's own width fit between its end and its column's edge (half a font height short of it). */
function roomAfter(line: Line, edge: number): number {
  if (Number.isNaN(line.left) || Number.isNaN(line.right)) return Number.NaN;
  const charWidth = (line.right - line.left) / Math.max(1, line.text.length);
  return charWidth > 0 ? (edge - 0.5 * line.height - line.right) / charWidth : Number.NaN;
}

/** One page's text (pageText()) with the room left at the end of each of its lines. */
export function pageLayout(items: readonly PdfTextItem[], styles: PdfFontStyles = {}): PageText {
  const lines = joinWrappedRows(collectLines(items, styles));
  // From the last printed line of the line before (a table row's cells may wrap below its first).
  const steps = lines.slice(1).map((line, i) => (lines[i]?.bottom ?? line.y) - line.y);
  // The usual distance between baselines; capped, so a page of one-line paragraphs still shows its gaps.
  const usualHeight = median(lines.map((line) => line.height).filter((height) => height > 0)) || 10;
  const forward = steps.filter((step) => step > 0.5 * usualHeight);
  const spacing = Math.min(forward.length > 0 ? median(forward) : usualHeight * 1.2, usualHeight * 1.5);
  // Where the text column ends: the rightmost line that is no table row (a running header or
  // footer set across a wider measure has its gap, too).
  const rightEdge = Math.max(
    ...lines.filter((line) => !line.text.includes('\t')).map((line) => line.right).filter((right) => !Number.isNaN(right)),
    Number.NEGATIVE_INFINITY,
  );
  const edges = columnEdges(lines, rightEdge, bodyStyle(lines).style);
  lines.forEach((line, i) => {
    if (justified(line, edges[i] ?? rightEdge)) {
      line.text = line.text.replace(/\t/gu, ' ');
      line.cellLeft = line.left;
    }
  });
  const gapBefore = lines.map((_line, i) => {
    const step = steps[i - 1] ?? 0;
    // A wide gap starts a block; a jump upwards (next column, a footer drawn first) too.
    return i > 0 && (step > spacing * 1.4 || step < -0.5 * usualHeight);
  });
  const headingEdges = styledHeadingEdges(lines, gapBefore);
  let text = '';
  // The room after each line of `text` (its unit's last printed line).
  const room: number[] = [];
  // Whether the line before went on the unit of the line before it; whether it started left of
  // that line after a wrapped one (a term whose description may follow indented).
  let continued = false;
  let term = false;
  lines.forEach((line, i) => {
    const before = lines[i - 1];
    const after = roomAfter(line, edges[i] ?? rightEdge);
    if (before === undefined) {
      text = line.text;
      room.push(after);
      return;
    }
    const block = gapBefore[i] === true || headingEdges.has(i);
    const joins = !block && continues(before, line, edges[i - 1] ?? rightEdge, continued, term);
    if (block) {
      text += `\n\n${line.text}`;
      room.push(Number.NaN, after);
    } else if (joins) {
      const cut = text.lastIndexOf('\n') + 1;
      // An option on a line of its own and its description below it are one entry of two cells.
      const cell = describes(before, line, term);
      text = text.slice(0, cut) + (cell ? `${text.slice(cut)}\t${line.text}` : joinUnit(text.slice(cut), line.text));
      room[room.length - 1] = after;
    } else {
      text += `\n${line.text}`;
      room.push(after);
    }
    term = !block && continued && !joins && outdented(before, line);
    continued = joins;
  });
  return { text: text.normalize('NFC'), room };
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

/**
 * Drops the page's leading and trailing lines that are running headers, footers or page numbers.
 * `lone`: the document's only page, where nothing repeats; there a block of one line of cells at
 * the very top or bottom (a header or footer set across the measure: "Besser schlafen⇥Starterwissen",
 * "Mia Coaching – Wissensreihe⇥Seite 1") is one too, since a table has a head row and rows.
 */
function trimEdges(lines: readonly string[], repeated: ReadonlySet<string>, lone = false): { start: number; end: number } {
  const droppable = (line: string) => line.trim() === '' || pageNumberLine.test(line.trim()) || repeated.has(edgeKey(line));
  let start = 0;
  let end = lines.length;
  for (let seen = 0; start < end && droppable(lines[start] ?? '') && seen < EDGE_LINES * 3; seen++) start++;
  for (let seen = 0; end > start && droppable(lines[end - 1] ?? '') && seen < EDGE_LINES * 3; seen++) end--;
  if (lone) {
    const loneRow = (at: number, beside: number) => (lines[at] ?? '').includes('\t') && (lines[beside] ?? '').trim() === '';
    if (start + 1 < end && loneRow(start, start + 1)) start++;
    if (end - 1 > start && loneRow(end - 1, end - 2)) end--;
  }
  return { start, end };
}

/**
 * Whether the next page's text goes on with the unit the page before ended with, when that ended
 * without a sentence end: the next page starts in lower case (and is not a table's next row), or
 * the unit's last line was full (`room`: the next page's first word would not have fitted after
 * it; pageLayout()) and neither it nor the next page's first line is a table row or a list entry.
 * German starts nouns in capitals, so "… geben Sie eine" and "Entkalkertablette in den Tank." on
 * the next page are one sentence.
 */
function runsOn(before: string, room: number, page: string): boolean {
  if (/[.!?:…"“”»)]$/u.test(before)) return false;
  const last = before.slice(before.lastIndexOf('\n') + 1);
  const newline = page.indexOf('\n');
  const first = newline < 0 ? page : page.slice(0, newline);
  // A table's next row ("date_ext⇥yes⇥…"), even in lower case.
  if (last.includes('\t') && first.includes('\t')) return false;
  if (/^\p{Ll}/u.test(page)) return true;
  if (last.includes('\t') || first.includes('\t') || entryStart.test(first)) return false;
  const word = /^\S+/u.exec(first)?.[0] ?? '';
  return word.length + 1 > room;
}

const cellCount = (row: string): number => row.split('\t').length;

/**
 * When the page before ended inside a table or a list and the next page goes on with its rows or
 * entries, the next page's text to add after a line break (not an empty line: the table or list
 * stays one block, so the passages repeat its head row or lead-in where it goes on), without the
 * table's head row when the page repeats it; null otherwise. A row goes on a table when it has as
 * many cells as the table's head row or its last row; an entry goes on a list unless it is a
 * numbered heading (a short line, no sentence, alone in its block: "4. Wartung").
 */
function goesOn(before: string, page: string): string | null {
  const blockStart = before.lastIndexOf('\n\n');
  const rows = before.slice(blockStart < 0 ? 0 : blockStart + 2).split('\n');
  const lines = page.split('\n');
  const last = rows.at(-1) ?? '';
  const first = lines[0] ?? '';
  // A numbered line alone in its block, no sentence ("4. Wartung"), is a heading, not the next entry.
  const numberedHeading = headingLike(first) && /^[^\n]*(?:\n\n|$)/u.test(page);
  if (entryStart.test(last) && !last.includes('\t') && entryStart.test(first) && !first.includes('\t') && !numberedHeading) return page;
  if (!last.includes('\t') || !first.includes('\t')) return null;
  let start = rows.length - 1;
  while (start > 0 && rows[start - 1]?.includes('\t') === true) start--;
  const head = rows[start] ?? last;
  if (cellCount(first) !== cellCount(head) && cellCount(first) !== cellCount(last)) return null;
  return first === head && lines.length > 1 ? lines.slice(1).join('\n') : page;
}

/**
 * The document's text: its pages' texts without running headers, footers and page numbers, an
 * empty line between pages (a sentence that runs on to the next page stays in its unit: runsOn();
 * a table or list that goes on stays one block: goesOn()), empty pages left out, line-end
 * hyphenation joined. A page given as text alone (no room, as in tests) goes on from the page
 * before only when it starts in lower case.
 */
export function documentText(pages: readonly (string | PageText)[]): string {
  const pageLines = pages.map((page) => (typeof page === 'string' ? page : page.text).split('\n'));
  const pageRoom = pages.map((page) => (typeof page === 'string' ? [] : page.room));
  const seenOn = new Map<string, number>();
  for (const lines of pageLines) {
    for (const key of new Set(edgeLines(lines).map(edgeKey))) seenOn.set(key, (seenOn.get(key) ?? 0) + 1);
  }
  const textPages = pageLines.filter((lines) => lines.some((line) => line.trim() !== '')).length;
  // A line counts as running header or footer when it sits at the edge of at least half of the
  // pages (and of two pages at least); a lone page cannot tell by repetition (trimEdges()).
  const repeated = new Set(
    textPages < 2 ? [] : [...seenOn].filter(([key, count]) => key !== '' && count >= Math.max(2, Math.ceil(textPages / 2))).map(([key]) => key),
  );
  let text = '';
  // The room after the last line of `text`.
  let room = Number.NaN;
  pageLines.forEach((lines, index) => {
    const { start, end } = trimEdges(lines, repeated, textPages === 1);
    const page = lines.slice(start, end).join('\n').trim();
    if (page === '') return;
    if (text === '') text = page;
    else if (runsOn(text, room, page)) text = joinUnit(text, page);
    else {
      const rows = goesOn(text, page);
      text = rows === null ? `${text}\n\n${page}` : `${text}\n${rows}`;
    }
    room = pageRoom[index]?.[end - 1] ?? Number.NaN;
  });
  return joinHyphenation(text);
}

/** Whether the text holds anything to search: at least one letter or digit. */
export function hasReadableText(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}
