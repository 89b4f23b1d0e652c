/**
 * The knowledge search's relevance (…_search_current.sql): the lexical ranking
 * (private.lexical_candidates()), the floor, German documents before documents in another
 * language, follow-ups with the previous user turn, slips, compounds and synonyms, no
 * near-duplicates, at most five passages, and the evidence the offline coach reads
 * (private.passage_evidence(), private.foreign_nouns()).
 */
import { beforeAll, describe, expect, it } from 'vitest';

import { actors, insertDocument, run, useDatabase } from './fixtures';

const fixture = useDatabase();

interface Hit extends Record<string, unknown> {
  document_title: string;
  heading: string;
  content: string;
  rank: number;
  matched_terms: string[];
  language: string;
  evidence: {
    total: number;
    asked: number;
    asked_weight: number;
    terms: { term: string; weight: number; previous: boolean; named: boolean; words: string[] }[];
    foreign: string[];
  };
}

const stress = [
  'Erste Hilfe bei Stress',
  'Die STOP-Methode: Halte kurz inne, atme tief durch, beobachte deinen Körper und setze dann Prioritäten.',
  'Atemübungen',
  'Die 4-7-8-Atmung hilft beim Einschlafen: vier Sekunden einatmen, sieben Sekunden halten, acht Sekunden ausatmen.',
  'Schlafzimmer',
  'Feste Schlafzeiten stabilisieren die innere Uhr. Das Schlafzimmer sollte kühl sein, zwischen 16 und 18 Grad.',
].join('\n\n');

// More topics, so that the words above are as rare as in a real knowledge base.
const handbook = [
  'Sonderurlaub',
  'Sonderurlaub gibt es für:\nEigene Hochzeit\t2 Arbeitstage\nUmzug mit eigenem Haushalt\t1 Arbeitstag',
  'Reisekosten',
  'Flüge innerhalb Deutschlands brauchen die Zustimmung der Geschäftsführung. Die Bahn hat Vorrang.',
  'Sicherung',
  'Eine laufende Sicherung beenden Sie mit Strg+C. Bereits kopierte Dateien bleiben erhalten.',
  'Kaffee',
  'Der Kaffeevollautomat schaltet sich nach 30 Minuten ab. Die Brühgruppe darf nicht in die Spülmaschine.',
  'Parken',
  'Parkplätze finden Sie im Innenhof, die Stellplätze 5 und 6 sind für Besucher reserviert.',
].join('\n\n');

const manual =
  'The function asn1_encode_total stores the total number of bytes written. The total time spent is printed with --stats. ' +
  'Under stress tests with many encoders the library shows no contention.';

async function ingest(title: string, text: string): Promise<string> {
  const id = await insertDocument(fixture.db, { title });
  await run(fixture.db, actors.admin, 'select public.ingest_document_text($1, $2)', [id, text]);
  return id;
}

const search = (query: string, previous: string | null = null) =>
  run<Hit>(fixture.db, actors.service, 'select * from public.search_knowledge($1, 5, $2)', [query, previous]);

beforeAll(async () => {
  await ingest('stress.pdf', stress);
  await ingest('stress-kopie.pdf', stress);
  await ingest('handbuch.pdf', handbook);
  await ingest('manual.pdf', manual);
});

