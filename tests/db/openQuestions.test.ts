/**
 * Open questions on PGlite: recording and counting by lexemes, the switch, the per-client daily
 * limit, "jetzt beantwortet" when a processed document answers a question, "Alle löschen", and the
 * 30-day retention (the sweep with a moved clock, and the local stack's sweeps at start and hourly).
 * Who may do what is in rls.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { startRetentionSweeps, SWEEP_EVERY_MS } from '../../supabase/local/retention';
import { actors, attempt, insertDocument, run, useDatabase } from './fixtures';

const fixture = useDatabase();

interface Row {
  question: string;
  ask_count: number;
  first_asked_at: Date;
  last_asked_at: Date;
  answered_by: string | null;
  answered_title: string | null;
}

async function record(question: string, client = '192.0.2.1', perDay = 10): Promise<string> {
  const [row] = await run<{ outcome: string }>(fixture.db, actors.service, 'select public.record_open_question($1, $2, $3) as outcome', [
    question,
    client,
    perDay,
  ]);
  return row?.outcome ?? '';
}

async function rows(): Promise<Row[]> {
  return (
    await fixture.db.query<Row>(
      'select question, ask_count, first_asked_at, last_asked_at, answered_by, answered_title from public.open_questions order by first_asked_at, question',
    )
  ).rows;
}

async function processDocument(title: string, text: string): Promise<string> {
  const id = await insertDocument(fixture.db, { title });
  await run(fixture.db, actors.admin, 'select public.ingest_document_text($1, $2)', [id, text]);
  return id;
}

beforeEach(async () => {
  await fixture.db.exec(`
    delete from public.open_questions;
    delete from public.documents;
    delete from public.request_counts;
    update public.system_settings set record_open_questions = true;
  `);
});

describe('recording', () => {
  it('keeps a question once and counts it again when asked with the same lexemes', async () => {
    expect(await record('Was kostet ein Coaching?')).toBe('kept');
    const [first] = await rows();
    expect(first).toMatchObject({ question: 'Was kostet ein Coaching?', ask_count: 1 });

    // Other words around the same lexemes: the same question, counted, the first wording kept.
    expect(await record('Coaching – was kostet das')).toBe('kept');
    const kept = await rows();
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ question: 'Was kostet ein Coaching?', ask_count: 2 });
    expect(kept[0]?.last_asked_at.getTime()).toBeGreaterThanOrEqual(first?.last_asked_at.getTime() ?? Infinity);
    expect(kept[0]?.first_asked_at).toEqual(first?.first_asked_at);

    // Another lexeme is another question.
    expect(await record('Was kostet ein Gruppencoaching?')).toBe('kept');
    expect((await rows()).map((row) => row.ask_count)).toEqual([2, 1]);
  });

  it('keeps nothing for a message without a word that names a topic', async () => {
    expect(await record('Hallo, danke!')).toBe('no_topic');
    expect(await record('Wie geht es dir?')).toBe('no_topic');
    expect(await rows()).toEqual([]);
  });

  it('keeps nothing while the switch is off, and switching off deletes nothing kept', async () => {
    await record('Wie lange dauert die Probezeit?');
    await run(fixture.db, actors.admin, 'update public.system_settings set record_open_questions = false');
    expect(await record('Gibt es Rabatt für Studierende?')).toBe('off');
    expect(await record('Wie lange dauert die Probezeit?')).toBe('off');
    expect((await rows()).map((row) => [row.question, row.ask_count])).toEqual([['Wie lange dauert die Probezeit?', 1]]);
  });

  it('limits what one client adds per day, asked again or new, and not the others', async () => {
    expect(await record('Was kostet ein Coaching?', '198.51.100.7', 2)).toBe('kept');
    expect(await record('Was kostet ein Coaching?', '198.51.100.7', 2)).toBe('kept');
    expect(await record('Gibt es Rabatt für Studierende?', '198.51.100.7', 2)).toBe('limited');
    expect(await record('Gibt es Rabatt für Studierende?', '198.51.100.8', 2)).toBe('kept');
    expect((await rows()).map((row) => [row.question, row.ask_count])).toEqual([
      ['Was kostet ein Coaching?', 2],
      ['Gibt es Rabatt für Studierende?', 1],
    ]);
    // Counted in the guard's per-client day, never in the question's row.
    const counts = await fixture.db.query<{ client: string }>(
      `select distinct client from public.request_counts where fn = 'open_questions' order by client`,
    );
    expect(counts.rows).toEqual([{ client: '198.51.100.7' }, { client: '198.51.100.8' }]);
  });

  it('holds the text, its lexemes, the count and the times, and nothing about who asked', async () => {
    const columns = await fixture.db.query<{ column_name: string }>(
      `select column_name from information_schema.columns where table_schema = 'public' and table_name = 'open_questions' order by 1`,
    );
    expect(columns.rows.map((row) => row.column_name)).toEqual([
      'answered_at',
      'answered_by',
      'answered_title',
      'ask_count',
      'first_asked_at',
      'id',
      'last_asked_at',
      'lexemes',
      'question',
    ]);
  });

  it.each([
    ['an empty question', ''],
    ['a question over 300 characters', 'x'.repeat(301)],
  ])('refuses %s', async (_name, question) => {
    expect(await attempt(fixture.db, actors.service, 'insert into public.open_questions (question) values ($1)', [question])).toMatchObject({
      ok: false,
      code: '23514',
    });
  });
});

describe('jetzt beantwortet', () => {
  const probation = 'Die Probezeit bei Lindenhof dauert sechs Monate. In dieser Zeit gilt eine Kündigungsfrist von zwei Wochen.';

  it('marks a question answered by the processed document the search now finds for it, with its title', async () => {
    await record('Wie lange dauert die Probezeit bei Lindenhof?');
    await record('Gibt es einen Parkplatz für Besucher?');
    const id = await processDocument('Personalhandbuch.pdf', probation);

    const marked = await rows();
    expect(marked.map((row) => [row.question, row.answered_by, row.answered_title])).toEqual([
      ['Wie lange dauert die Probezeit bei Lindenhof?', id, 'Personalhandbuch.pdf'],
      ['Gibt es einen Parkplatz für Besucher?', null, null],
    ]);
  });

  it('forgets the mark when the document is deleted or the question is asked again unanswered', async () => {
    await record('Wie lange dauert die Probezeit bei Lindenhof?');
    const id = await processDocument('Personalhandbuch.pdf', probation);
    expect((await rows())[0]?.answered_by).toBe(id);
    await run(fixture.db, actors.admin, 'delete from public.documents where id = $1', [id]);
    expect((await rows())[0]).toMatchObject({ answered_by: null, answered_title: null });

    await processDocument('Handbuch 2.pdf', probation);
    expect((await rows())[0]?.answered_title).toBe('Handbuch 2.pdf');
    await record('Probezeit bei Lindenhof – wie lange dauert die?');
    expect((await rows())[0]).toMatchObject({ ask_count: 2, answered_by: null, answered_title: null });
  });

  it('marks when a document that failed is processed again, not while it fails', async () => {
    await record('Wie lange dauert die Probezeit bei Lindenhof?');
    const id = await processDocument('Handbuch.pdf', '   ');
    expect((await rows())[0]?.answered_by).toBeNull();
    await run(fixture.db, actors.admin, 'select public.begin_document_reprocessing($1)', [id]);
    await run(fixture.db, actors.admin, 'select public.ingest_document_text($1, $2)', [id, probation]);
    expect((await rows())[0]?.answered_by).toBe(id);
  });
});

describe('Alle löschen', () => {
  it('deletes every open question for an admin and says how many', async () => {
    await record('Was kostet ein Coaching?');
    await record('Gibt es Rabatt für Studierende?');
    const [result] = await run<{ removed: number }>(fixture.db, actors.admin, 'select public.clear_open_questions() as removed');
    expect(result?.removed).toBe(2);
    expect(await rows()).toEqual([]);
  });
});

describe('retention', () => {
  async function aged(question: string, days: number): Promise<void> {
    await fixture.db.query(
      `insert into public.open_questions (question, first_asked_at, last_asked_at)
       values ($1, now() - make_interval(days => $2 + 3), now() - make_interval(days => $2))`,
      [question, days],
    );
  }

  it('deletes what was last asked more than 30 days before the sweep, and only that', async () => {
    await aged('Was kostet ein Coaching?', 31);
    await aged('Gibt es Rabatt für Studierende?', 29);
    await record('Wie lange dauert die Probezeit?');

    const sweep = async (offset: string) =>
      (await fixture.db.query<{ removed: number }>(`select private.sweep_open_questions(now() + $1::interval) as removed`, [offset])).rows[0]
        ?.removed;
    expect(await sweep('0 days')).toBe(1);
    expect((await rows()).map((row) => row.question)).toEqual(['Gibt es Rabatt für Studierende?', 'Wie lange dauert die Probezeit?']);
    // The clock moved on two days: the 29-day question is now past its 30 days, the new one is not.
    expect(await sweep('2 days')).toBe(1);
    expect((await rows()).map((row) => row.question)).toEqual(['Wie lange dauert die Probezeit?']);
    // A question asked again starts its 30 days again.
    expect(await sweep('29 days')).toBe(0);
    expect(await sweep('31 days')).toBe(1);
  });

  it('may be run by no API role (pg_cron and the local stack run it as the owner)', async () => {
    for (const actor of [actors.anon, actors.member, actors.admin, actors.service]) {
      expect(await attempt(fixture.db, actor, 'select private.sweep_open_questions()'), actor.name).toMatchObject({ ok: false, code: '42501' });
    }
  });

  describe('on the local stack', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('sweeps when it starts and then every hour', async () => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      await aged('Was kostet ein Coaching?', 31);
      await aged('Gibt es Rabatt für Studierende?', 29);
      const report = vi.fn();
      const sweeps = startRetentionSweeps(fixture.db, report);
      try {
        await sweeps.started;
        expect((await rows()).map((row) => row.question)).toEqual(['Gibt es Rabatt für Studierende?']);

        // Two days on, the next hour's sweep finds the other one past its 30 days.
        await fixture.db.query(`update public.open_questions set first_asked_at = first_asked_at - interval '2 days', last_asked_at = last_asked_at - interval '2 days'`);
        // PGlite runs queries one after the other: a sweep the timer started is done before rows() reads.
        vi.advanceTimersByTime(SWEEP_EVERY_MS - 1);
        expect(await rows()).toHaveLength(1);
        vi.advanceTimersByTime(1);
        expect(await rows()).toEqual([]);
        expect(report).not.toHaveBeenCalled();
      } finally {
        await sweeps.close();
      }
    });
  });
});
