/**
 * A document's text as passages along its structure (…_documents.sql): the small
 * functions that read a line (heading, list entry, numbering, a unit too long for a passage),
 * private.document_passages() and ingest_document_text().
 */
import { join } from 'node:path';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';

import { entryStart } from '../../supabase/functions/_shared/listEntry';
import { extractTextWith } from '../../src/services/pdfTextExtraction';
import { renderGroffPdf } from '../fixtures/pdf/groff';
import { actors, attempt, insertDocument, run, useDatabase } from './fixtures';

const fixture = useDatabase();

interface Passage {
  ordinal: number;
  heading: string;
  content: string;
}

async function split(text: string | null, maxChars?: number): Promise<Passage[]> {
  const sql =
    maxChars === undefined
      ? 'select ordinal, heading, content from private.document_passages($1)'
      : 'select ordinal, heading, content from private.document_passages($1, $2)';
  return (await fixture.db.query<Passage>(sql, maxChars === undefined ? [text] : [text, maxChars])).rows;
}

async function value<T>(sql: string, params: unknown[]): Promise<T> {
  const [row] = (await fixture.db.query<{ value: T }>(sql, params)).rows;
  if (row === undefined) throw new Error(`no row from ${sql}`);
  return row.value;
}

const words = (text: string): string[] => text.split(/\s+/).filter((word) => word !== '');

/** A German-looking sentence of roughly `length` characters, ending with a full stop. */
function sentence(seed: number, length = 120): string {
  const vocabulary = ['Die', 'Übung', 'hilft', 'bei', 'Stress', 'und', 'stärkt', 'die', 'Ruhe', 'im', 'Alltag', 'spürbar'];
  const parts: string[] = [`Satz${seed}`];
  let i = seed;
  while (parts.join(' ').length < length - 1) {
    parts.push(vocabulary[i % vocabulary.length] ?? 'und');
    i += 1;
  }
  return `${parts.join(' ')}.`;
}

const paragraph = (seed: number, sentences: number): string =>
  Array.from({ length: sentences }, (_, i) => sentence(seed * 100 + i)).join(' ');

describe('reading a line', () => {
  it.each([
    ['• Eigene Hochzeit: 2 Arbeitstage', true],
    ['– Umzug: 1 Arbeitstag', true],
    ['1. Ziel einhängen.', true],
    ['b) Mit Nachweis', true],
    ['-r, --rekursiv\tSichert auch alle Unterordner.', true],
    ['--probelauf', true],
    ['Einzelsitzung (60 Minuten)\t95 €', true],
    ['Die Sitzung dauert 60 Minuten.', false],
    ['2.1 Beenden', false],
    ['E-Mail nach Feierabend', false],
  ])('private.is_entry_line(%j) is %s, as the extraction reads it', async (line, expected) => {
    expect(await value<boolean>('select private.is_entry_line($1) as value', [line])).toBe(expected);
    // The extraction starts a unit at the same lines (tab-separated rows aside: it makes those).
    if (!line.includes('\t')) expect(entryStart.test(line)).toBe(expected);
  });

  it.each([
    ['2 Optionen', false, true],
    ['2.1 Beenden', false, true],
    ['Einzelsitzungen und Kurse', false, true],
    ['Wie sage ich einen Termin ab?', true, true],
    ['Wie sage ich einen Termin ab?', false, false],
    ['Die Sitzung dauert 60 Minuten.', true, false],
    ['Sonderurlaub gibt es für:', true, false],
    ['• Umzug', true, false],
    ['Angebot\tPreis', true, false],
    ['2. Optionen', true, true],
    ['2. Optionen', false, false],
    ['12345', true, false],
  ])('private.is_heading_line(%j, alone %s) is %s', async (line, alone, expected) => {
    expect(await value<boolean>('select private.is_heading_line($1, $2) as value', [line, alone])).toBe(expected);
  });

  it.each([
    ['2 Optionen', 1],
    ['2. Optionen', 1],
    ['2.1 Beenden', 2],
    ['4.2.3 Tiefer', 3],
    ['Optionen', 0],
    ['2025 war ein gutes Jahr', 0],
  ])('private.heading_level(%j) is %i', async (line, level) => {
    expect(await value<number>('select private.heading_level($1) as value', [line])).toBe(level);
  });

  it('cuts a unit longer than a passage at sentence ends, a sentence at spaces, a word only when it must', async () => {
    const pieces = async (unit: string) =>
      (await fixture.db.query<{ piece: string }>('select p as piece from private.split_long_unit($1, 120) p', [unit])).rows.map(
        (row) => row.piece,
      );
    const prose = [sentence(1, 80), sentence(2, 80), sentence(3, 80)].join(' ');
    const cut = await pieces(prose);
    expect(cut.length).toBeGreaterThan(1);
    for (const piece of cut) {
      expect(piece.length).toBeLessThanOrEqual(120);
      expect(piece).toMatch(/^Satz\d+ .*\.$/u);
    }
    expect(words(cut.join(' '))).toEqual(words(prose));

    const endless = Array.from({ length: 60 }, (_, i) => `Wort${i}`).join(' ');
    expect(words((await pieces(endless)).join(' '))).toEqual(words(endless));

    // A sentence that does not fit beside the piece starts the next piece: no piece starts inside a
    // sentence ("eine Entkalkertablette in den Wassertank." after a cut between words).
    const descaling = [
      sentence(4, 50),
      'Wenn die Anzeige leuchtet, geben Sie nach dem Spülen der Schale eine Entkalkertablette in den Wassertank.',
      'Das Programm dauert 25 Minuten.',
    ];
    expect(await pieces(descaling.join(' '))).toEqual(descaling);
    // An abbreviation, initials or an ordinal end no sentence: "z. B. eine …" stays one sentence.
    const abbreviated = [sentence(5, 40), 'Geben Sie z. B. am 3. Oktober ca. eine Tablette von Dr. K. Weber in den Tank, so dauert es kurz.'];
    expect(await pieces(abbreviated.join(' '))).toEqual(abbreviated);

    const url = `https://example.com/${'a'.repeat(300)}`;
    const withUrl = await pieces(url);
    expect(withUrl.every((piece) => piece.length <= 120)).toBe(true);
    expect(withUrl.join('')).toBe(url);
  });
});

