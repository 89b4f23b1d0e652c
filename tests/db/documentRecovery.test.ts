/**
 * Documents never hang (supabase/migrations/…_documents.sql): when a PROCESSING document
 * counts as stuck, who may claim it for another run, and the first step of a delete.
 */
import { describe, expect, it } from 'vitest';

import { PROCESSING_STUCK_AFTER_MS } from '../../src/lib/documentProcessing';
import { actors, attempt, insertDocument, run, useDatabase } from './fixtures';

const fixture = useDatabase();

interface State {
  status: string;
  error: string | null;
  content: string | null;
  processing_started_at: Date;
  deleting_since: Date | null;
  passages: number;
}

async function state(id: string): Promise<State | undefined> {
  const result = await fixture.db.query<State>(
    `select d.status, d.error, d.content, d.processing_started_at, d.deleting_since,
            (select count(*)::int from public.document_chunks c where c.document_id = d.id) as passages
       from public.documents d where d.id = $1`,
    [id],
  );
  return result.rows[0];
}

/** A document that has been PROCESSING since `minutesAgo` minutes (as the owner, like a seed). */
async function processingSince(title: string, minutesAgo: number): Promise<string> {
  const id = await insertDocument(fixture.db, { title });
  await fixture.db.query(`update public.documents set processing_started_at = now() - make_interval(mins => $2) where id = $1`, [id, minutesAgo]);
  return id;
}

async function completed(title: string): Promise<string> {
  const id = await insertDocument(fixture.db, { title });
  await run(fixture.db, actors.admin, 'select public.ingest_document_text($1, $2)', [id, 'Ein Absatz über Ruhe und Atmung im Alltag.']);
  return id;
}

const reprocess = 'select (public.begin_document_reprocessing($1)).status as value';

describe('stuck threshold', () => {
  it('is the same in the database and in the admin list', async () => {
    const result = await fixture.db.query<{ ms: number }>(`select (extract(epoch from private.document_stuck_after()) * 1000)::int as ms`);
    expect(result.rows[0]?.ms).toBe(PROCESSING_STUCK_AFTER_MS);
  });

  it('restarts whenever a document goes back to PROCESSING, whoever writes the row', async () => {
    const id = await insertDocument(fixture.db, { title: 'zurueck.pdf', status: 'ERROR' });
    await fixture.db.query(`update public.documents set processing_started_at = now() - interval '1 hour' where id = $1`, [id]);
    await run(fixture.db, actors.admin, `update public.documents set status = 'PROCESSING', error = null where id = $1`, [id]);
    const after = await state(id);
    expect(Date.now() - (after?.processing_started_at.getTime() ?? 0)).toBeLessThan(60_000);
  });
});

describe('begin_document_reprocessing', () => {
  it('claims a document PROCESSING for longer than the threshold: PROCESSING again, clock restarted', async () => {
    const id = await processingSince('haengt.pdf', 6);
    const [row] = await run<{ value: string }>(fixture.db, actors.admin, reprocess, [id]);
    expect(row?.value).toBe('PROCESSING');
    const after = await state(id);
    expect(Date.now() - (after?.processing_started_at.getTime() ?? 0)).toBeLessThan(60_000);
  });

  it('refuses a document still within the threshold (409): someone is processing it', async () => {
    const id = await processingSince('laeuft.pdf', 4);
    expect(await attempt(fixture.db, actors.admin, reprocess, [id])).toMatchObject({ ok: false, code: 'PT409' });
  });

  it('claims an ERROR document and clears its reason', async () => {
    const id = await insertDocument(fixture.db, { title: 'fehler.pdf', status: 'ERROR' });
    await run(fixture.db, actors.admin, reprocess, [id]);
    expect(await state(id)).toMatchObject({ status: 'PROCESSING', error: null, content: null, passages: 0 });
  });

  it('refuses a COMPLETED document (409) and leaves its passages alone', async () => {
    const id = await completed('fertig.pdf');
    expect(await attempt(fixture.db, actors.admin, reprocess, [id])).toMatchObject({ ok: false, code: 'PT409' });
    expect(await state(id)).toMatchObject({ status: 'COMPLETED', passages: 1 });
  });

  it('answers 404 for an unknown document and 410 for one being deleted', async () => {
    expect(await attempt(fixture.db, actors.admin, reprocess, ['00000000-0000-4000-8000-000000000000'])).toMatchObject({ ok: false, code: 'PT404' });
    const id = await processingSince('weg.pdf', 10);
    await run(fixture.db, actors.admin, 'select public.begin_document_delete($1)', [id]);
    expect(await attempt(fixture.db, actors.admin, reprocess, [id])).toMatchObject({ ok: false, code: 'PT410' });
  });

  it('is for admins only', async () => {
    const id = await processingSince('fremd.pdf', 10);
    for (const actor of [actors.anon, actors.member]) {
      expect(await attempt(fixture.db, actor, reprocess, [id])).toMatchObject({ ok: false, code: '42501' });
    }
    expect(await state(id)).toMatchObject({ status: 'PROCESSING' });
  });
});

