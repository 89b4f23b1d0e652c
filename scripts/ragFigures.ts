/**
 * The figures of `npm run bench:rag`: what each question got, summed up per half and per kind of
 * document, ours beside the peers (scripts/ragPeer.ts), and the budgets checked per kind.
 */
import { KINDS, type CorpusQuestion, type Kind } from './ragCorpus';

export interface Outcome {
  question: CorpusQuestion;
  /** 1-based rank of the first passage of ours holding the expected phrase; null when none does. */
  rank: number | null;
  /** The same for each peer, in the order of the peers' names; empty when no peer ranked it. */
  peerRanks: (number | null)[];
  answer: string;
  honest: boolean;
  hit: boolean;
  passages: string[];
}

export interface Ranking {
  recall1: number;
  recall5: number;
  mrr: number;
}

export interface Figures {
  answerable: number;
  unanswerable: number;
  ours: Ranking;
  peers: Ranking[];
  /** Offline answer right: the answer holds the expected fact. */
  offline: number;
  /** Honest no-answer: questions no document answers get the honest reply. */
  honest: number;
}

/** The budgets, per kind of document on the held-out half (the issue's, docs/knowledge-base.md). */
export const BUDGETS = { recall5Lead: 0.12, recall1Lead: 0.1, mrrLead: 0.1, offlineShare: 0.85, honest: 0.9 } as const;

const share = (count: number, of: number): number => (of === 0 ? Number.NaN : count / of);

function ranking(ranks: readonly (number | null)[]): Ranking {
  return {
    recall1: share(ranks.filter((rank) => rank === 1).length, ranks.length),
    recall5: share(ranks.filter((rank) => rank !== null && rank <= 5).length, ranks.length),
    mrr: share(ranks.reduce<number>((sum, rank) => sum + (rank === null ? 0 : 1 / rank), 0), ranks.length),
  };
}

export function figures(outcomes: readonly Outcome[], peerCount: number): Figures {
  const answerable = outcomes.filter((outcome) => outcome.question.document !== null);
  const unanswerable = outcomes.filter((outcome) => outcome.question.document === null);
  return {
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    ours: ranking(answerable.map((outcome) => outcome.rank)),
    peers: Array.from({ length: peerCount }, (_, peer) => ranking(answerable.map((outcome) => outcome.peerRanks[peer] ?? null))),
    offline: share(answerable.filter((outcome) => outcome.hit).length, answerable.length),
    honest: share(unanswerable.filter((outcome) => outcome.honest).length, unanswerable.length),
  };
}

export const percent = (value: number): string => (Number.isNaN(value) ? '–' : `${(value * 100).toFixed(1)} %`);
export const decimal = (value: number): string => (Number.isNaN(value) ? '–' : value.toFixed(3));

/**
 * Where a kind (or the whole half) misses a budget: our lead over the first peer, the offline
 * answers against our recall@5, honest no-answers. Empty when it keeps them all.
 */
export function missedBudgets(value: Figures): string[] {
  const missed: string[] = [];
  const peer = value.peers[0];
  if (value.answerable > 0 && peer !== undefined) {
    const lead = (name: string, ours: number, theirs: number, needed: number, show: (value: number) => string) => {
      if (!(ours >= theirs + needed - 1e-9)) missed.push(`${name} ${show(ours)} < peer ${show(theirs)} + ${show(needed)}`);
    };
    lead('recall@5', value.ours.recall5, peer.recall5, BUDGETS.recall5Lead, percent);
    lead('recall@1', value.ours.recall1, peer.recall1, BUDGETS.recall1Lead, percent);
    lead('MRR', value.ours.mrr, peer.mrr, BUDGETS.mrrLead, decimal);
  }
  if (value.answerable > 0 && !(value.offline >= BUDGETS.offlineShare * value.ours.recall5 - 1e-9)) {
    missed.push(`offline right ${percent(value.offline)} < 0.85 × recall@5 ${percent(value.ours.recall5)}`);
  }
  if (value.unanswerable > 0 && !(value.honest >= BUDGETS.honest)) missed.push(`honest ${percent(value.honest)} < ${percent(BUDGETS.honest)}`);
  return missed;
}

export interface Table {
  overall: Figures;
  byKind: Map<Kind, Figures>;
  kinds: Kind[];
}

/**
 * Prints the figures, overall and per kind of document, ours above each peer's (`peerNames`; none
 * for a table of ours alone); returns them.
 */
export function printTable(title: string, outcomes: readonly Outcome[], peerNames: readonly string[]): Table {
  const overall = figures(outcomes, peerNames.length);
  const byKind = new Map<Kind, Figures>(
    KINDS.map((kind) => [kind, figures(outcomes.filter((outcome) => outcome.question.kind === kind), peerNames.length)]),
  );
  const kinds = KINDS.filter((kind) => (byKind.get(kind)?.answerable ?? 0) + (byKind.get(kind)?.unanswerable ?? 0) > 0);
  const columns = (show: (value: Figures) => string) => `${show(overall).padStart(12)}${kinds.map((kind) => show(byKind.get(kind) ?? overall).padStart(12)).join('')}`;
  const line = (metric: string, who: string, show: (value: Figures) => string) => console.log(`  ${metric.padEnd(22)}${who.padEnd(18)}${columns(show)}`);
  console.log(`\n${title}: ${String(overall.answerable)} answerable, ${String(overall.unanswerable)} unanswerable questions`);
  console.log(`  ${''.padEnd(40)}${'overall'.padStart(12)}${kinds.map((kind) => kind.padStart(12)).join('')}`);
  line('questions', 'with / without', (value) => `${String(value.answerable)} / ${String(value.unanswerable)}`);
  for (const [metric, pick, show] of [
    ['recall@1', (value: Ranking) => value.recall1, percent],
    ['recall@5', (value: Ranking) => value.recall5, percent],
    ['MRR', (value: Ranking) => value.mrr, decimal],
  ] as const) {
    line(metric, 'ours', (value) => show(pick(value.ours)));
    peerNames.forEach((name, index) => line('', name, (value) => show(pick(value.peers[index] ?? value.ours))));
  }
  line('offline answer right', 'ours', (value) => percent(value.offline));
  line('honest no-answer', 'ours', (value) => percent(value.honest));
  return { overall, byKind, kinds };
}
