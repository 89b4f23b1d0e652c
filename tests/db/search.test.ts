import { beforeAll, describe, expect, it } from 'vitest';

import { withClaims } from '../../supabase/local/database';
import { actors, attempt, insertDocument, run, useDatabase } from './fixtures';

interface Hit extends Record<string, unknown> {
  document_id: string;
  document_title: string;
  chunk_ordinal: number;
  heading: string;
  content: string;
  rank: number;
}

// A stress-management guide of several pages; only the third section pairs the breathing
// technique with acute stress.
const guide = [
  'Leitfaden für mehr Gelassenheit im Berufsalltag',
  'Dieser Leitfaden richtet sich an Führungskräfte und Mitarbeitende, die ihre Belastung besser verstehen möchten. ' +
    'Er beschreibt, wie Belastungen entstehen, welche Signale der Körper sendet und welche Gewohnheiten langfristig schützen. ' +
    'Die Kapitel bauen aufeinander auf, lassen sich aber auch einzeln lesen. Jede Übung ist so gewählt, dass sie ohne Hilfsmittel ' +
    'am Arbeitsplatz oder zu Hause gelingt. Nehmen Sie sich für jedes Kapitel etwas Zeit und probieren Sie die Vorschläge in Ruhe aus.',
  'Schlaf ist die wichtigste Quelle der Erholung. Wer regelmäßig zur gleichen Zeit zu Bett geht, schläft schneller ein und wacht ' +
    'erholter auf. Bildschirme sollten eine Stunde vor dem Schlafengehen ausgeschaltet werden, weil ihr Licht die Müdigkeit verzögert. ' +
    'Ein kühles, dunkles Schlafzimmer und ein fester Abendablauf helfen zusätzlich. Koffein am Nachmittag verschiebt die Einschlafzeit ' +
    'oft um mehr als eine Stunde. Wer nachts grübelt, schreibt die Gedanken am besten auf einen Zettel neben dem Bett.',
  'Wenn akuter Stress auftritt, hilft eine einfache Atemtechnik: Atmen Sie vier Sekunden durch die Nase ein, halten Sie den Atem ' +
    'vier Sekunden an und atmen Sie sechs Sekunden langsam durch den Mund aus. Die verlängerte Ausatmung aktiviert den Parasympathikus, ' +
    'senkt den Puls und beruhigt die Gedanken. Wiederholen Sie die Übung fünf Mal. Diese Atemtechnik lässt sich unbemerkt in ' +
    'Besprechungen, vor Präsentationen oder im Straßenverkehr anwenden und wirkt bereits nach wenigen Atemzügen.',
  'Bewegung baut Stresshormone ab. Schon ein Spaziergang von zwanzig Minuten in der Mittagspause verbessert die Konzentration am ' +
    'Nachmittag spürbar. Treppen statt Aufzug, kurze Dehnübungen am Schreibtisch und ein Fußweg zur Bahn summieren sich über die Woche. ' +
    'Wichtig ist nicht die Intensität, sondern die Regelmäßigkeit: Drei kurze Einheiten pro Tag wirken besser als ein langer Lauf ' +
    'am Wochenende. Wer Bewegung in feste Routinen einbaut, muss sich nicht jedes Mal neu überwinden.',
  'Stress im Team entsteht häufig durch unklare Erwartungen. Regelmäßige Gespräche über Prioritäten, ehrliche Rückmeldungen und ' +
    'klare Zuständigkeiten verringern Reibung. Führungskräfte sollten Überlastung früh ansprechen und Aufgaben neu verteilen, bevor ' +
    'Erschöpfung entsteht. Eine offene Fehlerkultur nimmt Druck aus dem Alltag. Kurze tägliche Abstimmungen von zehn Minuten ' +
    'ersetzen oft lange Sitzungen und geben allen das Gefühl, gehört zu werden.',
].join('\n\n');

const fixture = useDatabase();
let guideId = '';

async function search(query: string | null, matchCount?: number | null): Promise<Hit[]> {
  const sql =
    matchCount === undefined
      ? 'select * from public.search_knowledge($1)'
      : 'select * from public.search_knowledge($1, $2)';
  const params = matchCount === undefined ? [query] : [query, matchCount];
  return run<Hit>(fixture.db, actors.service, sql, params);
}

beforeAll(async () => {
  guideId = await insertDocument(fixture.db, { title: 'stress-leitfaden.pdf' });
  const [ingested] = await run<{ passages: number }>(
    fixture.db,
    actors.admin,
    'select public.ingest_document_text($1, $2) as passages',
    [guideId, guide],
  );
  expect(ingested?.passages).toBeGreaterThanOrEqual(3);

  // Documents that mention the same things but are not COMPLETED: never part of an answer.
  const pending = await insertDocument(fixture.db, { title: 'in-arbeit.pdf', status: 'PROCESSING' });
  const failed = await insertDocument(fixture.db, { title: 'kaputt.pdf', status: 'ERROR' });
  for (const id of [pending, failed]) {
    await fixture.db.query(
      `insert into public.document_chunks (document_id, ordinal, content)
       values ($1, 1, 'Atemtechnik bei akutem Stress: Welche Atemtechnik hilft bei akutem Stress? Atemtechnik, Stress, akut.')`,
      [id],
    );
  }

  // Many short COMPLETED passages about sleep: they test the limit and make "hilft" a common term
  // (in more than 200 passages), dense in these short passages.
  const many = await insertDocument(fixture.db, { title: 'schlaf.pdf', status: 'COMPLETED' });
  await fixture.db.query(
    `insert into public.document_chunks (document_id, ordinal, content)
     select $1, n, 'Tipp ' || n || ': Guter Schlaf braucht einen festen Rhythmus. Das hilft, Ruhe hilft.'
       from generate_series(1, 210) n`,
    [many],
  );
});

