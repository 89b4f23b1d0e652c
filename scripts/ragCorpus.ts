/**
 * The retrieval evaluation corpus of `npm run bench:rag`: two halves, `tests/fixtures/rag/dev`
 * (the development half, the one retrieval is tuned on) and `tests/fixtures/rag/heldout` (kept
 * apart, for the figures the budgets are checked on). A half is every `*.json` corpus in its
 * folder: documents (groff sources rendered to real PDFs) and the questions visitors ask about
 * them, some without an answer in any document. A question may name any document of its half,
 * whichever corpus file lists it. `tests/fixtures/rag/check.ts` checks a half's content.
 *
 * Where the sources of a corpus file live and how they are rendered:
 *   original.json  `<half>/original/<file>.ms`, rendered by tests/fixtures/rag/dev/original/render.ts
 *   any other      `<half>/<file>.ms`, rendered by tests/fixtures/rag/render.ts (layout.ms)
 *
 * An answerable question names its `document`, a `passage` (a verbatim phrase of the sentence,
 * list entry or table row that answers it, as the extracted text has it) and `fact` alternatives
 * (an answer holding any one of them is right). A question with `document: null` has no answer in
 * any document of its half; `nearMiss` says what it shares with the documents (shared words in
 * single quotes), and `kind` names the kind of document it comes near, where it comes near one.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';

import { repoRoot } from '../supabase/local/config';
import { renderOriginalPdf } from '../tests/fixtures/rag/dev/original/render';
import { renderRagPdf } from '../tests/fixtures/rag/render';

export const HALVES = ['dev', 'heldout'] as const;
export type Half = (typeof HALVES)[number];

/**
 * The kinds of document, each reported on its own:
 *   prose      coaching texts, workbooks, guides written as running text
 *   reference  technical reference: commands, parameters, menus, glossaries
 *   faq        FAQs, policies, price lists, house rules, handbooks
 *   manual     a device manual with a troubleshooting table, terms and conditions in numbered
 *              clauses, an interview transcript in speaker turns, a course plan
 */
export const KINDS = ['prose', 'reference', 'faq', 'manual'] as const;
export type Kind = (typeof KINDS)[number];

/**
 * How a question is worded, and where its answer stands; a question carries every tag that fits.
 *   plain       written out in full, in the document's own words
 *   colloquial  everyday wording, written (capitals and punctuation as typed)
 *   spoken      as people say it to a voice assistant and a recogniser writes it down: short,
 *               lower case, no punctuation, "nen", "nich", "is", "ham", "kann man da"
 *   misheard    a word as a speech recogniser mishears it: split ("storno gebühr"), misspelt
 *               ("termien"), or a word that sounds alike
 *   typo        a typing error ("Termn")
 *   paraphrase  the document's term in other words ("wie komm ich da wieder raus" for "kündigen")
 *   compound    a compound of the document asked in its parts, or parts asked as a compound
 *               ("was kostet absagen" for "Stornogebühr", "in raten zahlen" for "Ratenzahlung")
 *   inflection  a word in another form than the document's ("abgesagt" for "absagen")
 *   number      a number in words where the document has digits, or the other way round
 *   followup    only understood after the `previous` question ("Und wie viele davon?")
 *   table       answered by a table row
 *   list        answered by a list entry
 */
export const STYLES = [
  'plain',
  'colloquial',
  'spoken',
  'misheard',
  'typo',
  'paraphrase',
  'compound',
  'inflection',
  'number',
  'followup',
  'table',
  'list',
] as const;
export type Style = (typeof STYLES)[number];

const documentSchema = z.object({
  file: z.string(),
  title: z.string(),
  kind: z.enum(KINDS),
  language: z.enum(['de', 'en']),
});

