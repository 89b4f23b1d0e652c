/**
 * Retrieval benchmark: does the coach find the passage that answers a visitor's question, answer
 * it without a language model, and say honestly when its knowledge has nothing on it?
 *
 * Runs the way the product runs. Per half of the evaluation corpus (scripts/ragCorpus.ts) a fresh
 * local stack starts in memory; every document is rendered to a real PDF (groff + ps2pdf: running
 * headers and footers, hyphenation, tables) and added as an admin's upload goes (file into the
 * bucket, text extracted with pdfjs, `ingest_document_text`). Every question then goes through the
 * coach function's own search (`findPassages` of supabase/functions/coach/knowledge.ts, as the
 * function calls it without a model key) and through the coach function itself over HTTP, with
 * no OPENAI_API_KEY, for the offline answer; a follow-up is asked after its previous question, with
 * that turn and its answer in the history, as the browser sends them.
 *
 * Then every question again in a conversation: after the question half the half's list away (and
 * its answer), as a visitor asks one thing after another; a follow-up after its own previous
 * question as before. Every question after a visitor's first reaches the coach this way.
 *
 * Prints per half and per kind of document: recall@5 (the answering passage among the five
 * passages found), MRR, offline answer hit (the answer contains the expected fact) and, per half,
 * honest no-answer (questions no document answers get the honest reply); whether every document
 * ended COMPLETED; and whether any kind falls below 80 % of the half's overall figure. The same
 * figures in a conversation follow, without budgets of their own.
 * Budgets: recall@5 >= 90 %, MRR >= 0.75, offline hit >= 80 %, honest >= 90 %.
 *
 * `npm run bench:rag -- --half dev|heldout|all` (default: every half present), `--verbose` lists
 * every miss. Needs groff and ghostscript.
 */
import { parseArgs } from 'node:util';

import { LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY, configFromEnv } from '../supabase/local/config';
import { startLocalStack } from '../supabase/local/server';
import { serviceClient } from '../supabase/functions/_shared/supabase';
import type { ChatMessage } from '../supabase/functions/coach/chatRequest';
import { findPassages } from '../supabase/functions/coach/knowledge';
import { isHonestReply } from '../supabase/functions/coach/offline';
import { HALVES, KINDS, type CorpusQuestion, type Half, type HalfCorpus, type Kind, loadHalf, presentHalves, renderDocument } from './ragCorpus';
import { addKnowledgeDocument, localServiceClient } from './starterKnowledge';

const BUDGETS = { recall: 0.9, mrr: 0.75, offline: 0.8, honest: 0.9 } as const;
/** No kind of document may fall below this share of the half's overall figure. */
const KIND_SHARE = 0.8;

const { values: options } = parseArgs({
  options: { half: { type: 'string', default: 'all' }, verbose: { type: 'boolean', default: false } },
});
const verbose = options.verbose;

/** Text compared without case and whitespace: the extraction's line breaks and spaces do not count. */
const squeezed = (text: string): string => text.toLowerCase().replace(/\s+/gu, '');

interface Outcome {
  question: CorpusQuestion;
  /** 1-based rank of the first passage holding the expected phrase; null when none does. */
  rank: number | null;
  answer: string;
  honest: boolean;
  hit: boolean;
  passages: string[];
}

interface Figures {
  answerable: number;
  unanswerable: number;
  recall: number;
  mrr: number;
  offline: number;
  honest: number;
}

function figures(outcomes: readonly Outcome[]): Figures {
  const answerable = outcomes.filter((outcome) => outcome.question.document !== null);
  const unanswerable = outcomes.filter((outcome) => outcome.question.document === null);
  const share = (count: number, of: number) => (of === 0 ? Number.NaN : count / of);
  return {
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    recall: share(answerable.filter((outcome) => outcome.rank !== null).length, answerable.length),
    mrr: share(answerable.reduce((sum, outcome) => sum + (outcome.rank === null ? 0 : 1 / outcome.rank), 0), answerable.length),
    offline: share(answerable.filter((outcome) => outcome.hit).length, answerable.length),
    honest: share(unanswerable.filter((outcome) => outcome.honest).length, unanswerable.length),
  };
}

/** The coach's answer over HTTP, as the browser's openai SDK asks for it (not streamed). */
async function coachAnswer(url: string, messages: readonly ChatMessage[]): Promise<string> {
  const response = await fetch(`${url}/functions/v1/coach/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${LOCAL_ANON_KEY}`, apikey: LOCAL_ANON_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4-turbo-preview', messages, stream: false }),
  });
  if (!response.ok) throw new Error(`coach answered ${String(response.status)}: ${await response.text()}`);
  const body = (await response.json()) as { choices?: { message?: { content?: string } }[] };
  return body.choices?.[0]?.message?.content ?? '';
}

