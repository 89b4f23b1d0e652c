/**
 * Hybrid search: passages with embeddings (here the deterministic fake embeddings the fake OpenAI
 * server answers) are fused with the full-text ranking by reciprocal rank fusion; without a
 * question embedding the search is the full-text search; a passage only the embedding finds needs
 * the semantic floor; only admins and the service role store embeddings.
 */
import { beforeAll, describe, expect, it } from 'vitest';

import { fakeEmbedding } from '../fixtures/fakeProviders/fakeEmbeddings';
import { actors, insertDocument, run, useDatabase } from './fixtures';

interface Hit extends Record<string, unknown> {
  content: string;
  rank: number;
  matched_terms: string[];
}

const sleep = [
  'Der Abend vor dem Schlafengehen: Lege Handy und Laptop eine Stunde vorher weg. Koffein wirkt bis zu acht Stunden nach.',
  'Alkohol macht zwar müde, verschlechtert aber die Qualität der zweiten Nachthälfte deutlich.',
  'Ein kurzes Nickerchen am frühen Nachmittag sollte nicht länger als zwanzig Minuten dauern.',
].join('\n\n');

const fixture = useDatabase();
let documentId: string;
const literal = (text: string) => `[${fakeEmbedding(text).join(',')}]`;

async function embedAll(): Promise<number> {
  const passages = await run<{ document_id: string; ordinal: number; content: string }>(
    fixture.db,
    actors.service,
    'select document_id, ordinal, content from public.document_chunks where embedding is null',
  );
  const items = passages.map((passage) => ({ document_id: passage.document_id, ordinal: passage.ordinal, embedding: literal(passage.content) }));
  const [written] = await run<{ n: number }>(fixture.db, actors.service, 'select public.store_passage_embeddings($1::jsonb) as n', [JSON.stringify(items)]);
  return written?.n ?? 0;
}

const search = (query: string, embedding: string | null) =>
  run<Hit>(fixture.db, actors.service, 'select * from public.search_knowledge($1, 5, null, $2::extensions.vector)', [query, embedding]);

beforeAll(async () => {
  // One short document per paragraph: one passage each, so the test can tell them apart.
  for (const [index, paragraph] of sleep.split('\n\n').entries()) {
    documentId = await insertDocument(fixture.db, { title: `schlaf-${String(index + 1)}.pdf` });
    await run(fixture.db, actors.admin, 'select public.ingest_document_text($1, $2)', [documentId, paragraph]);
  }
});

