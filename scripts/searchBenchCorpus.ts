/**
 * The data of `npm run bench:search`: passages that imitate German text and natural questions.
 *
 * Words follow a Zipf distribution over a vocabulary of real stop words, real common words and more
 * than 20,000 generated word forms (German stems with prefixes, endings and compounds), all from a
 * seeded PRNG, so every run measures the same data. A tiny vocabulary would make most passages
 * match every question and measure nothing real.
 */
import { mulberry32 } from '../src/lib/random';
import { fakeEmbedding } from '../tests/fixtures/fakeProviders/fakeEmbeddings';
import { type BenchQueries, text } from './benchDatabase';

/** A text's embedding (the fake OpenAI server's, deterministic) in pgvector's text form. */
export const vectorText = (value: string) => `[${fakeEmbedding(value).join(',')}]`;

export const PASSAGES = 20_000;
const PASSAGES_PER_DOCUMENT = 100;
const TARGET_PASSAGE_CHARS = 800;
const GENERATED_FORMS = 24_000;
export const QUESTIONS = 200;
// A running server has long compiled PGlite's hot paths (WebAssembly tiers up while it runs) and
// cached its plans; a separate set of questions brings the benchmark to that state first.
const WARM_UP_QUESTIONS = 200;
export const ZIPF_EXPONENT = 1;

// mulberry32 (src/lib/random.ts): the corpus is the same on every run.
const createRandom = mulberry32;

function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

function shuffle<T>(random: () => number, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    const a = items[i];
    const b = items[j];
    if (a === undefined || b === undefined) continue;
    items[i] = b;
    items[j] = a;
  }
  return items;
}

// Roughly in order of frequency in German text.
const STOP_WORDS = `der die und in den von zu das mit sich des auf für ist im dem nicht ein die eine als auch es an
werden aus er hat dass sie nach wird bei einer um am sind noch wie einem über einen so zum war haben nur oder aber
vor zur bis mehr durch man sein wurde sei kann ich du wir ihr uns wenn was dann diese dieser sehr hier schon immer
wieder keine kein alle allem ob ja nein doch weil denn also etwa zwischen gegen ohne unter während damit dort da
mich mir dich dir ihm ihn ihnen unser unsere euch jetzt nun selbst sondern jedoch dessen deren welche welcher
welches soll sollte können müssen muss würde hatte hatten waren bin bist`
  .split(/\s+/)
  .filter((word) => word !== '');

// Everyday and coaching vocabulary, including every content word the question templates use.
const COMMON_WORDS = `Stress Atmung Atemtechnik Schlaf Arbeit Gesundheit Körper Angst Ruhe Pause Übung Übungen Gefühl
Gefühle Gedanken Energie Motivation Ziel Ziele Team Führung Kommunikation Konflikt Konflikte Resilienz Achtsamkeit
Meditation Bewegung Ernährung Entspannung Alltag Arbeitsplatz Familie Freunde Zeit Tag Woche Morgen Abend Nacht
Coach Coaching Klient Klientin Sitzung Gespräch Frage Antwort Methode Technik Strategie Plan Routine Gewohnheit
Belastung Erschöpfung Burnout Überforderung Druck Sorgen Grübeln Selbstwert Vertrauen Beziehung Grenzen Balance
Erholung Schlafqualität Herzfrequenz Puls Muskeln Nacken Rücken Kopfschmerzen Konzentration Fokus Leistung
Aufmerksamkeit Wahrnehmung Emotion Emotionen Ärger Wut Trauer Freude Dankbarkeit Mitgefühl Geduld Klarheit
Veränderung Entwicklung Wachstum Lernen Erfahrung Wissen Hilfe Unterstützung Beratung Therapie Prävention
Symptome Ursachen Folgen Wirkung Nutzen Vorteile Risiken Anzeichen Signale Auslöser Reaktion Verhalten
hilft helfen reduzieren verbessern stärken lernen üben atmen entspannen schlafen bewegen erkennen verstehen
vermeiden bewältigen umgehen fördern beruhigen funktioniert wirkt gelingt dauert beginnt wichtig schnell
langfristig kurzfristig akut akutem akuten chronisch chronischem ruhig gesund müde wach konkret einfach
schwierig regelmäßig täglich bewusst tief langsam innere innerer eigenen persönliche berufliche mentale
mentalen körperliche emotionale soziale positive negative erste nächsten beste besser gut neue hohe starke
Mitarbeitende Unternehmen Kunden Gesellschaft Schule Kinder Eltern Partner Kollegen Chef Termin Termine
Prüfung Prüfungen Präsentation Gespräche Telefonate Nachrichten Bildschirm Handy Sport Natur Spaziergang`
  .split(/\s+/)
  .filter((word) => word !== '');