interface HalfOutcomes {
  /** Each question asked on its own (a follow-up after its previous question). */
  alone: Outcome[];
  /** Each question asked after another one of the half (a follow-up after its own). */
  conversation: Outcome[];
}

async function runHalf(corpus: HalfCorpus): Promise<HalfOutcomes> {
  const stack = await startLocalStack({
    ...configFromEnv({}),
    port: 0,
    dataDir: null,
    // Every question is one request from this machine: no rate limit may get in the way.
    functionEnv: { COACH_RATE_LIMIT: '1000000', COACH_DAILY_LIMIT: '1000000' },
  });
  try {
    const admin = localServiceClient(stack.url);
    console.log(`\n== ${corpus.half} half: ${String(corpus.documents.length)} documents, ${String(corpus.questions.length)} questions`);
    let problems = 0;
    for (const document of corpus.documents) {
      const bytes = renderDocument(document);
      const added = await addKnowledgeDocument(admin, { url: stack.url, bytes, title: document.title, storagePath: `bench/${document.file}.pdf` });
      const { data: row, error } = await admin.from('documents').select('status, error').eq('id', added.id).single();
      if (error) throw new Error(error.message);
      if (row.status !== 'COMPLETED') problems++;
      console.log(
        `  ${document.kind.padEnd(9)} ${document.file}.pdf: ${String(added.pages)} pages, ${String(added.passages)} passages, ` +
          `${row.status}${row.error ? ` (${row.error})` : ''}`,
      );
    }
    console.log(problems === 0 ? '  every document COMPLETED' : `  ${String(problems)} documents NOT COMPLETED`);

    const functionEnv = { SUPABASE_URL: stack.url, SUPABASE_ANON_KEY: LOCAL_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY: LOCAL_SERVICE_ROLE_KEY };
    const supabase = serviceClient(functionEnv);
    const answers = new Map<string, string>();
    const ask = async (messages: ChatMessage[]): Promise<string> => {
      const key = JSON.stringify(messages);
      const known = answers.get(key);
      if (known !== undefined) return known;
      const answer = await coachAnswer(stack.url, messages);
      answers.set(key, answer);
      return answer;
    };

    const askOne = async (question: CorpusQuestion, before: string | undefined): Promise<Outcome> => {
      const history: ChatMessage[] = [];
      if (before !== undefined) {
        const previous: ChatMessage = { role: 'user', content: before };
        history.push(previous, { role: 'assistant', content: await ask([previous]) });
      }
      history.push({ role: 'user', content: question.question });
      const found = await findPassages(supabase, null, { question: question.question, history }, AbortSignal.timeout(30_000));
      const passages = found.map((passage) => passage.content);
      const answer = await ask(history);
      const wanted = question.passage === undefined ? null : squeezed(question.passage);
      const index = wanted === null ? -1 : passages.findIndex((passage) => squeezed(passage).includes(wanted));
      const facts = (question.fact ?? []).map(squeezed);
      return {
        question,
        rank: index < 0 ? null : index + 1,
        answer,
        honest: isHonestReply(answer),
        hit: facts.some((fact) => squeezed(answer).includes(fact)),
        passages,
      };
    };
    /** Every question, each after the user turn `before` names for it (if any) and its answer. */
    const askAll = async (before: (question: CorpusQuestion, index: number) => string | undefined): Promise<Outcome[]> => {
      const outcomes: Outcome[] = [];
      for (const [index, question] of corpus.questions.entries()) {
        outcomes.push(await askOne(question, before(question, index)));
      }
      return outcomes;
    };
    const { questions } = corpus;
    const alone = await askAll((question) => question.previous);
    const away = Math.floor(questions.length / 2);
    const conversation = await askAll((question, index) => question.previous ?? questions[(index + away) % questions.length]?.question);
    return { alone, conversation };
  } finally {
    await stack.close();
  }
}

const percent = (value: number): string => (Number.isNaN(value) ? '–' : `${(value * 100).toFixed(1)} %`);
const decimal = (value: number): string => (Number.isNaN(value) ? '–' : value.toFixed(3));

function listMisses(outcomes: readonly Outcome[]): void {
  for (const outcome of outcomes) {
    const { question } = outcome;
    const label = `${question.id} [${question.kind ?? 'none'}${question.style ? ` ${question.style.join(',')}` : ''}] ${question.question}`;
    if (question.document === null) {
      if (!outcome.honest) console.log(`  not honest: ${label}\n    -> ${outcome.answer.slice(0, 200)}`);
      continue;
    }
    if (outcome.rank === null) console.log(`  missed: ${label}\n    wanted "${question.passage ?? ''}" in ${question.document}, got ${String(outcome.passages.length)} passages`);
    if (!outcome.hit) {
      const factAt = outcome.passages.findIndex((passage) => (question.fact ?? []).some((fact) => squeezed(passage).includes(squeezed(fact))));
      const where = factAt < 0 ? 'in no passage found' : `in passage ${String(factAt + 1)}`;
      console.log(`  offline miss: ${label}\n    fact ${JSON.stringify(question.fact)} ${where}\n    -> ${outcome.answer.slice(0, 200)}`);
    }
  }
}