describe('hybrid search', () => {
  it('stores embeddings only for admins and the service role', async () => {
    const item = JSON.stringify([{ document_id: documentId, ordinal: 1, embedding: literal('x') }]);
    for (const actor of [actors.anon, actors.member]) {
      await expect(run(fixture.db, actor, 'select public.store_passage_embeddings($1::jsonb)', [item])).rejects.toThrow(/permission denied|only admins/);
    }
    expect(await embedAll()).toBe(3);
  });

  it('finds a passage by meaning that shares no word with the question, fused with the full-text ranking', async () => {
    const question = 'Ist ein Glas Wein gut zum Einschlafen?';
    const fullText = await search(question, null);
    expect(fullText.some((hit) => hit.content.includes('Alkohol'))).toBe(false);
    const hybrid = await search(question, literal(question));
    expect(hybrid.some((hit) => hit.content.includes('Alkohol'))).toBe(true);
    // Found only by its embedding: no matched terms, its similarity as the rank.
    const alcohol = hybrid.find((hit) => hit.content.includes('Alkohol'));
    expect(alcohol?.matched_terms).toEqual([]);
    expect(alcohol?.rank).toBeGreaterThanOrEqual(0.45);
  });

  it('ranks a passage both lists agree on first', async () => {
    const question = 'Wie lange darf ein Nickerchen am Nachmittag dauern?';
    const hybrid = await search(question, literal(question));
    expect(hybrid[0]?.content).toContain('Nickerchen');
  });

  it('keeps the honest "nothing" for a question that nothing answers, even with an embedding', async () => {
    const question = 'Was kostet ein Flug nach Rom?';
    expect(await search(question, literal(question))).toEqual([]);
  });

  it('finds the nearest passages of COMPLETED documents only, and none without an embedding', async () => {
    const nearest = (embedding: string | null) =>
      run<{ chunk_id: number; similarity: number }>(fixture.db, actors.service, 'select * from private.vector_candidates($1::extensions.vector, 20)', [embedding]);
    expect(await nearest(null)).toEqual([]);
    const question = literal('Alkohol macht müde');
    const before = await nearest(question);
    expect(before).toHaveLength(3);
    expect(before.map((row) => row.similarity)).toEqual([...before.map((row) => row.similarity)].sort((a, b) => b - a));
    await fixture.db.query(`update public.documents set status = 'PROCESSING' where title = 'schlaf-2.pdf'`);
    expect(await nearest(question)).toHaveLength(2);
    await fixture.db.query(`update public.documents set status = 'COMPLETED' where title = 'schlaf-2.pdf'`);
  });

  it('is the full-text search without a question embedding, and new passages wait for their embedding', async () => {
    const question = 'Wie lange wirkt Koffein?';
    expect((await search(question, null)).map((hit) => hit.content)).toEqual((await search(question, literal(question))).map((hit) => hit.content));
    await run(fixture.db, actors.admin, 'select public.ingest_document_text($1, $2)', [documentId, sleep]);
    const [pending] = await run<{ n: number }>(fixture.db, actors.service, 'select count(*)::int as n from public.document_chunks where embedding is null');
    expect(pending?.n).toBeGreaterThan(0);
  });
});

