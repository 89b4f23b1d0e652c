import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { actors, attempt, createAccounts, freshDatabase, insertDocument, run } from './fixtures';

interface Passage {
  ordinal: number;
  content: string;
}

let db: PGlite;

beforeAll(async () => {
  db = await freshDatabase();
  await createAccounts(db);
});

afterAll(async () => {
  await db.close();
});

async function split(text: string | null): Promise<Passage[]> {
  const result = await db.query<Passage>('select ordinal, content from private.split_text_into_passages($1)', [text]);
  return result.rows;
}

function words(text: string): string[] {
  return text.split(/\s+/).filter((word) => word !== '');
}

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

function paragraph(seed: number, sentences: number): string {
  return Array.from({ length: sentences }, (_, i) => sentence(seed * 100 + i)).join(' ');
}

function expectConsecutiveOrdinals(passages: Passage[]): void {
  expect(passages.map((passage) => passage.ordinal)).toEqual(passages.map((_, i) => i + 1));
}

describe('splitting text into passages', () => {
  it('keeps a short text as one passage', async () => {
    expect(await split('Ein kurzer Text.\n\nZweiter Absatz.')).toEqual([
      { ordinal: 1, content: 'Ein kurzer Text.\n\nZweiter Absatz.' },
    ]);
  });

  it('starts passages at paragraph boundaries and keeps them between 500 and 1,200 characters', async () => {
    const paragraphs = Array.from({ length: 8 }, (_, i) => paragraph(i + 1, 3));
    const passages = await split(paragraphs.join('\n\n'));

    expectConsecutiveOrdinals(passages);
    expect(passages.length).toBeGreaterThan(1);
    for (const passage of passages) {
      expect(passage.content.length).toBeGreaterThanOrEqual(500);
      expect(passage.content.length).toBeLessThanOrEqual(1200);
      // Each passage is made of whole paragraphs here (they are short enough to keep together).
      for (const part of passage.content.split('\n\n')) expect(paragraphs).toContain(part);
    }
    expect(passages.map((passage) => passage.content).join('\n\n')).toBe(paragraphs.join('\n\n'));
  });

  it('splits a very long paragraph on sentence boundaries', async () => {
    const long = paragraph(7, 30);
    expect(long.length).toBeGreaterThan(3000);
    const passages = await split(long);

    expect(passages.length).toBeGreaterThanOrEqual(3);
    for (const passage of passages) {
      expect(passage.content.length).toBeLessThanOrEqual(1200);
      expect(passage.content).toMatch(/^Satz\d+ /);
      expect(passage.content).toMatch(/\.$/);
    }
    expect(passages.flatMap((passage) => words(passage.content))).toEqual(words(long));
  });

  it('splits a single sentence longer than the maximum between words', async () => {
    const endless = Array.from({ length: 400 }, (_, i) => `Wort${i}`).join(' ');
    expect(endless.length).toBeGreaterThan(2400);
    const passages = await split(endless);

    expect(passages.length).toBeGreaterThanOrEqual(3);
    for (const passage of passages) {
      expect(passage.content.length).toBeLessThanOrEqual(1200);
      expect(passage.content).toMatch(/^Wort\d+( Wort\d+)*$/);
    }
    expect(passages.flatMap((passage) => words(passage.content))).toEqual(words(endless));
  });

  it('cuts only a single word that is itself longer than the maximum', async () => {
    const url = `https://example.com/${'a'.repeat(1500)}`;
    const passages = await split(`Siehe ${url} für Details.`);
    for (const passage of passages) expect(passage.content.length).toBeLessThanOrEqual(1200);
    expect(passages.map((passage) => passage.content).join('')).toContain('a'.repeat(1000));
  });

  it('never cuts inside a word on realistic text', async () => {
    const text = Array.from({ length: 12 }, (_, i) => paragraph(i + 3, 2 + (i % 5))).join('\n\n');
    const passages = await split(text);
    expect(passages.flatMap((passage) => words(passage.content))).toEqual(words(text));
    for (const passage of passages) expect(passage.content).toBe(passage.content.trim());
  });

  it('joins PDF line breaks inside a paragraph and treats page breaks as paragraph breaks', async () => {
    const passages = await split('Erste Zeile\r\nläuft weiter.\fNeue Seite.\r\n\r\n\r\nNeuer   Absatz.');
    expect(passages).toEqual([{ ordinal: 1, content: 'Erste Zeile läuft weiter.\n\nNeue Seite.\n\nNeuer Absatz.' }]);
  });

  it('merges a short tail into the previous passage when it fits', async () => {
    const body = [paragraph(1, 5), 'Kurzer Schluss.'].join('\n\n');
    const passages = await split(body);
    expect(passages.at(-1)?.content.endsWith('Kurzer Schluss.')).toBe(true);
    expect(passages.every((passage) => passage.content !== 'Kurzer Schluss.')).toBe(true);
  });

  it.each([[''], ['   \n\n  '], [null]])('returns no passages for %j', async (text) => {
    expect(await split(text)).toEqual([]);
  });
});