/** Prints a table of the figures, overall and per kind of document; returns them. */
function table(title: string, outcomes: readonly Outcome[]): { overall: Figures; byKind: Map<Kind, Figures>; kinds: Kind[] } {
  const overall = figures(outcomes);
  const byKind = new Map<Kind, Figures>(
    KINDS.map((kind) => [kind, figures(outcomes.filter((outcome) => outcome.question.kind === kind))]),
  );
  const kinds = KINDS.filter((kind) => (byKind.get(kind)?.answerable ?? 0) > 0);
  const row = (label: string, pick: (value: Figures) => number, show: (value: number) => string) =>
    `  ${label.padEnd(20)}${show(pick(overall)).padStart(10)}${kinds.map((kind) => show(pick(byKind.get(kind) ?? overall)).padStart(12)).join('')}`;
  console.log(`\n${title}: ${String(overall.answerable)} answerable, ${String(overall.unanswerable)} unanswerable questions`);
  console.log(`  ${''.padEnd(20)}${'overall'.padStart(10)}${kinds.map((kind) => kind.padStart(12)).join('')}`);
  console.log(`  ${'questions'.padEnd(20)}${String(overall.answerable).padStart(10)}${kinds.map((kind) => String(byKind.get(kind)?.answerable ?? 0).padStart(12)).join('')}`);
  console.log(row('recall@5', (value) => value.recall, percent));
  console.log(row('MRR', (value) => value.mrr, decimal));
  console.log(row('offline answer hit', (value) => value.offline, percent));
  console.log(`  ${'honest no-answer'.padEnd(20)}${percent(overall.honest).padStart(10)}`);
  return { overall, byKind, kinds };
}

/** Prints the half's tables; returns whether it keeps the budgets and the per-kind rule. */
function report(half: Half, { alone, conversation }: HalfOutcomes): boolean {
  const { overall, byKind, kinds } = table(half, alone);
  const failures: string[] = [];
  const budget = (name: string, value: number, limit: number, show: (value: number) => string) => {
    if (!(value >= limit)) failures.push(`${name} ${show(value)} < ${show(limit)}`);
  };
  budget('recall@5', overall.recall, BUDGETS.recall, percent);
  budget('MRR', overall.mrr, BUDGETS.mrr, decimal);
  budget('offline answer hit', overall.offline, BUDGETS.offline, percent);
  budget('honest no-answer', overall.honest, BUDGETS.honest, percent);
  for (const kind of kinds) {
    const value = byKind.get(kind);
    if (value === undefined) continue;
    for (const [name, pick, show] of [
      ['recall@5', (figure: Figures) => figure.recall, percent],
      ['MRR', (figure: Figures) => figure.mrr, decimal],
      ['offline answer hit', (figure: Figures) => figure.offline, percent],
    ] as const) {
      if (pick(value) < KIND_SHARE * pick(overall)) failures.push(`${kind} ${name} ${show(pick(value))} < 80 % of ${show(pick(overall))}`);
    }
  }
  console.log(failures.length === 0 ? '  budgets and per-kind rule: ok' : `  OVER BUDGET: ${failures.join('; ')}`);
  table(`${half}, in a conversation (after the question half the list away)`, conversation);
  return failures.length === 0;
}

async function main(): Promise<void> {
  const present = presentHalves();
  const asked = options.half === 'all' ? present : HALVES.filter((half) => half === options.half);
  if (asked.length === 0 || asked.some((half) => !present.includes(half))) {
    throw new Error(`--half must be dev, heldout or all (present here: ${present.join(', ') || 'none'})`);
  }
  const results: [Half, HalfOutcomes][] = [];
  for (const half of asked) results.push([half, await runHalf(loadHalf(half))]);
  let within = true;
  for (const [half, outcomes] of results) {
    if (verbose) {
      console.log(`\n${half}: misses`);
      listMisses(outcomes.alone);
      console.log(`\n${half}: misses in a conversation that the question alone does not have`);
      const alone = new Set(outcomes.alone.filter((outcome) => outcome.hit || outcome.honest).map((outcome) => outcome.question.id));
      listMisses(outcomes.conversation.filter((outcome) => alone.has(outcome.question.id)));
    }
    within = report(half, outcomes) && within;
  }
  process.exitCode = within ? 0 : 1;
}

await main();
