/**
 * A passage as the offline coach reads it: its units (a paragraph of prose, a list entry, a table
 * row with its cells, one per line as the database stores them), and where the words the search
 * counted as the question's terms stand in them.
 *
 * The database stems (private.german_lexemes(): German spelling normalised, then Snowball's German
 * stemmer); its lexemes are the beginnings of the words as `foldGerman` writes them, which is how
 * a unit is checked for a word here without a second stemmer. The spelling rule is the database's
 * private.german_spelling(); tests/db/germanText.test.ts keeps the two equal.
 */
import { entryMarkerSource, entryStart } from '../_shared/listEntry.ts';

export type UnitKind = 'prose' | 'entry' | 'row';

export interface Unit {
  kind: UnitKind;
  /** The line as stored: cells of a row separated by tabs. */
  text: string;
  /** A row's cells, an entry's term and description (split at a tab); one cell otherwise. */
  cells: string[];
  /** The line that introduced the list this entry belongs to ("Sonderurlaub gibt es für:"). */
  leadIn: string | null;
  /** The column names of the table this row belongs to, when its first row has them. */
  header: string[] | null;
}

/** A list marker in front of an entry's text. */
const MARKER = new RegExp(`^(?:${entryMarkerSource})\\s+`, 'u');

/**
 * A table's first row names its columns when its cells are short names: no numbers, no sentence
 * end, no list marker (an option list's first entry is no header). The database's
 * private.document_passages() reads a table's head by the same rule.
 */
export const namesColumns = (cells: readonly string[]): boolean =>
  cells.length >= 2 &&
  !entryStart.test(cells[0] ?? '') &&
  cells.every((cell) => cell.length > 0 && cell.length <= 30 && !/\p{N}/u.test(cell) && !/[.!?:]$/u.test(cell));

/** The passage's lines as units, each entry with its lead-in and each row with its table's header. */
export function passageUnits(content: string): Unit[] {
  const lines = content
    .split('\n')
    .map((line) => line.replace(/[^\S\t]+/gu, ' ').trim())
    .filter((line) => /[\p{L}\p{N}]/u.test(line));
  const units: Unit[] = [];
  let leadIn: string | null = null;
  let header: string[] | null = null;
  /** The line that last made or went on a prose unit. */
  let proseLine = -1;
  lines.forEach((line, index) => {
    const cells = line.split('\t').map((cell) => cell.trim()).filter((cell) => cell !== '');
    if (line.includes('\t')) {
      const before = lines[index - 1] ?? '';
      const after = lines[index + 1] ?? '';
      // The first row of a run of rows, naming its columns, heads the rows after it.
      if (!before.includes('\t') && after.includes('\t') && namesColumns(cells)) {
        header = cells;
        return;
      }
      units.push({ kind: entryStart.test(line) ? 'entry' : 'row', text: line, cells, leadIn, header });
      return;
    }
    header = null;
    if (entryStart.test(line)) {
      units.push({ kind: 'entry', text: line, cells: [line.replace(MARKER, '')], leadIn, header: null });
      return;
    }
    const next = lines[index + 1] ?? '';
    // A line ending in a colon, followed by entries or rows, introduces them: its last sentence
    // is what they belong to ("… Die Bedienung:").
    if (/:$/u.test(line) && (entryStart.test(next) || next.includes('\t'))) {
      const sentences = line.split(/(?<=[.!?])\s+/u);
      const last = sentences.at(-1) ?? line;
      if (sentences.length > 1) units.push({ kind: 'prose', text: sentences.slice(0, -1).join(' '), cells: [line], leadIn: null, header: null });
      leadIn = last;
      return;
    }
    leadIn = null;
    const previous = units.at(-1);
    // A sentence the PDF's lines broke in two (the reader took a full line for a short one): the
    // line before is prose, long and ends without a sentence's end, so this line goes on with it,
    // and no quote starts inside the sentence ("… und einer" + "Entkalkertablette. Das …").
    if (previous?.kind === 'prose' && proseLine === index - 1 && brokenOff(lines[index - 1] ?? '')) {
      previous.text = `${previous.text} ${line}`;
      previous.cells = [previous.text];
      proseLine = index;
      return;
    }
    units.push({ kind: 'prose', text: line, cells: [line], leadIn: null, header: null });
    proseLine = index;
  });
  return units;
}

/** A line at least this long is a wrapped line of running text, not a label or a heading. */
const WRAPPED_LINE_CHARS = 40;

/** Whether a prose line stops inside a sentence: long, and no sentence's end (nor a colon) at its end. */
function brokenOff(text: string): boolean {
  return text.length >= WRAPPED_LINE_CHARS && !/[.!?:;…]["'“”„»«)\]]*$/u.test(text);
}

/**
 * Text as the database reads German before stemming (lower case; "ae", "oe", "ue" as umlauts,
 * except "ue" after "q" and a u or y between vowels), with umlauts and ß folded as Snowball's
 * German stemmer folds them.
 */
export function foldGerman(text: string): string {
  return text
    .toLowerCase()
    .replace(/([aeiouyäöü])([uy])(?=[aeiouyäöü])/gu, '$1$2\uE000')
    .replace(/(?<!q)ue/gu, 'ü')
    .replace(/ae/gu, 'ä')
    .replace(/oe/gu, 'ö')
    .replace(/\uE000/gu, '')
    .replace(/ä/gu, 'a')
    .replace(/ö/gu, 'o')
    .replace(/ü/gu, 'u')
    .replace(/ß/gu, 'ss');
}

/** The folded words of a text, hyphenated words also as their parts ("4-7-8-atmung", "4", "atmung"). */
export function foldedWords(text: string): string[] {
  const words: string[] = [];
  for (const word of foldGerman(text).match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu) ?? []) {
    words.push(word);
    if (word.includes('-')) words.push(...word.split('-'));
  }
  return words;
}

/**
 * Whether the words hold a lexeme: one of them begins with it (lexemes of three letters or more:
 * "hochzeit" in "hochzeiten", "arbeitstag" in "arbeitstage") or is it (shorter ones, numbers).
 */
export function holdsLexeme(words: readonly string[], lexeme: string): boolean {
  // The parser reads "4-7-8" as 4, -7, -8: a part of a hyphenated word.
  const bare = lexeme.replace(/^-/u, '');
  if (bare === '') return false;
  if (bare.length < 3 || /^\p{N}+$/u.test(bare)) return words.includes(bare);
  return words.some((word) => word.startsWith(bare));
}