describe('private.lexical_candidates', () => {
  interface Candidate extends Record<string, unknown> {
    content: string;
    score: number;
    standalone: number;
    matched: string[];
  }
  const candidates = (question: string, previous: string | null = null) =>
    run<Candidate>(
      fixture.db,
      actors.service,
      `select c.content, l.score, l.standalone, l.matched
         from private.lexical_candidates(array(select t from private.search_terms($1, $2) t), 5, 0.3) l
         join public.document_chunks c on c.id = l.chunk_id
        order by l.score desc, c.content`,
      [question, previous],
    );

  it('scores the weighted share of the question\'s terms a passage holds, and names them', async () => {
    const [best] = await candidates('Wie kühl sollte das Schlafzimmer sein?');
    expect(best?.content).toContain('16 und 18 Grad');
    expect(best?.score).toBe(1);
    expect(best?.matched).toEqual(['kuhl', 'schlafzimm']);
  });

  it('counts a term only the document\'s title holds half', async () => {
    const found = await candidates('Reisekosten für Kaffee im Handbuch');
    const coffee = found.find((candidate) => candidate.content.includes('Kaffeevollautomat'));
    // "Handbuch" is the title's word: half its weight.
    expect(coffee?.matched).toEqual(expect.arrayContaining(['kaffe']));
    expect(coffee?.matched).not.toContain('handbuch');
    const share = coffee?.score ?? 0;
    expect(share).toBeGreaterThan(0);
    expect(share).toBeLessThan(1);
  });

  it('weighs a follow-up\'s previous turn half in the score and not at all in the standalone score', async () => {
    const found = await candidates('Und wie viele Sekunden?', 'Wie geht die 4-7-8-Atmung?');
    const breathing = found.find((candidate) => candidate.content.includes('4-7-8-Atmung'));
    expect(breathing?.score).toBe(1);
    expect(breathing?.standalone).toBe(1);
    const other = await candidates('Wie kühl sollte das Schlafzimmer sein?', 'Wie geht die 4-7-8-Atmung?');
    const bedroom = other.find((candidate) => candidate.content.includes('Schlafzimmer'));
    expect(bedroom?.standalone).toBe(1);
    expect(bedroom?.score).toBeLessThan(1);
  });
});

