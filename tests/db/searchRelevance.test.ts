/**
 * The knowledge search's relevance rules: a floor instead of any shared word, German documents
 * before documents in another language, follow-ups searched with the previous user turn, no
 * near-duplicates, at most five passages, the matched terms for the admin's preview.
 */
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { actors, createAccounts, freshDatabase, insertDocument, run } from './fixtures';

interface Hit extends Record<string, unknown> {
  document_title: string;
  content: string;
  rank: number;
  matched_terms: string[];
  language: string;
}

const stress = [
  'Erste Hilfe bei Stress: die STOP-Methode. Halte kurz inne, atme tief durch, beobachte deinen Körper und setze dann Prioritäten.',
  'Die 4-7-8-Atmung hilft beim Einschlafen: vier Sekunden einatmen, sieben Sekunden halten, acht Sekunden ausatmen.',
  'Feste Schlafzeiten stabilisieren die innere Uhr. Das Schlafzimmer sollte kühl sein, zwischen 16 und 18 Grad.',
].join('\n\n');

const manual =
  'The function asn1_encode_total stores the total number of bytes written. The total time spent is printed with --stats. ' +
  'Under stress tests with many encoders the library shows no contention.';

let db: PGlite;

async function ingest(title: string, text: string): Promise<string> {
  const id = await insertDocument(db, { title });
  await run(db, actors.admin, 'select public.ingest_document_text($1, $2)', [id, text]);
  return id;
}

const search = (query: string, previous: string | null = null) =>
  run<Hit>(db, actors.service, 'select * from public.search_knowledge($1, 5, $2)', [query, previous]);

beforeAll(async () => {
  db = await freshDatabase();
  await createAccounts(db);
  await ingest('stress.pdf', stress);
  await ingest('stress-kopie.pdf', stress);
  await ingest('manual.pdf', manual);
});

afterAll(async () => {
  await db.close();
});

describe('search_knowledge relevance', () => {
  it('stores the language of each document', async () => {
    const rows = await run<{ title: string; language: string }>(db, actors.admin, 'select title, language from public.documents order by title');
    expect(rows).toEqual([
      { title: 'manual.pdf', language: 'other' },
      { title: 'stress-kopie.pdf', language: 'de' },
      { title: 'stress.pdf', language: 'de' },
    ]);
  });

  it('finds the answer and names the terms it matched, once per identical passage', async () => {
    const hits = await search('Wie geht die STOP-Methode bei Stress?');
    expect(hits[0]?.content).toContain('STOP-Methode');
    expect(hits[0]?.matched_terms).toEqual(expect.arrayContaining(['stop-method', 'stress']));
    expect(hits[0]?.rank).toBeGreaterThanOrEqual(0.3);
    // The same text in two documents comes once.
    expect(hits.filter((hit) => hit.content.includes('STOP-Methode'))).toHaveLength(1);
  });

  it('returns nothing for a question that shares only a word with the knowledge', async () => {
    expect(await search('Wie lerne ich am schnellsten Spanisch und Italienisch?')).toEqual([]);
    expect(await search('Was kostet ein Flug nach Rom?')).toEqual([]);
  });

  it('does not answer a German stress question from an English manual that shares "total"', async () => {
    const hits = await search('Ich bin total gestresst bei der Arbeit, was kann ich tun?');
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((hit) => hit.language === 'de')).toBe(true);
    expect(hits[0]?.content).toContain('STOP-Methode');
  });

  it('tolerates a slip of the pen, and says which word of the knowledge base it matched instead', async () => {
    expect((await search('Was hilft beim Einschlafne?'))[0]?.content).toContain('4-7-8-Atmung');
    const hits = await search('Wie geht die Atmnug beim Einschlafen?');
    expect(hits[0]?.content).toContain('4-7-8-Atmung');
    expect(hits[0]?.matched_terms).toEqual(expect.arrayContaining(['atmung', 'einschlaf']));
    const schlaf = await search('Wie kühl sollte das Schlfzimmer sein?');
    expect(schlaf[0]?.content).toContain('16 und 18 Grad');
    expect(schlaf[0]?.matched_terms).toContain('schlafzimm');
  });

  it('does not take another word for a slip: a compound of a known word stays unknown', async () => {
    // "Mindestlohn" is near "mindestens" in trigrams, but is a different word.
    expect(await search('Wie hoch ist der Mindestlohn?')).toEqual([]);
  });

  it('remembers the words of new passages for the typo tolerance, and not for anon', async () => {
    await ingest('achtsamkeit.pdf', 'Achtsamkeitsübungen im Büro: eine Minute lang nur die Geräusche im Raum wahrnehmen.');
    const hits = await search('Welche Achtsamkeitsübngen gibt es im Büro?');
    expect(hits[0]?.content).toContain('Geräusche im Raum');
    await expect(run(db, actors.anon, 'select count(*) from private.knowledge_terms')).rejects.toThrow(/permission denied/);
  });

  it('uses a passage in another language when no German one answers', async () => {
    const hits = await search('asn1_encode_total contention');
    expect(hits.map((hit) => hit.document_title)).toEqual(['manual.pdf']);
  });

  it('searches a follow-up together with the previous user turn', async () => {
    expect(await search('Und wie oft am Tag?')).toEqual([]);
    const hits = await search('Und wie oft am Tag?', 'Wie geht die 4-7-8-Atmung?');
    expect(hits[0]?.content).toContain('sieben Sekunden halten');
  });

  it('returns at most five passages', async () => {
    const many = await insertDocument(db, { title: 'viele.pdf' });
    const text = Array.from({ length: 12 }, (_, i) => `Abschnitt ${i + 1}: Achtsamkeit im Alltag übst du jeden Tag neu.`).join('\n\n');
    await run(db, actors.admin, 'select public.ingest_document_text($1, $2)', [many, text.padEnd(8000, ' ')]);
    const hits = await search('Achtsamkeit im Alltag');
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.length).toBeLessThanOrEqual(5);
  });
});