const STEMS = `arbeit atem acht angst antwort bau berat beweg bild blick brauch denk dien druck ehr fahr fall fang fass
find folg frag freu führ geb geh glaub halt hand heil hilf hoff hör kampf kenn klar kraft lauf leb leg lehr leist lern
les licht lieb lös mach mein mess nehm nutz ordn pfleg plan prüf rat rech red reg ruh sag schaff schlaf schreib schutz
seh setz sicher sinn sorg spiel sprach stand stell stimm streit such trag trau treib üb urteil wachs wahl wand wechsel
weis werk wert wirk wiss wohn wunsch zahl zeig ziel zug ruf schau spür fühl grenz hof kreis wand bind deut dreh ström
wert blut herz kopf mut sinn takt ton wort welt zeit raum weg feld grund form kunst lust not pflicht`
  .split(/\s+/)
  .filter((word) => word !== '');
const PREFIXES = ['', 'be', 'ver', 'ent', 'er', 'zer', 'ge', 'an', 'auf', 'aus', 'ein', 'mit', 'nach', 'vor', 'zu', 'über', 'um', 'unter'];
const ENDINGS = ['', 'en', 'e', 'er', 'ern', 'es', 't', 'te', 'ten', 'end', 'ung', 'ungen', 'heit', 'keit', 'lich', 'liche', 'lichen', 'licher', 'isch', 'ische', 'bar', 'sam', 'schaft', 'nis', 'los'];
const NOUN_ENDINGS = new Set(['ung', 'ungen', 'heit', 'keit', 'schaft', 'nis', 'er']);

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** Distinct generated word forms: prefix + stem + ending, and two-stem compounds. */
function generateForms(random: () => number, count: number): string[] {
  const known = new Set([...STOP_WORDS, ...COMMON_WORDS].map((word) => word.toLowerCase()));
  const forms = new Set<string>();
  const candidates: string[] = [];
  for (const prefix of PREFIXES) {
    for (const stem of STEMS) {
      for (const ending of ENDINGS) {
        const word = prefix + stem + ending;
        candidates.push(NOUN_ENDINGS.has(ending) ? capitalize(word) : word);
      }
    }
  }
  for (const first of STEMS) {
    for (const second of STEMS) {
      if (first === second) continue;
      candidates.push(capitalize(`${first}${second}${pick(random, ['ung', 'heit', 'er', 'e', ''])}`));
    }
  }
  for (const word of shuffle(random, candidates)) {
    if (forms.size >= count) break;
    if (word.length < 3 || known.has(word.toLowerCase())) continue;
    forms.add(word);
  }
  return [...forms];
}

/** The vocabulary in Zipf rank order: stop words first, common words spread over the head. */
function buildVocabulary(random: () => number): string[] {
  const generated = generateForms(random, GENERATED_FORMS);
  const vocabulary = [...STOP_WORDS];
  const common = shuffle(random, [...COMMON_WORDS]);
  let next = 0;
  for (const word of generated) {
    // One common word every ~12 generated forms puts them at ranks ~100 to ~4,000.
    if (next < common.length && random() < 1 / 12) {
      const commonWord = common[next];
      next += 1;
      if (commonWord !== undefined) vocabulary.push(commonWord);
    }
    vocabulary.push(word);
  }
  vocabulary.push(...common.slice(next));
  return vocabulary;
}