describe('private.fused_candidates', () => {
  interface Candidate extends Record<string, unknown> {
    chunk_id: number;
    score: number;
    matched: string[];
    fusion: number;
  }
  const terms = 'array(select t from private.search_terms($1, null) as t)';
  const fused = (question: string, embedding: string | null, floor = 0.3) =>
    run<Candidate>(fixture.db, actors.service, `select * from private.fused_candidates(${terms}, $2::extensions.vector, 5, $3)`, [question, embedding, floor]);
  /** Each list's own ranking, as the two candidate functions give them. */
  const lists = async (question: string, embedding: string, floor = 0.3) => ({
    lexical: await run<{ chunk_id: number; score: number }>(
      fixture.db,
      actors.service,
      `select l.chunk_id, l.score from private.lexical_candidates(${terms}, 5, $2) as l
        where greatest(l.score, l.standalone) >= $2 order by l.score desc, l.density desc, l.chunk_id`,
      [question, floor],
    ),
    vector: await run<{ chunk_id: number; similarity: number }>(
      fixture.db,
      actors.service,
      'select chunk_id, similarity from private.vector_candidates($1::extensions.vector, 20) where similarity >= 0.45 order by similarity desc, chunk_id',
      [embedding],
    ),
  });

  // The lexical list and the embedding's overlap in part for the first question (the passage both
  // find comes first), and the second finds a passage by its embedding alone.
  it.each(['Macht Alkohol am Abend müde?', 'Ist ein Glas Wein gut zum Einschlafen?'])(
    'counts 1 / (60 + rank) from each list a passage is in, best first, with the better of score and similarity: %s',
    async (question) => {
    const embedding = literal(question);
    const { lexical, vector } = await lists(question, embedding);
    expect(vector.length).toBeGreaterThan(0);
    const expected = new Map<number, { fusion: number; score: number }>();
    for (const [index, row] of lexical.entries()) expected.set(row.chunk_id, { fusion: 1 / (61 + index), score: row.score });
    for (const [index, row] of vector.entries()) {
      const known = expected.get(row.chunk_id);
      expected.set(row.chunk_id, {
        fusion: (known?.fusion ?? 0) + 1 / (61 + index),
        score: Math.max(known?.score ?? 0, row.similarity),
      });
    }
    const rows = await fused(question, embedding);
    expect(new Set(rows.map((row) => row.chunk_id))).toEqual(new Set(expected.keys()));
    for (const row of rows) {
      expect(row.fusion).toBeCloseTo(expected.get(row.chunk_id)?.fusion ?? Number.NaN, 9);
      expect(row.score).toBeCloseTo(expected.get(row.chunk_id)?.score ?? Number.NaN, 5);
    }
    expect(rows.map((row) => row.fusion)).toEqual([...rows.map((row) => row.fusion)].sort((a, b) => b - a));
    // What only the embedding found holds none of the question's terms.
    const lexicalIds = new Set(lexical.map((row) => row.chunk_id));
    for (const row of rows.filter((candidate) => !lexicalIds.has(candidate.chunk_id))) expect(row.matched).toEqual([]);
    const vectorIds = new Set(vector.map((row) => row.chunk_id));
    if (lexical.length > 0) {
      // Somewhere the two lists agree, and that passage leads, ahead of the lexical list's own first.
      expect(lexicalIds.has(rows[0]?.chunk_id ?? -1) && vectorIds.has(rows[0]?.chunk_id ?? -1)).toBe(true);
      expect(rows[0]?.chunk_id).not.toBe(lexical[0]?.chunk_id);
    } else {
      expect(rows.map((row) => row.chunk_id)).toEqual(vector.map((row) => row.chunk_id));
    }
  });

  it('is the lexical ranking alone without an embedding, and keeps nothing below the floor', async () => {
    const question = 'Wie lange wirkt Koffein?';
    const rows = await fused(question, null);
    expect(rows.length).toBeGreaterThan(0);
    for (const [index, row] of rows.entries()) expect(row.fusion).toBeCloseTo(1 / (61 + index), 9);
    expect(rows.every((row) => row.matched.length > 0)).toBe(true);
    expect(await fused(question, null, 1.01)).toEqual([]);
  });

  it('returns at most four times the passages wanted, so near-duplicates can still be dropped', async () => {
    const [row] = await run<{ n: number }>(
      fixture.db,
      actors.service,
      `select count(*)::int as n from private.fused_candidates(${terms}, $2::extensions.vector, 1)`,
      ['Schlaf Abend Nachmittag Koffein Alkohol', literal('Schlaf Abend Nachmittag Koffein Alkohol')],
    );
    expect(row?.n).toBeLessThanOrEqual(4);
  });
});

describe('search speed with and without vectors', () => {
  // bench:search measures the time; this pins what it depends on: search_knowledge runs with
  // enable_seqscan off, its nearest-neighbour side walks the HNSW index and its full-text side the
  // GIN index, so neither reads every passage as the knowledge base grows.
  const plan = async (sql: string, params: unknown[]): Promise<string> =>
    fixture.db.transaction(async (tx) => {
      await tx.query('set local enable_seqscan = off');
      const result = await tx.query<{ 'QUERY PLAN': string }>(`explain ${sql}`, params);
      return result.rows.map((row) => row['QUERY PLAN']).join('\n');
    });

  it('finds the nearest passages through the HNSW index', async () => {
    const nearest = await plan(
      `select c.document_id, c.ordinal from public.document_chunks c
        where c.embedding is not null
        order by c.embedding operator(extensions.<=>) $1::extensions.vector limit 20`,
      [literal('Wein am Abend')],
    );
    expect(nearest).toContain('document_chunks_embedding_idx');
  });

  it('finds the full-text candidates through the GIN index', async () => {
    const lexical = await plan(
      `select c.document_id, c.ordinal from public.document_chunks c where c.fts @@ $1::tsquery limit 100`,
      ["'koffein':*"],
    );
    expect(lexical).toContain('document_chunks_fts_idx');
  });
});