describe('search_knowledge relevance', () => {
  it('stores the language of each document', async () => {
    const rows = await run<{ title: string; language: string }>(fixture.db, actors.admin, 'select title, language from public.documents order by title');
    expect(rows).toEqual([
      { title: 'handbuch.pdf', language: 'de' },
      { title: 'manual.pdf', language: 'other' },
      { title: 'stress-kopie.pdf', language: 'de' },
      { title: 'stress.pdf', language: 'de' },
    ]);
  });

  it('finds the answer with its heading and names the terms it matched, once per identical passage', async () => {
    const hits = await search('Wie geht die STOP-Methode bei Stress?');
    expect(hits[0]?.content).toContain('STOP-Methode');
    expect(hits[0]?.heading).toBe('Erste Hilfe bei Stress');
    expect(hits[0]?.matched_terms).toEqual(expect.arrayContaining(['stop-method', 'stress']));
    expect(hits[0]?.rank).toBeGreaterThanOrEqual(0.3);
    expect(hits.filter((hit) => hit.content.includes('STOP-Methode'))).toHaveLength(1);
  });

  it('returns nothing for a question about something no passage names, even when it shares a word', async () => {
    expect(await search('Wie lerne ich am schnellsten Spanisch und Italienisch?')).toEqual([]);
    expect(await search('Was kostet ein Flug nach Mallorca?')).toEqual([]);
    expect(await search('Darf mein Hund mit auf den Parkplatz im Innenhof?')).not.toEqual([]);
  });

  it('does not take a scene-setting word for the topic: a wedding in summer is still a wedding', async () => {
    const hits = await search('Ich heirate im Sommer – wie viele Tage bekomme ich frei?');
    expect(hits[0]?.content).toContain('Eigene Hochzeit\t2 Arbeitstage');
  });

  it('finds what a visitor says differently through the synonym table', async () => {
    expect((await search('Wie komme ich aus einer laufenden Sicherung raus?'))[0]?.content).toContain('beenden Sie mit Strg+C');
  });

  it('does not answer a German stress question from an English manual that shares "total" and "stress"', async () => {
    const hits = await search('Ich bin total gestresst bei der Arbeit, was kann ich tun?');
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((hit) => hit.language === 'de')).toBe(true);
    expect(hits[0]?.content).toContain('STOP-Methode');
  });

  it('tolerates a slip of the pen in a longer word, and says which word of the knowledge base it matched instead', async () => {
    const hits = await search('Wie geht die Atmunng beim Einschlafen?');
    expect(hits[0]?.content).toContain('4-7-8-Atmung');
    expect(hits[0]?.matched_terms).toEqual(expect.arrayContaining(['atmung', 'einschlaf']));
    const bedroom = await search('Wie kühl sollte das Schalfzimmer sein?');
    expect(bedroom[0]?.content).toContain('16 und 18 Grad');
    expect(bedroom[0]?.matched_terms).toContain('schlafzimm');
  });

  it('does not take another word for a slip: a compound of a known word stays unknown', async () => {
    expect(await search('Wie hoch ist der Mindestlohn?')).toEqual([]);
  });

  it('finds the words of new passages, and keeps them from anon', async () => {
    await ingest('achtsamkeit.pdf', 'Achtsamkeitsübungen im Büro: eine Minute lang nur die Geräusche im Raum wahrnehmen.');
    const hits = await search('Welche Achtsamkeitsübngen gibt es im Büro?');
    expect(hits[0]?.content).toContain('Geräusche im Raum');
    await expect(run(fixture.db, actors.anon, 'select count(*) from private.knowledge_terms')).rejects.toThrow(/permission denied/);
  });

  it('uses a passage in another language when no German one answers', async () => {
    const hits = await search('asn1_encode_total contention');
    expect(hits.map((hit) => hit.document_title)).toEqual(['manual.pdf']);
  });

  it('searches a follow-up together with the previous user turn, and answers a change of subject on its own', async () => {
    expect(await search('Und wie oft am Tag?')).toEqual([]);
    const hits = await search('Und wie oft am Tag?', 'Wie geht die 4-7-8-Atmung?');
    expect(hits[0]?.content).toContain('sieben Sekunden halten');
    const changed = await search('Wie kühl sollte das Schlafzimmer sein?', 'Wie geht die 4-7-8-Atmung?');
    expect(changed[0]?.content).toContain('16 und 18 Grad');
  });

  it('hands the offline coach the passage\'s words for each term it holds', async () => {
    const [hit] = await search('Und wie kühl?', 'Was ist mit dem Schlafzimmer?');
    expect(hit?.evidence.asked).toBe(1);
    expect(hit?.evidence.total).toBeGreaterThan(0);
    // The latest question's own weight: the total without the previous turn's half.
    const kuhl = hit?.evidence.terms.find((term) => !term.previous);
    const schlafzimm = hit?.evidence.terms.find((term) => term.previous);
    expect(hit?.evidence.asked_weight).toBeCloseTo(kuhl?.weight ?? Number.NaN, 5);
    expect(hit?.evidence.total).toBeCloseTo((kuhl?.weight ?? 0) + (schlafzimm?.weight ?? 0), 5);
    expect(hit?.evidence.terms).toEqual([
      { term: 'kuhl', weight: expect.any(Number) as unknown, previous: false, named: false, words: ['kuhl'], related: [] },
      { term: 'schlafzimm', weight: expect.any(Number) as unknown, previous: true, named: true, words: ['schlafzimm'], related: [] },
    ]);
    expect(hit?.evidence.foreign).toEqual([]);
  });

  it('lists every term of the question, held or not, and the nouns the passage\'s document never mentions', async () => {
    const hits = await search('Wie kühl sollte das Schlafzimmer für die Brühgruppe sein?');
    const bedroom = hits.find((hit) => hit.content.includes('16 und 18 Grad'));
    expect(bedroom?.evidence.terms.map((term) => [term.term, term.named, term.words.length > 0])).toEqual([
      ['kuhl', false, true],
      ['schlafzimm', true, true],
      ['bruhgrupp', true, false],
    ]);
    // The stress text never mentions a brewing unit; the handbook does, and its coffee passage
    // lacks only the bedroom.
    expect(bedroom?.evidence.foreign).toEqual(['bruhgrupp']);
    const coffee = hits.find((hit) => hit.content.includes('Brühgruppe'));
    expect(coffee?.evidence.foreign).toEqual(['schlafzimm']);
    // A document in another language is not held against its nouns.
    const [english] = await search('Wie viele Bytes speichert asn1_encode_total insgesamt?');
    expect(english?.language).toBe('other');
    expect(english?.evidence.foreign).toEqual([]);
  });

  it('returns at most five passages', async () => {
    const many = await insertDocument(fixture.db, { title: 'viele.pdf' });
    const text = Array.from({ length: 12 }, (_, i) => `Abschnitt ${String(i + 1)}: Achtsamkeit im Alltag übst du jeden Tag neu.`).join('\n\n');
    await run(fixture.db, actors.admin, 'select public.ingest_document_text($1, $2)', [many, text]);
    const hits = await search('Achtsamkeit im Alltag');
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.length).toBeLessThanOrEqual(5);
  });
});