const questionSchema = z.object({
  id: z.string(),
  question: z.string(),
  /** The document that answers it; null for a question no document answers. */
  document: z.nullable(z.string()),
  /** A verbatim phrase of the passage (sentence, list entry, table row) that answers it. */
  passage: z.optional(z.string()),
  /** Alternatives, any one of which a correct answer contains. */
  fact: z.optional(z.array(z.string())),
  /** The visitor's previous question, for a follow-up. */
  previous: z.optional(z.string()),
  style: z.optional(z.array(z.enum(STYLES))),
  /** For a question no document answers: what it shares with the documents. */
  nearMiss: z.optional(z.string()),
  /** For a question no document answers: the kind of document it comes near. */
  kind: z.optional(z.enum(KINDS)),
});

const corpusSchema = z.object({ documents: z.array(documentSchema), questions: z.array(questionSchema) });

export type CorpusDocument = z.infer<typeof documentSchema> & { half: Half; corpus: string };
/** `kind`: its document's kind; for a question no document answers, the kind it comes near or null. */
export type CorpusQuestion = Omit<z.infer<typeof questionSchema>, 'kind'> & { half: Half; corpus: string; kind: Kind | null };

export interface HalfCorpus {
  half: Half;
  documents: CorpusDocument[];
  questions: CorpusQuestion[];
}

export const halfDir = (half: Half): string => join(repoRoot, 'tests', 'fixtures', 'rag', half);

/** The halves whose folder exists on this branch. */
export const presentHalves = (): Half[] => HALVES.filter((half) => existsSync(halfDir(half)));

/** Why a question does not fit the format, or null when it does. */
function formatProblem(question: z.infer<typeof questionSchema>): string | null {
  if (question.document === null) {
    if (question.passage !== undefined || question.fact !== undefined) return 'has a passage or fact but no document';
    return null;
  }
  if (question.passage === undefined) return 'has no passage';
  if (question.fact === undefined || question.fact.length === 0) return 'has no fact';
  if (question.nearMiss !== undefined || question.kind !== undefined) return 'is answerable but has a nearMiss or kind';
  return null;
}

/**
 * Every corpus file of a half, checked against the format: ids unique, documents known and listed
 * once, an answerable question with passage and fact, near-miss notes only on unanswerable ones.
 * `dir` is the half's folder (another one for tests).
 */
export function loadHalf(half: Half, dir: string = halfDir(half)): HalfCorpus {
  const files = readdirSync(dir)
    .filter((entry) => entry.endsWith('.json'))
    .sort()
    .map((name) => ({ name, corpus: corpusSchema.parse(JSON.parse(readFileSync(join(dir, name), 'utf8'))) }));
  const documents: CorpusDocument[] = files.flatMap(({ name, corpus }) => corpus.documents.map((document) => ({ ...document, half, corpus: name })));
  const kinds = new Map<string, Kind>();
  for (const document of documents) {
    if (kinds.has(document.file)) throw new Error(`${half}/${document.corpus}: document ${document.file} is listed twice in the half`);
    kinds.set(document.file, document.kind);
  }
  const questions: CorpusQuestion[] = [];
  const ids = new Set<string>();
  for (const { name, corpus } of files) {
    for (const question of corpus.questions) {
      const problem = formatProblem(question);
      if (problem !== null) throw new Error(`${half}/${name}: ${question.id} ${problem}`);
      if (ids.has(question.id)) throw new Error(`${half}: question id ${question.id} is used twice`);
      ids.add(question.id);
      const kind = question.document === null ? (question.kind ?? null) : kinds.get(question.document);
      if (kind === undefined) throw new Error(`${half}/${name}: ${question.id} names an unknown document ${String(question.document)}`);
      questions.push({ ...question, half, corpus: name, kind });
    }
  }
  return { half, documents, questions };
}

/** The document's PDF, rendered now by the renderer of its corpus file. */
export function renderDocument(document: CorpusDocument): Uint8Array {
  const german = document.language === 'de';
  if (document.corpus === 'original.json') return renderOriginalPdf(document.file, german);
  return renderRagPdf(document.half, document.file, german);
}
