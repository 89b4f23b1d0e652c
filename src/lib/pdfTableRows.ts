/**
 * Table rows whose cells wrap onto several lines, read as one row each. A reader reports such a
 * row (groff's tbl text blocks, word processors' table cells) cell by cell: the first cell's lines
 * top to bottom, then up again to the next cell's first line beside it, and so on. Read line by
 * line, a cell's second line would be a unit of its own ("Füße nicht ausgerichtet oder
 * Transportsicherung" | "vergessen") and the jump up would start a new block, tearing the row's
 * cause from its remedy. Here the lines of such a row become one line: its cells in order, each
 * cell's lines joined (hyphenation undone), a tab between the cells.
 */
import { joinUnit } from './pdfTextJoin';
import type { Line } from './pdfTextLines';

/**
 * A cell holds at most this many printed lines; a longer stack of lines beside another is a page
 * of two columns of prose, not a table row.
 */
const MAX_CELL_LINES = 8;

const near = (a: number, b: number, height: number): boolean => Math.abs(a - b) <= 0.5 * height;

/**
 * How many lines from `start` make one table row whose cells wrap, 0 when they make none: lines
 * going down one line at a time, each starting where a cell of the line above it starts (the
 * cell's column), then a line back up at the row's first baseline right of all of them (the next
 * cell), and so on; at least two cells so stacked.
 */
function rowLength(lines: readonly Line[], start: number): number {
  const first = lines[start];
  if (first === undefined || first.cellStarts.length === 0) return 0;
  let before = first;
  // Where a line that goes on the current cell may start, and how far that cell's lines reach.
  let columnStarts = first.cellStarts;
  let columnLines = 1;
  let columnRight = first.right;
  let cells = 1;
  let end = start + 1;
  for (; end < lines.length; end++) {
    const line = lines[end];
    if (line === undefined || line.cellStarts.length === 0) break;
    const height = Math.max(line.height, before.height, 1);
    const step = before.y - line.y;
    if (step > 0.5 * height && step <= 1.6 * height && columnLines < MAX_CELL_LINES && columnStarts.some((x) => near(x, line.left, height))) {
      columnLines++;
      columnRight = Math.max(columnRight, line.right);
    } else if (near(line.y, first.y, height) && line.left > columnRight) {
      cells++;
      columnStarts = line.cellStarts;
      columnLines = 1;
      columnRight = line.right;
    } else {
      break;
    }
    before = line;
  }
  return cells > 1 ? end - start : 0;
}

/**
 * The row's lines as one line. Its columns start where its lines start; a gap inside a column is
 * a word space that justification stretched ("Füße⇥nicht⇥ausgerichtet" in a narrow cell), not a
 * cell's end.
 */
function mergeRow(row: readonly Line[]): Line {
  const lefts: number[] = [];
  for (const line of row) if (!lefts.some((x) => near(x, line.left, line.height))) lefts.push(line.left);
  lefts.sort((a, b) => a - b);
  const cells = lefts.map(() => '');
  const rights = lefts.map(() => Number.NEGATIVE_INFINITY);
  const columnOf = (x: number, height: number): number => Math.max(0, lefts.findLastIndex((left) => left <= x + 0.5 * height));
  for (const line of row) {
    // The line's pieces per column, joined by a space: a cell's words on one printed line.
    const pieces = new Map<number, string>();
    line.text.split('\t').forEach((piece, k) => {
      const column = columnOf(line.cellStarts[k] ?? line.left, line.height);
      const known = pieces.get(column);
      pieces.set(column, known === undefined ? piece : `${known} ${piece}`);
    });
    for (const [column, piece] of pieces) cells[column] = cells[column] === '' ? piece : joinUnit(cells[column] ?? '', piece);
    const last = columnOf(line.cellLeft, line.height);
    rights[last] = Math.max(rights[last] ?? Number.NEGATIVE_INFINITY, line.right);
  }
  const [first] = row;
  const styles = new Set(row.map((line) => line.style));
  return {
    text: cells.join('\t'),
    y: first?.y ?? 0,
    bottom: Math.min(...row.map((line) => line.bottom)),
    height: first?.height ?? 0,
    left: lefts[0] ?? Number.NaN,
    right: Math.max(...row.map((line) => line.right)),
    cellLeft: lefts.at(-1) ?? Number.NaN,
    cellStarts: lefts,
    cellGaps: lefts.slice(1).map((left, c) => left - (rights[c] ?? left)),
    style: styles.size === 1 ? (first?.style ?? null) : null,
  };
}

/**
 * The page's lines with every table row whose cells wrap made one line. Such a row counts only
 * beside other table rows (a line of cells right above it, or another such row right below it):
 * two short stacks of prose side by side are no table.
 */
export function joinWrappedRows(lines: readonly Line[]): Line[] {
  const rows: { start: number; length: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const length = rowLength(lines, i);
    if (length > 0) {
      rows.push({ start: i, length });
      i += length - 1;
    }
  }
  const adjacent = (k: number, l: number): boolean => {
    const [one, two] = [rows[k], rows[l]];
    return one !== undefined && two !== undefined && one.start + one.length === two.start;
  };
  const accepted = new Map(
    rows
      .filter(({ start }, k) => {
        const above = lines[start - 1];
        const first = lines[start];
        const cellsAbove = above !== undefined && first !== undefined && above.text.includes('\t') && above.bottom - first.y <= 2 * above.height;
        return cellsAbove || adjacent(k - 1, k) || adjacent(k, k + 1);
      })
      .map(({ start, length }) => [start, length]),
  );
  const out: Line[] = [];
  for (let i = 0; i < lines.length; i++) {
    const length = accepted.get(i);
    const line = lines[i];
    if (length !== undefined) {
      out.push(mergeRow(lines.slice(i, i + length)));
      i += length - 1;
    } else if (line !== undefined) {
      out.push(line);
    }
  }
  return out;
}