describe('private.document_passages', () => {
  it('keeps a short text as one passage without a heading', async () => {
    expect(await split('Ein kurzer Text.\nZweite Zeile.')).toEqual([{ ordinal: 1, heading: '', content: 'Ein kurzer Text.\nZweite Zeile.' }]);
  });

  it('puts every passage under its heading, a numbered sub-heading after its section', async () => {
    const text = [
      'sichern 4.1 – Befehlsreferenz\nStand: Januar 2026',
      'Das Werkzeug sichert Dateien auf ein Ziel.',
      '1 Aufruf',
      'Ohne Optionen sichert es nur den angegebenen Ordner.',
      '2 Optionen',
      '2.1 Beenden',
      'Eine laufende Sicherung beenden Sie mit Strg+C.',
      'Wie lange dauert eine Sicherung?',
      'Etwa zehn Minuten pro Gigabyte.',
      '3 Rückgabewerte',
      'Code 0 heißt: alles gesichert.',
    ].join('\n\n');
    expect((await split(text)).map(({ heading, content }) => [heading, content])).toEqual([
      ['sichern 4.1 – Befehlsreferenz – Stand: Januar 2026', 'Das Werkzeug sichert Dateien auf ein Ziel.'],
      ['1 Aufruf', 'Ohne Optionen sichert es nur den angegebenen Ordner.'],
      ['2 Optionen › 2.1 Beenden', 'Eine laufende Sicherung beenden Sie mit Strg+C.'],
      // An FAQ question inside a numbered chapter is a heading below the chapter's.
      ['2 Optionen › Wie lange dauert eine Sicherung?', 'Etwa zehn Minuten pro Gigabyte.'],
      ['3 Rückgabewerte', 'Code 0 heißt: alles gesichert.'],
    ]);
  });

  it('reads the first line of a block of entries as their heading', async () => {
    const passages = await split('4 Vorgehen\n1. Ziel einhängen.\n2. Sicherung starten.\n3. Protokoll prüfen.');
    expect(passages).toEqual([{ ordinal: 1, heading: '4 Vorgehen', content: '1. Ziel einhängen.\n2. Sicherung starten.\n3. Protokoll prüfen.' }]);
  });

  it('keeps list entries whole and starts a list that goes on with the line that introduced it', async () => {
    const entries = Array.from({ length: 12 }, (_, i) => `• Anlass ${String(i + 1)}: ${'ein freier Arbeitstag mit Nachweis '.repeat(2).trim()}`);
    const text = `Sonderurlaub\n\nSonderurlaub gibt es für:\n${entries.join('\n')}`;
    const passages = await split(text, 300);
    expect(passages.length).toBeGreaterThan(2);
    for (const passage of passages) {
      expect(passage.heading).toBe('Sonderurlaub');
      expect(passage.content.length).toBeLessThanOrEqual(300);
      const lines = passage.content.split('\n');
      expect(lines[0]).toBe('Sonderurlaub gibt es für:');
      for (const line of lines.slice(1)) expect(entries).toContain(line);
    }
    expect(passages.flatMap((passage) => passage.content.split('\n').slice(1))).toEqual(entries);
  });

  it('keeps table rows whole and repeats the column names where the table goes on', async () => {
    const rows = Array.from({ length: 15 }, (_, i) => `Kurs ${String(i + 1)} mit langem Namen\t${String(i + 2)} Abende\t${String(100 + i)} €`);
    const passages = await split(`Preise\n\nKurs\tUmfang\tPreis\n${rows.join('\n')}\nAlle Preise inklusive Unterlagen.`, 250);
    expect(passages.length).toBeGreaterThan(2);
    for (const passage of passages.filter((candidate) => candidate.content.includes('€'))) {
      expect(passage.heading).toBe('Preise');
      expect(passage.content.startsWith('Kurs\tUmfang\tPreis\n')).toBe(true);
    }
    const lines = passages.flatMap((passage) => passage.content.split('\n')).filter((line) => line !== 'Kurs\tUmfang\tPreis');
    expect(lines).toEqual([...rows, 'Alle Preise inklusive Unterlagen.']);
  });

  it('repeats the column names where a table from a real PDF goes on after a page break', async () => {
    // A table running over a page break, typeset by groff and read by the app's extraction.
    const pdf = renderGroffPdf(join(import.meta.dirname, '../fixtures/pdf/groff'), 'waschprogramme-seitenwechsel', { tables: true });
    const { text } = await extractTextWith(pdfjs, pdf);
    const head = 'Programm\tTemperatur\tDauer\tSchleudern';
    const passages = await split(text);
    const withRows = passages.filter((passage) => passage.content.includes('U/min'));
    expect(withRows.length).toBeGreaterThan(1);
    for (const passage of withRows.slice(1)) expect(passage.content.startsWith(`${head}\n`)).toBe(true);
    // The rows of the second page ("Daunen" on) are in a passage after the first.
    expect(withRows.at(-1)?.content).toContain('Daunen\t40 °C\t1:40 Std.\t800 U/min');
  });

  it('repeats no first entry of an option list: it names no columns', async () => {
    const options = Array.from({ length: 10 }, (_, i) => `--option-${String(i)}\tSchaltet eine lange beschriebene Funktion ein.`);
    const passages = await split(`Optionen\n\n${options.join('\n')}`, 200);
    expect(passages.length).toBeGreaterThan(2);
    expect(passages.flatMap((passage) => passage.content.split('\n'))).toEqual(options);
  });

  it('fills passages with whole paragraphs up to the maximum and cuts a longer one at sentence ends', async () => {
    const paragraphs = Array.from({ length: 6 }, (_, i) => paragraph(i + 1, 2));
    const long = paragraph(9, 12);
    const passages = await split([...paragraphs, long].join('\n\n'));
    for (const passage of passages) {
      expect(passage.content.length).toBeLessThanOrEqual(700);
      for (const line of passage.content.split('\n')) expect(line).toMatch(/^Satz\d+ .*\.$/u);
    }
    expect(passages.flatMap((passage) => words(passage.content))).toEqual(words([...paragraphs, long].join(' ')));
    expect(passages.map((passage) => passage.ordinal)).toEqual(passages.map((_, i) => i + 1));
  });

  it('reads carriage returns and form feeds as line and page breaks, and collapses spaces', async () => {
    expect(await split('Erste Zeile.\r\nZweite   Zeile.\fNeue Seite.')).toEqual([
      { ordinal: 1, heading: '', content: 'Erste Zeile.\nZweite Zeile.\nNeue Seite.' },
    ]);
  });

  it.each([[''], ['   \n\n  '], [null], ['… – ….']])('returns no passages for %j', async (text) => {
    expect(await split(text)).toEqual([]);
  });
});

