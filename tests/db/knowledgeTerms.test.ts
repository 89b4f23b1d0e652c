/**
 * What the search weighs words by (…_documents.sql): private.knowledge_terms (how many
 * passages hold each lexeme) and private.knowledge_stats (how many passages there are, and their
 * lexemes), kept by triggers as passages are written, rewritten and deleted.
 */
import { describe, expect, it } from 'vitest';

import { actors, insertDocument, run, useDatabase } from './fixtures';

const fixture = useDatabase();

/** How many passages hold the word, by its lexeme; null when none (the lexeme is gone). */
async function passagesWith(word: string): Promise<number | null> {
  const result = await fixture.db.query<{ passages: number }>(
    'select k.passages from private.knowledge_terms k where k.lexeme = (select v.lexeme from unnest(private.german_lexemes($1)) v)',
    [word],
  );
  return result.rows[0]?.passages ?? null;
}

async function stats(): Promise<{ passages: number; lexemes: number; counted: number; lengths: number }> {
  const result = await fixture.db.query<{ passages: number; lexemes: number; counted: number; lengths: number }>(
    `select s.passages::int, s.lexemes::int,
            (select count(*)::int from public.document_chunks) as counted,
            (select coalesce(sum(length(c.fts)), 0)::int from public.document_chunks c) as lengths
       from private.knowledge_stats s`,
  );
  const row = result.rows[0];
  if (row === undefined) throw new Error('knowledge_stats has no row');
  return row;
}

async function ingest(title: string, text: string): Promise<string> {
  const id = await insertDocument(fixture.db, { title });
  await run(fixture.db, actors.admin, 'select public.ingest_document_text($1, $2)', [id, text]);
  return id;
}

describe('knowledge terms and statistics', () => {
  it('counts the passages holding each lexeme as documents are processed', async () => {
    await ingest('a.pdf', 'Zitronenmelisse beruhigt.\n\nZweiter Absatz.\n\nZitronenmelisse im Tee.');
    await ingest('b.pdf', 'Zitronenmelisse wächst im Garten.');
    // One passage per short document: the word is in two of them.
    expect(await passagesWith('Zitronenmelisse')).toBe(2);
    const { passages, counted, lexemes, lengths } = await stats();
    expect(passages).toBe(counted);
    expect(lexemes).toBe(lengths);
  });

  it('forgets the passages of a document processed again or deleted', async () => {
    const id = await ingest('c.pdf', 'Lavendelkissen helfen beim Einschlafen.');
    expect(await passagesWith('Lavendelkissen')).toBe(1);
    await run(fixture.db, actors.admin, 'select public.ingest_document_text($1, $2)', [id, 'Baldrian hilft beim Einschlafen.']);
    expect(await passagesWith('Lavendelkissen')).toBeNull();
    expect(await passagesWith('Baldrian')).toBe(1);
    await run(fixture.db, actors.admin, 'delete from public.documents where id = $1', [id]);
    expect(await passagesWith('Baldrian')).toBeNull();
    const { passages, counted, lexemes, lengths } = await stats();
    expect(passages).toBe(counted);
    expect(lexemes).toBe(lengths);
  });

  it('counts a changed passage anew, and nothing for an update that leaves its words (an embedding)', async () => {
    const id = await ingest('d.pdf', 'Kamillentee vor dem Schlafen.');
    await fixture.db.query(`update public.document_chunks set content = 'Pfefferminztee am Morgen.' where document_id = $1`, [id]);
    expect(await passagesWith('Kamillentee')).toBeNull();
    expect(await passagesWith('Pfefferminztee')).toBe(1);
    const before = await stats();
    await fixture.db.query('update public.document_chunks set created_at = created_at where document_id = $1', [id]);
    expect(await stats()).toEqual(before);
    expect(await passagesWith('Pfefferminztee')).toBe(1);
  });

  it('is not readable for visitors (signed-in callers read it only through the search functions: the API does not expose private)', async () => {
    for (const table of ['private.knowledge_terms', 'private.knowledge_stats']) {
      await expect(run(fixture.db, actors.anon, `select count(*) from ${table}`)).rejects.toThrow(/permission denied/);
    }
  });
});