describe('begin_document_delete', () => {
  it('marks the row and drops its passages; the row stays until it is deleted', async () => {
    const id = await completed('loeschen.pdf');
    await run(fixture.db, actors.admin, 'select public.begin_document_delete($1)', [id]);
    const after = await state(id);
    expect(after).toMatchObject({ status: 'COMPLETED', passages: 0 });
    expect(after?.deleting_since).toBeInstanceOf(Date);
  });

  it('keeps the first mark when a failed delete is tried again', async () => {
    const id = await completed('nochmal.pdf');
    await run(fixture.db, actors.admin, 'select public.begin_document_delete($1)', [id]);
    const first = (await state(id))?.deleting_since?.getTime();
    await run(fixture.db, actors.admin, 'select public.begin_document_delete($1)', [id]);
    expect((await state(id))?.deleting_since?.getTime()).toBe(first);
  });

  it('is for admins only, and 404 for an unknown document', async () => {
    const id = await completed('geschuetzt.pdf');
    for (const actor of [actors.anon, actors.member]) {
      expect(await attempt(fixture.db, actor, 'select public.begin_document_delete($1)', [id])).toMatchObject({ ok: false, code: '42501' });
    }
    expect(await state(id)).toMatchObject({ deleting_since: null, passages: 1 });
    expect(
      await attempt(fixture.db, actors.admin, 'select public.begin_document_delete($1)', ['00000000-0000-4000-8000-000000000000']),
    ).toMatchObject({ ok: false, code: 'PT404' });
  });
});

describe('ingest_document_text while a delete is under way', () => {
  it('gives a document being deleted no passages back (410)', async () => {
    const id = await processingSince('spaet.pdf', 0);
    await run(fixture.db, actors.admin, 'select public.begin_document_delete($1)', [id]);
    const outcome = await attempt(fixture.db, actors.admin, 'select public.ingest_document_text($1, $2)', [id, 'Ein Absatz über Ruhe.']);
    expect(outcome).toMatchObject({ ok: false, code: 'PT410' });
    expect(await state(id)).toMatchObject({ status: 'PROCESSING', passages: 0 });
  });
});

describe('refresh_document_text', () => {
  const refresh = 'select public.refresh_document_text($1, $2) as value';
  const passages = async (id: string) =>
    (
      await fixture.db.query<{ heading: string; content: string; embedded: boolean }>(
        `select heading, content, embedding is not null as embedded from public.document_chunks where document_id = $1 order by ordinal`,
        [id],
      )
    ).rows;
  const vector = `[${Array.from({ length: 1536 }, (_, index) => (index === 0 ? '1' : '0')).join(',')}]`;

  it('replaces a COMPLETED document’s passages and text in one step and stays COMPLETED', async () => {
    const id = await completed('neu-gelesen.pdf');
    const text = 'Pausen\n\nEine kurze Pause nach jeder Stunde hilft.\n\nSchlaf\n\nWer abends abschaltet, schläft besser.';
    const [row] = await run<{ value: number }>(fixture.db, actors.admin, refresh, [id, text]);
    expect(row?.value).toBe(2);
    expect(await state(id)).toMatchObject({ status: 'COMPLETED', error: null, content: text, passages: 2 });
    expect((await passages(id)).map((passage) => passage.heading)).toEqual(['Pausen', 'Schlaf']);
  });

  it('keeps the embedding of a passage whose text is unchanged, and only that one', async () => {
    const id = await completed('eingebettet.pdf');
    await fixture.db.query(`update public.document_chunks set embedding = $2::extensions.vector where document_id = $1`, [id, vector]);
    await run(fixture.db, actors.admin, refresh, [id, 'Ein Absatz über Ruhe und Atmung im Alltag.\n\nSchlaf\n\nEin neuer Absatz über Schlaf.']);
    expect((await passages(id)).map((passage) => passage.embedded)).toEqual([true, false]);
  });

  it('refuses a text with nothing readable (422) and keeps the passages', async () => {
    const id = await completed('leer-gelesen.pdf');
    expect(await attempt(fixture.db, actors.admin, refresh, [id, ' \n— \n'])).toMatchObject({ ok: false, code: 'PT422' });
    expect(await state(id)).toMatchObject({ status: 'COMPLETED', content: 'Ein Absatz über Ruhe und Atmung im Alltag.', passages: 1 });
  });

  it('refuses a document that is not COMPLETED (409): ERROR and stuck ones are claimed instead', async () => {
    const failed = await insertDocument(fixture.db, { title: 'kaputt.pdf', status: 'ERROR' });
    const processing = await processingSince('noch-dran.pdf', 1);
    for (const id of [failed, processing]) {
      expect(await attempt(fixture.db, actors.admin, refresh, [id, 'Ein Absatz.'])).toMatchObject({ ok: false, code: 'PT409' });
      expect(await state(id)).toMatchObject({ passages: 0 });
    }
  });

  it('answers 404 for an unknown document and 410 for one being deleted', async () => {
    expect(await attempt(fixture.db, actors.admin, refresh, ['00000000-0000-4000-8000-000000000000', 'Ein Absatz.'])).toMatchObject({
      ok: false,
      code: 'PT404',
    });
    const id = await completed('geht-gerade.pdf');
    await run(fixture.db, actors.admin, 'select public.begin_document_delete($1)', [id]);
    expect(await attempt(fixture.db, actors.admin, refresh, [id, 'Ein Absatz.'])).toMatchObject({ ok: false, code: 'PT410' });
    expect(await state(id)).toMatchObject({ passages: 0 });
  });

  it('is for admins only', async () => {
    const id = await completed('nur-admins.pdf');
    for (const actor of [actors.anon, actors.member]) {
      expect(await attempt(fixture.db, actor, refresh, [id, 'Ein fremder Absatz.'])).toMatchObject({ ok: false, code: '42501' });
    }
    expect(await state(id)).toMatchObject({ content: 'Ein Absatz über Ruhe und Atmung im Alltag.', passages: 1 });
  });
});