describe('ingest_document_text', () => {
  async function documentState(id: string) {
    const [row] = (
      await fixture.db.query<{ status: string; error: string | null; content: string | null; passages: number }>(
        `select d.status, d.error, d.content,
                (select count(*)::int from public.document_chunks c where c.document_id = d.id) as passages
           from public.documents d where d.id = $1`,
        [id],
      )
    ).rows;
    return row;
  }

  it('stores the text, writes ordered passages with their headings and marks the document COMPLETED', async () => {
    const id = await insertDocument(fixture.db, { title: 'ratgeber.pdf' });
    const text = ['Schlaf', paragraph(1, 3), 'Atmung', paragraph(2, 3), paragraph(3, 4)].join('\n\n');
    const [result] = await run<{ passages: number }>(fixture.db, actors.admin, 'select public.ingest_document_text($1, $2) as passages', [
      id,
      text,
    ]);

    const state = await documentState(id);
    expect(state).toMatchObject({ status: 'COMPLETED', error: null, content: text });
    expect(state?.passages).toBe(result?.passages);
    const passages = await fixture.db.query<{ ordinal: number; heading: string }>(
      'select ordinal, heading from public.document_chunks where document_id = $1 order by ordinal',
      [id],
    );
    expect(passages.rows.map((row) => row.ordinal)).toEqual(passages.rows.map((_, i) => i + 1));
    expect(passages.rows[0]?.heading).toBe('Schlaf');
    expect(passages.rows.slice(1).every((row) => row.heading === 'Atmung')).toBe(true);
  });

  it('replaces earlier passages when the text is processed again', async () => {
    const id = await insertDocument(fixture.db, { title: 'zweimal.pdf' });
    await run(fixture.db, actors.admin, 'select public.ingest_document_text($1, $2)', [id, paragraph(1, 40)]);
    const before = await documentState(id);
    await run(fixture.db, actors.admin, 'select public.ingest_document_text($1, $2)', [id, 'Nur noch ein Satz.']);
    const after = await documentState(id);

    expect(before?.passages).toBeGreaterThan(1);
    expect(after).toMatchObject({ status: 'COMPLETED', passages: 1, content: 'Nur noch ein Satz.' });
  });

  it.each([[''], ['  \n\t  '], ['.... ,,, ---']])('marks ERROR with a reason when the text is %j', async (text) => {
    const id = await insertDocument(fixture.db, { title: 'leer.pdf' });
    await run(fixture.db, actors.admin, 'select public.ingest_document_text($1, $2)', [id, 'Alter Inhalt.']);
    const [result] = await run<{ passages: number }>(fixture.db, actors.admin, 'select public.ingest_document_text($1, $2) as passages', [
      id,
      text,
    ]);

    expect(result?.passages).toBe(0);
    const state = await documentState(id);
    expect(state).toMatchObject({ status: 'ERROR', content: null, passages: 0 });
    expect(state?.error).toMatch(/keinen lesbaren Text/);
  });

  it('reports an unknown document as not found (PT404: HTTP 404 through PostgREST, not a server error)', async () => {
    const outcome = await attempt(fixture.db, actors.admin, 'select public.ingest_document_text($1, $2)', [
      '00000000-0000-4000-8000-000000000000',
      'Text.',
    ]);
    expect(outcome).toMatchObject({ ok: false, code: 'PT404' });
  });

  it('refuses signed-in non-admins', async () => {
    const id = await insertDocument(fixture.db, { title: 'fremd.pdf' });
    const outcome = await attempt(fixture.db, actors.member, 'select public.ingest_document_text($1, $2)', [id, 'Text.']);
    expect(outcome).toMatchObject({ ok: false, code: '42501' });
    expect(await documentState(id)).toMatchObject({ status: 'PROCESSING', passages: 0 });
  });
});