describe('ingest_document_text', () => {
  async function documentState(id: string) {
    const [row] = (
      await db.query<{ status: string; error: string | null; content: string | null; passages: number }>(
        `select d.status, d.error, d.content,
                (select count(*)::int from public.document_chunks c where c.document_id = d.id) as passages
           from public.documents d where d.id = $1`,
        [id],
      )
    ).rows;
    return row;
  }

  it('stores the text, writes ordered passages and marks the document COMPLETED', async () => {
    const id = await insertDocument(db, { title: 'ratgeber.pdf' });
    const text = Array.from({ length: 6 }, (_, i) => paragraph(i + 1, 4)).join('\n\n');
    const [result] = await run<{ passages: number }>(db, actors.admin, 'select public.ingest_document_text($1, $2) as passages', [
      id,
      text,
    ]);

    const state = await documentState(id);
    expect(state).toMatchObject({ status: 'COMPLETED', error: null, content: text });
    expect(state?.passages).toBe(result?.passages);
    const ordinals = await db.query<{ ordinal: number }>(
      'select ordinal from public.document_chunks where document_id = $1 order by ordinal',
      [id],
    );
    expect(ordinals.rows.map((row) => row.ordinal)).toEqual(ordinals.rows.map((_, i) => i + 1));
  });

  it('replaces earlier passages when the text is processed again', async () => {
    const id = await insertDocument(db, { title: 'zweimal.pdf' });
    await run(db, actors.admin, 'select public.ingest_document_text($1, $2)', [id, paragraph(1, 40)]);
    const before = await documentState(id);
    await run(db, actors.admin, 'select public.ingest_document_text($1, $2)', [id, 'Nur noch ein Satz.']);
    const after = await documentState(id);

    expect(before?.passages).toBeGreaterThan(1);
    expect(after).toMatchObject({ status: 'COMPLETED', passages: 1, content: 'Nur noch ein Satz.' });
  });

  it.each([[''], ['  \n\t  '], ['.... ,,, ---']])('marks ERROR with a reason when the text is %j', async (text) => {
    const id = await insertDocument(db, { title: 'leer.pdf' });
    await run(db, actors.admin, 'select public.ingest_document_text($1, $2)', [id, 'Alter Inhalt.']);
    const [result] = await run<{ passages: number }>(
      db,
      actors.admin,
      'select public.ingest_document_text($1, $2) as passages',
      [id, text],
    );

    expect(result?.passages).toBe(0);
    const state = await documentState(id);
    expect(state).toMatchObject({ status: 'ERROR', content: null, passages: 0 });
    expect(state?.error).toMatch(/keinen lesbaren Text/);
  });

  it('reports an unknown document as not found (PT404: HTTP 404 through PostgREST, not a server error)', async () => {
    const outcome = await attempt(db, actors.admin, 'select public.ingest_document_text($1, $2)', [
      '00000000-0000-4000-8000-000000000000',
      'Text.',
    ]);
    expect(outcome).toMatchObject({ ok: false, code: 'PT404' });
  });

  it('refuses signed-in non-admins', async () => {
    const id = await insertDocument(db, { title: 'fremd.pdf' });
    const outcome = await attempt(db, actors.member, 'select public.ingest_document_text($1, $2)', [id, 'Text.']);
    expect(outcome).toMatchObject({ ok: false, code: '42501' });
    expect(await documentState(id)).toMatchObject({ status: 'PROCESSING', passages: 0 });
  });
});