describe('search_knowledge', () => {
  it('finds the passage on breathing for a natural German question', async () => {
    const hits = await search('Welche Atemtechnik hilft bei akutem Stress?');
    const top = hits[0];
    expect(top?.document_id).toBe(guideId);
    expect(top?.document_title).toBe('stress-leitfaden.pdf');
    expect(top?.content).toContain('Atemtechnik');
    expect(top?.content).toMatch(/akuter Stress/);
  });

  it('matches inflected forms through German stemming', async () => {
    const hits = await search('Atemtechniken gegen Stresses');
    expect(hits[0]?.content).toContain('Atemtechnik');
  });

  it('finds a passage by the one word that names the topic when the others only ask', async () => {
    const hits = await search('Was bringt eigentlich Gelassenheit?');
    expect(hits.map((hit) => hit.document_id)).toContain(guideId);
    expect(hits[0]?.heading).toBe('Leitfaden für mehr Gelassenheit im Berufsalltag');
  });

  it('ranks passages with more of the question terms first, best first', async () => {
    const hits = await search('Stress Team Erwartungen');
    expect(hits[0]?.content).toContain('Stress im Team');
    const ranks = hits.map((hit) => hit.rank);
    expect([...ranks].sort((a, b) => b - a)).toEqual(ranks);
  });

  it('puts a passage sharing a rare term before passages sharing only a common one', async () => {
    const hits = await search('Hilft Koffein?');
    expect(hits[0]?.content).toContain('Koffein');
    expect(hits[0]?.document_id).toBe(guideId);
    expect(hits.slice(1).every((hit) => hit.content.includes('hilft'))).toBe(true);
  });

  it('never returns passages of PROCESSING or ERROR documents', async () => {
    const hits = await search('Atemtechnik akut Stress', 20);
    const titles = new Set(hits.map((hit) => hit.document_title));
    expect(titles.has('in-arbeit.pdf')).toBe(false);
    expect(titles.has('kaputt.pdf')).toBe(false);
    expect(hits.length).toBeGreaterThan(0);
  });

  it('returns at most 5 passages by default, and match_count clamped to 1..5', async () => {
    expect(await search('Schlaf Rhythmus')).toHaveLength(5);
    expect(await search('Schlaf Rhythmus', 3)).toHaveLength(3);
    expect(await search('Schlaf Rhythmus', 0)).toHaveLength(1);
    expect(await search('Schlaf Rhythmus', -4)).toHaveLength(1);
    expect(await search('Schlaf Rhythmus', 500)).toHaveLength(5);
    expect(await search('Schlaf Rhythmus', null)).toHaveLength(5);
  });

  it('breaks ties stably: same order every time, by document and passage', async () => {
    const first = await search('Rhythmus', 20);
    const second = await search('Rhythmus', 20);
    expect(second).toEqual(first);
    const tied = first.filter((hit) => hit.rank === first[0]?.rank);
    expect(tied.length).toBeGreaterThan(1);
    const ordinals = tied.map((hit) => hit.chunk_ordinal);
    expect([...ordinals].sort((a, b) => a - b)).toEqual(ordinals);
  });

  it.each([[''], ['   '], ['?!…,;:'], ['und oder der die das'], [null]])(
    'returns nothing, without an error, for %j',
    async (query) => {
      expect(await search(query)).toEqual([]);
    },
  );

  it.each([
    [`'; drop table public.documents; --`],
    [`Stress' OR '1'='1`],
    [`Atemtechnik & !Stress | (Schlaf <-> Team):*`],
    [`\\'\\\\ "Stress" $$ $1 %s`],
    [`Ängste; Übungen -- /* Stress */`],
  ])('treats SQL and tsquery syntax as plain words: %s', async (query) => {
    const hits = await search(query);
    expect(Array.isArray(hits)).toBe(true);
    const [{ count } = { count: -1 }] = (await fixture.db.query<{ count: number }>('select count(*)::int as count from public.documents'))
      .rows;
    expect(count).toBe(4);
  });

  it('sends the client no notice, for any question', async () => {
    const notices: string[] = [];
    await withClaims(fixture.db, actors.service.claims, actors.service.role, async (tx) => {
      // Plans made by earlier tests would hide what planning a statement reports.
      await tx.query('discard plans');
      for (const [question, previous] of [
        ['Welche Atemtechnik hilft bei akutem Stress?', null],
        ['Und wie lange?', 'Welche Atemtechnik hilft bei akutem Stress?'],
        ['Was kostet ein Flug nach Mallorca?', null],
        ['und oder der die das', null],
      ]) {
        await tx.query('select * from public.search_knowledge($1, 5, $2)', [question, previous], {
          onNotice: (notice) => notices.push(notice.message ?? ''),
        });
      }
    });
    expect(notices).toEqual([]);
  });

  it('cuts very long questions instead of failing', async () => {
    const hits = await search(`${'Stress '.repeat(5_000)}Atemtechnik`);
    expect(Array.isArray(hits)).toBe(true);
  });

  it('gives admins the same passages as the coach, signed-in non-admins none, anon no access', async () => {
    const question = 'Welche Atemtechnik hilft bei akutem Stress?';
    const asAdmin = await run<Hit>(fixture.db, actors.admin, 'select * from public.search_knowledge($1)', [question]);
    expect(asAdmin).toEqual(await search(question));
    expect(await run(fixture.db, actors.member, 'select * from public.search_knowledge($1)', [question])).toEqual([]);
    expect(await attempt(fixture.db, actors.anon, 'select * from public.search_knowledge($1)', [question])).toMatchObject({
      ok: false,
      code: '42501',
    });
  });
});
