/**
 * Retrieval benchmark: how well the coach finds the right passage, or says honestly that it has
 * none, on a German evaluation set of real PDFs.
 *
 * The documents (tests/fixtures/pdf/rag/*.ms: five German coaching documents and an English
 * technical manual as a distractor) are rendered to PDF by groff and ghostscript's ps2pdf, so the
 * PDFs have what real ones have: running headers and footers, page numbers, German hyphenation at
 * line ends. They go through the same extraction the admin's browser runs (`extractTextWith`, here
 * with pdfjs's legacy build) and the same ingestion (`ingest_document_text`) into PGlite; every
 * question then goes through `search_knowledge` and the offline coach's `offlineAnswer`, as
 * the coach function does.
 *
 * Prints recall@5 (the expected passage among the five returned), mean reciprocal rank, the
 * offline hit rate (the offline answer contains the expected fact) and the share of unanswerable
 * questions answered honestly (no passage, so the coach's "not in my knowledge" reply).
 * Budgets: recall@5 >= 90 %, MRR >= 0.75, offline hit >= 80 %, honest >= 90 %.
 * Run with `npm run bench:rag` (needs groff and ghostscript); `--verbose` lists every miss.
 */
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';

import { extractTextWith } from '../src/services/pdfTextExtraction';
import { openDatabase, withClaims } from '../supabase/local/database';
import { FALLBACK_ANSWER, offlineAnswer } from '../supabase/functions/coach/offline';
import { evalDocuments, evalQuestions } from '../tests/fixtures/pdf/rag/questions';
import { renderRagPdf } from '../tests/fixtures/pdf/rag/render';

const BUDGETS = { recall: 0.9, mrr: 0.75, offline: 0.8, honest: 0.9 };
const service = { role: 'service_role', iss: 'supabase-demo' } as const;
const verbose = process.argv.includes('--verbose');

const flat = (text: string): string => text.replace(/\s+/g, ' ').toLowerCase();

interface SearchRow {
  content: string;
  rank: number;
}

async function main(): Promise<void> {
  const db = await openDatabase();
  try {
    for (const document of evalDocuments) {
      const bytes = renderRagPdf(document.file, document.german);
      const { text, pages } = await extractTextWith(pdfjs, bytes);
      await withClaims(db, service, 'service_role', async (tx) => {
        const inserted = await tx.query<{ id: string }>(
          `insert into public.documents (title, url, file_size) values ($1, $2, $3) returning id`,
          [document.title, `bench/${document.file}.pdf`, bytes.byteLength],
        );
        const id = inserted.rows[0]?.id;
        if (id === undefined) throw new Error('document insert returned no id');
        const written = await tx.query<{ n: number }>('select public.ingest_document_text($1, $2) as n', [id, text]);
        console.log(`${document.file}.pdf: ${pages} pages, ${written.rows[0]?.n ?? 0} passages`);
      });
    }

    let answerable = 0;
    let found = 0;
    let reciprocal = 0;
    let offlineHits = 0;
    let unanswerable = 0;
    let honest = 0;
    for (const item of evalQuestions) {
      const rows = await withClaims(db, service, 'service_role', async (tx) =>
        (await tx.query<SearchRow>('select content, rank from public.search_knowledge($1, 5)', [item.question])).rows,
      );
      const passages = rows.map((row) => row.content.trim());
      const answer = offlineAnswer(item.question, passages, rows.map((row) => row.rank));
      if (item.passage === undefined) {
        unanswerable++;
        const isHonest = answer === FALLBACK_ANSWER;
        if (isHonest) honest++;
        else if (verbose) console.log(`  not honest: ${item.question}\n    -> ${answer.slice(0, 160)}`);
        continue;
      }
      answerable++;
      const wanted = flat(item.passage);
      const rank = passages.findIndex((passage) => flat(passage).includes(wanted));
      if (rank >= 0) {
        found++;
        reciprocal += 1 / (rank + 1);
      } else if (verbose) {
        console.log(`  missed: ${item.question} (wanted "${item.passage}", got ${passages.length} passages)`);
      }
      const fact = item.fact ?? item.passage;
      const hit = flat(answer).includes(flat(fact));
      if (hit) offlineHits++;
      else if (verbose) {
        const factRank = passages.findIndex((passage) => flat(passage).includes(flat(fact)));
        const where = factRank < 0 ? 'in no returned passage' : `in passage ${String(factRank + 1)}`;
        console.log(`  offline miss: ${item.question} (fact "${fact}" ${where})\n    -> ${answer.slice(0, 160)}`);
      }
    }

    const recall = found / answerable;
    const mrr = reciprocal / answerable;
    const offline = offlineHits / answerable;
    const honestShare = honest / unanswerable;
    const percent = (value: number) => `${(value * 100).toFixed(1)} %`;
    const mark = (value: number, budget: number) => (value >= budget ? 'ok' : 'OVER BUDGET');
    console.log(`\n${answerable} answerable and ${unanswerable} unanswerable questions`);
    console.log(`recall@5:           ${percent(recall)} (budget >= ${percent(BUDGETS.recall)}) ${mark(recall, BUDGETS.recall)}`);
    console.log(`MRR:                ${mrr.toFixed(3)} (budget >= ${BUDGETS.mrr}) ${mark(mrr, BUDGETS.mrr)}`);
    console.log(`offline answer hit: ${percent(offline)} (budget >= ${percent(BUDGETS.offline)}) ${mark(offline, BUDGETS.offline)}`);
    console.log(`honest no-answer:   ${percent(honestShare)} (budget >= ${percent(BUDGETS.honest)}) ${mark(honestShare, BUDGETS.honest)}`);
    const within = recall >= BUDGETS.recall && mrr >= BUDGETS.mrr && offline >= BUDGETS.offline && honestShare >= BUDGETS.honest;
    process.exitCode = within ? 0 : 1;
  } finally {
    await db.close();
  }
}

await main();
