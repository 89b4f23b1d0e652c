/**
 * The retrieval evaluation corpus of `npm run bench:rag`: two halves, `tests/fixtures/rag/dev`
 * (the development half, the one retrieval is tuned on) and `tests/fixtures/rag/heldout` (kept
 * apart, for the figures the budgets are checked on). A half is every `*.json` corpus in its
 * folder: documents (groff sources rendered to real PDFs) and the questions visitors ask about
 * them, some without an answer in any document.
 *
 * Where the sources of a corpus file live and how they are rendered:
 *   corpus.json    `<half>/<file>.ms`, rendered by tests/fixtures/rag/render.ts
 *   original.json  `<half>/original/<file>.ms`, rendered by tests/fixtures/rag/dev/original/render.ts
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';

import { repoRoot } from '../supabase/local/config';

export const HALVES = ['dev', 'heldout'] as const;
export type Half = (typeof HALVES)[number];

export const KINDS = ['prose', 'reference', 'faq'] as const;
export type Kind = (typeof KINDS)[number];

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
  style: z.optional(z.array(z.string())),
  nearMiss: z.optional(z.string()),
});

const corpusSchema = z.object({ documents: z.array(documentSchema), questions: z.array(questionSchema) });

export type CorpusDocument = z.infer<typeof documentSchema> & { half: Half; corpus: string };
export type CorpusQuestion = z.infer<typeof questionSchema> & { half: Half; kind: Kind | null };

export interface HalfCorpus {
  half: Half;
  documents: CorpusDocument[];
  questions: CorpusQuestion[];
}

export const halfDir = (half: Half): string => join(repoRoot, 'tests', 'fixtures', 'rag', half);

/** The halves whose folder exists on this branch. */
export const presentHalves = (): Half[] => HALVES.filter((half) => existsSync(halfDir(half)));

/** Every corpus file of a half, checked against the format: ids unique, documents known. */
export function loadHalf(half: Half): HalfCorpus {
  const dir = halfDir(half);
  const documents: CorpusDocument[] = [];
  const questions: CorpusQuestion[] = [];
  for (const name of readdirSync(dir).filter((entry) => entry.endsWith('.json')).sort()) {
    const parsed = corpusSchema.parse(JSON.parse(readFileSync(join(dir, name), 'utf8')));
    const kinds = new Map(parsed.documents.map((document) => [document.file, document.kind]));
    documents.push(...parsed.documents.map((document) => ({ ...document, half, corpus: name })));
    for (const question of parsed.questions) {
      const kind = question.document === null ? null : kinds.get(question.document);
      if (kind === undefined) throw new Error(`${half}/${name}: ${question.id} names an unknown document ${String(question.document)}`);
      if (question.document !== null && question.passage === undefined) throw new Error(`${half}/${name}: ${question.id} has no passage`);
      questions.push({ ...question, half, kind });
    }
  }
  const ids = new Set<string>();
  for (const question of questions) {
    if (ids.has(question.id)) throw new Error(`${half}: question id ${question.id} is used twice`);
    ids.add(question.id);
  }
  return { half, documents, questions };
}

/** The document's PDF, rendered now by the renderer of its corpus file. */
export async function renderDocument(document: CorpusDocument): Promise<Uint8Array> {
  const german = document.language === 'de';
  if (document.corpus === 'original.json') {
    const { renderOriginalPdf } = await import('../tests/fixtures/rag/dev/original/render');
    return renderOriginalPdf(document.file, german);
  }
  if (document.corpus === 'corpus.json') {
    // The corpus author's renderer; imported only when a half has a corpus.json.
    const renderer = (await import(join(repoRoot, 'tests', 'fixtures', 'rag', 'render.ts'))) as {
      renderRagPdf: (half: Half, file: string, german: boolean) => Uint8Array;
    };
    return renderer.renderRagPdf(document.half, document.file, german);
  }
  throw new Error(`${document.half}/${document.corpus}: no renderer for this corpus file`);
}
