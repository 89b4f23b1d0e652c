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
 * Beside our search, a peer ranks exactly the passages the product made (read back from
 * `document_chunks` after ingestion) with a well-known library's BM25 (scripts/ragPeer.ts), and a
 * second peer with compounds split by a word list, the stronger baseline that shows the headroom.
 *
 * Prints per half and per kind of document, ours beside the peers: recall@1 and recall@5 (the
 * answering passage first, among the five found), MRR; and ours alone: offline answer right (the
 * answer contains the expected fact) and honest no-answer (questions no document answers get the
 * honest reply; a kind counts those that come near its documents); whether every document ended
 * COMPLETED; then the budgets per kind:
 *   recall@5 >= peer + 12 points, recall@1 >= peer + 10 points, MRR >= peer + 0.10,
 *   offline answer right >= 0.85 x our recall@5, honest no-answer >= 90 %.
 * The same figures in a conversation follow, ours only and without budgets.
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
import { HALVES, type CorpusQuestion, type Half, type HalfCorpus, loadHalf, presentHalves, renderDocument } from './ragCorpus';
import { type Outcome, missedBudgets, printTable } from './ragFigures';
import { createPeer, loadWordList, type PeerPassage } from './ragPeer';
import { addKnowledgeDocument, localServiceClient } from './starterKnowledge';

/** The peers' names, in the order of Outcome.peerRanks. */
const PEERS = ['peer BM25', 'peer + compounds'] as const;

const { values: options } = parseArgs({
  options: { half: { type: 'string', default: 'all' }, verbose: { type: 'boolean', default: false } },
});
const verbose = options.verbose;

/** Text compared without case and whitespace: the extraction's line breaks and spaces do not count. */
const squeezed = (text: string): string => text.toLowerCase().replace(/\s+/gu, '');

/** 1-based rank of the first of `passages` holding the question's expected phrase; null when none does. */
function rankOf(question: CorpusQuestion, passages: readonly string[]): number | null {
  if (question.passage === undefined) return null;
  const wanted = squeezed(question.passage);
  const index = passages.findIndex((passage) => squeezed(passage).includes(wanted));
  return index < 0 ? null : index + 1;
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

/** Every passage of the COMPLETED documents, as `document_chunks` holds it after ingestion. */
async function storedPassages(admin: ReturnType<typeof localServiceClient>): Promise<PeerPassage[]> {
  const { data: documents } = await admin.from('documents').select('id').eq('status', 'COMPLETED').throwOnError();
  const { data: chunks } = await admin
    .from('document_chunks')
    .select('heading, content')
    .in('document_id', documents.map((document) => document.id))
    .order('id')
    .throwOnError();
  return chunks;
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

    // The peers rank exactly the passages the product made, read back as the database holds them.
    const stored = await storedPassages(admin);
    const known = loadWordList();
    const peers = [createPeer(stored, null), createPeer(stored, known)];
    const peerRanks = (question: CorpusQuestion): (number | null)[] => {
      const text = [question.previous, question.question].filter((part) => part !== undefined).join('\n');
      return peers.map((peer) => rankOf(question, peer.search(text, 5).map((index) => stored[index]?.content ?? '')));
    };

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

    const askOne = async (question: CorpusQuestion, before: string | undefined, withPeers: boolean): Promise<Outcome> => {
      const history: ChatMessage[] = [];
      if (before !== undefined) {
        const previous: ChatMessage = { role: 'user', content: before };
        history.push(previous, { role: 'assistant', content: await ask([previous]) });
      }
      history.push({ role: 'user', content: question.question });
      const found = await findPassages(supabase, null, { question: question.question, history }, AbortSignal.timeout(30_000));
      const passages = found.map((passage) => passage.content);
      const answer = await ask(history);
      const facts = (question.fact ?? []).map(squeezed);
      return {
        question,
        rank: rankOf(question, passages),
        peerRanks: withPeers ? peerRanks(question) : [],
        answer,
        honest: isHonestReply(answer),
        hit: facts.some((fact) => squeezed(answer).includes(fact)),
        passages,
      };
    };
    /** Every question, each after the user turn `before` names for it (if any) and its answer. */
    const askAll = async (before: (question: CorpusQuestion, index: number) => string | undefined, withPeers: boolean): Promise<Outcome[]> => {
      const outcomes: Outcome[] = [];
      for (const [index, question] of corpus.questions.entries()) {
        outcomes.push(await askOne(question, before(question, index), withPeers));
      }
      return outcomes;
    };
    const { questions } = corpus;
    const alone = await askAll((question) => question.previous, true);
    const away = Math.floor(questions.length / 2);
    const conversation = await askAll((question, index) => question.previous ?? questions[(index + away) % questions.length]?.question, false);
    return { alone, conversation };
  } finally {
    await stack.close();
  }
}

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

/** Prints the half's tables and the budgets per kind; returns whether every kind keeps them. */
function report(half: Half, { alone, conversation }: HalfOutcomes): boolean {
  const { overall, byKind, kinds } = printTable(half, alone, PEERS);
  const failures: string[] = [];
  console.log('  budgets (recall@5 >= peer + 12 points, recall@1 >= peer + 10, MRR >= peer + 0.10, offline right >= 0.85 × recall@5, honest >= 90 %):');
  for (const [label, value] of [['overall', overall] as const, ...kinds.map((kind) => [kind, byKind.get(kind) ?? overall] as const)]) {
    const missed = missedBudgets(value);
    failures.push(...missed.map((text) => `${label}: ${text}`));
    console.log(`    ${label.padEnd(10)} ${missed.length === 0 ? 'ok' : `MISSED: ${missed.join('; ')}`}`);
  }
  printTable(`${half}, in a conversation (after the question half the list away)`, conversation, []);
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