function createZipfSampler(random: () => number, size: number): () => number {
  const cumulative = new Float64Array(size);
  let total = 0;
  for (let rank = 0; rank < size; rank += 1) {
    total += 1 / (rank + 1) ** ZIPF_EXPONENT;
    cumulative[rank] = total;
  }
  return () => {
    const target = random() * total;
    let low = 0;
    let high = size - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((cumulative[middle] ?? total) < target) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}

function generatePassage(random: () => number, vocabulary: readonly string[], sample: () => number): string {
  const sentences: string[] = [];
  let length = 0;
  while (length < TARGET_PASSAGE_CHARS - 60) {
    const words: string[] = [];
    const wordCount = 6 + Math.floor(random() * 11);
    for (let i = 0; i < wordCount; i += 1) {
      words.push(vocabulary[sample()] ?? 'und');
    }
    const sentence = `${capitalize(words.join(' '))}${random() < 0.1 ? '?' : '.'}`;
    sentences.push(sentence);
    length += sentence.length + 1;
  }
  return sentences.join(' ');
}

const QUESTION_TEMPLATES: readonly ((x: string, y: string) => string)[] = [
  (x, y) => `Welche ${x} hilft bei akutem ${y}?`,
  (x, y) => `Wie kann ich ${x} und ${y} im Alltag verbessern?`,
  (x) => `Was hilft gegen ${x}?`,
  (x, y) => `Wie funktioniert ${x} bei ${y}?`,
  (x, y) => `Warum ist ${x} für ${y} so wichtig?`,
  (x) => `Was kann man bei ${x} konkret tun?`,
  (x, y) => `Gibt es eine einfache Übung gegen ${x} am Arbeitsplatz oder bei ${y}?`,
  (x, y) => `Wie lässt sich ${x} mit ${y} verbinden?`,
  (x) => `Woran erkenne ich ${x} bei mir selbst?`,
  (x, y) => `Welche Rolle spielt ${x} für die ${y}?`,
  (x) => `Wie lange dauert es, bis ${x} wirkt?`,
  (x, y) => `Was sind die ersten Anzeichen von ${x} und ${y}?`,
];

function generateQuestions(
  random: () => number,
  vocabulary: readonly string[],
  sample: () => number,
  count: number,
  first: readonly string[] = [],
): string[] {
  const stopWords = new Set(STOP_WORDS);
  const contentWord = (): string => {
    for (;;) {
      const word = vocabulary[sample()];
      if (word !== undefined && !stopWords.has(word)) return word;
    }
  };
  const questions = [...first];
  while (questions.length < count) {
    questions.push(pick(random, QUESTION_TEMPLATES)(contentWord(), contentWord()));
  }
  return questions;
}

/** The passages as documents (every 20th not COMPLETED), indexes built once, then analysed; with `vectors`, embedded. */
export async function loadCorpus(db: BenchQueries, passages: readonly string[], vectors: boolean): Promise<void> {
  // Building the GIN index once after the load is much faster than maintaining it row by row;
  // the definition is read back from the migration so the benchmark uses the real index.
  const indexDefinition = text(
    await db.query(`select indexdef from pg_indexes where schemaname = 'public' and indexname = 'document_chunks_fts_idx'`),
    'indexdef',
  );
  await db.query('drop index public.document_chunks_fts_idx');

  const documentCount = Math.ceil(passages.length / PASSAGES_PER_DOCUMENT);
  for (let documentIndex = 0; documentIndex < documentCount; documentIndex += 1) {
    // Every 20th document is still processing or failed: its passages must never be returned.
    const status = documentIndex % 20 === 7 ? 'PROCESSING' : documentIndex % 20 === 13 ? 'ERROR' : 'COMPLETED';
    const inserted = await db.query(
      `insert into public.documents (title, url, status, error, file_size)
       values ($1, $2, $3::public.document_status, $4, $5) returning id`,
      [
        `Leitfaden ${documentIndex + 1}.pdf`,
        `https://example.com/storage/v1/object/public/document-uploads/${documentIndex + 1}.pdf`,
        status,
        status === 'ERROR' ? 'Das Dokument enthält keinen lesbaren Text.' : null,
        1_000_000,
      ],
    );
    const documentId = text(inserted, 'id');
    const slice = passages.slice(documentIndex * PASSAGES_PER_DOCUMENT, (documentIndex + 1) * PASSAGES_PER_DOCUMENT);
    await db.query(
      `insert into public.document_chunks (document_id, ordinal, content)
       select $1, t.n, t.content from unnest($2::text[]) with ordinality as t (content, n)`,
      [documentId, slice],
    );
  }
  await db.query(indexDefinition);
  if (vectors) await embedCorpus(db);
  // A production database is vacuumed and analysed by autovacuum; PGlite runs no autovacuum, and
  // on PostgreSQL it would start at a moment of its own choosing.
  await db.query('vacuum (analyze) public.documents, public.document_chunks');
}

/** Every passage's embedding, then the HNSW index built once (faster than row by row). */
async function embedCorpus(db: BenchQueries): Promise<void> {
  const indexDefinition = text(
    await db.query(`select indexdef from pg_indexes where schemaname = 'public' and indexname = 'document_chunks_embedding_idx'`),
    'indexdef',
  );
  await db.query('drop index public.document_chunks_embedding_idx');
  const rows = await db.query('select id::text as id, content from public.document_chunks order by id');
  for (let start = 0; start < rows.rows.length; start += 500) {
    const batch = rows.rows.slice(start, start + 500).map((row) => ({ id: String(row.id), content: String(row.content) }));
    await db.query(
      `update public.document_chunks c set embedding = t.embedding::extensions.vector
         from unnest($1::bigint[], $2::text[]) as t (id, embedding) where c.id = t.id`,
      [batch.map((row) => row.id), batch.map((row) => vectorText(row.content))],
    );
  }
  await db.query(indexDefinition);
}

export interface BenchCorpus {
  passages: string[];
  questions: string[];
  warmUpQuestions: string[];
  averageChars: number;
  distinctForms: number;
}

/** The same passages and questions on every run. */
export function benchCorpus(): BenchCorpus {
  const random = createRandom(20_240_601);
  const vocabulary = buildVocabulary(random);
  const sample = createZipfSampler(random, vocabulary.length);
  const passages = Array.from({ length: PASSAGES }, () => generatePassage(random, vocabulary, sample));
  const questions = generateQuestions(random, vocabulary, sample, QUESTIONS, ['Welche Atemtechnik hilft bei akutem Stress?']);
  const warmUpQuestions = generateQuestions(random, vocabulary, sample, WARM_UP_QUESTIONS);
  return {
    passages,
    questions,
    warmUpQuestions,
    averageChars: passages.reduce((sum, passage) => sum + passage.length, 0) / passages.length,
    distinctForms: new Set(vocabulary.map((word) => word.toLowerCase())).size,
  };
}
