/**
 * bench:rag's figures and budgets (scripts/ragFigures.ts) and its peer (scripts/ragPeer.ts): the
 * ranks summed up as recall@1, recall@5 and MRR, a budget missed exactly when our lead over the
 * peer is short, and the peer's German text processing.
 */
import { describe, expect, it } from 'vitest';

import type { CorpusQuestion } from '../../scripts/ragCorpus';
import { type Outcome, figures, missedBudgets } from '../../scripts/ragFigures';
import { GERMAN_STOP_WORDS, compoundParts, createPeer, peerTokens } from '../../scripts/ragPeer';

const question = (id: string, answerable: boolean): CorpusQuestion => ({
  id,
  question: id,
  document: answerable ? 'doc' : null,
  half: 'dev',
  corpus: 'corpus.json',
  kind: 'faq',
});

const outcome = (id: string, rank: number | null, peerRank: number | null, hit = false, honest = false): Outcome => ({
  question: question(id, rank !== -1),
  rank: rank === -1 ? null : rank,
  peerRanks: [peerRank],
  answer: '',
  honest,
  hit,
  passages: [],
});

describe('bench:rag figures', () => {
  it('sums ranks up as recall@1, recall@5 and MRR, ours and the peer\'s', () => {
    const value = figures([outcome('a', 1, 2, true), outcome('b', 2, null, true), outcome('c', null, 1), outcome('d', 4, 5)], 1);
    expect(value.ours).toEqual({ recall1: 0.25, recall5: 0.75, mrr: (1 + 1 / 2 + 1 / 4) / 4 });
    expect(value.peers[0]).toEqual({ recall1: 0.25, recall5: 0.75, mrr: (1 / 2 + 1 + 1 / 5) / 4 });
    expect(value.offline).toBe(0.5);
  });

  it('misses a budget exactly where our lead over the peer, the offline answers or the honest replies fall short', () => {
    // Ours finds 3 of 4 first, the peer 1 of 4 in its top five: every lead kept.
    const ahead = figures([outcome('a', 1, null, true), outcome('b', 1, 1, true), outcome('c', 1, null, true), outcome('d', null, null)], 1);
    expect(missedBudgets(ahead)).toEqual([]);
    // Both find two first; ours finds the other two second: recall@5 and MRR ahead, recall@1 not.
    const close = figures([outcome('a', 1, 1, true), outcome('b', 1, 1, true), outcome('c', 2, null, true), outcome('d', 2, null, true)], 1);
    expect(missedBudgets(close)).toEqual([expect.stringMatching(/^recall@1 50\.0 % < peer 50\.0 %/u)]);
    // Offline answers below 0.85 × recall@5, and an unanswerable question quoted.
    const quoted = figures([outcome('a', 1, null, false), outcome('b', 1, null, true), outcome('x', -1, null, false, false)], 1);
    expect(missedBudgets(quoted)).toEqual([expect.stringMatching(/^offline right 50\.0 %/u), expect.stringMatching(/^honest 0\.0 %/u)]);
  });
});

describe('bench:rag peer', () => {
  it('drops PostgreSQL\'s German stop words and stems the rest with Snowball', () => {
    expect(GERMAN_STOP_WORDS.size).toBe(231);
    expect(peerTokens('Wie viele Urlaubstage habe ich?')).toEqual(['viel', 'urlaubstag']);
  });

  it('splits a compound into known parts of four letters or more, a linking "s" allowed', () => {
    const known = new Set(['storno', 'gebühr', 'urlaub', 'tage', 'rate', 'raten', 'zahlung']);
    expect(compoundParts('stornogebühr', known)).toEqual(['storno', 'gebühr']);
    expect(compoundParts('urlaubstage', known)).toEqual(['urlaub', 'tage']);
    expect(compoundParts('ratenzahlung', known)).toEqual(['raten', 'zahlung']);
    expect(compoundParts('gebühr', known)).toBeNull();
    expect(peerTokens('Stornogebühr', known)).toEqual(['stornogebuhr', 'storno', 'gebuhr']);
  });

  it('ranks passages by BM25, the one sharing the rarer words first, and finds none for unknown words', () => {
    const peer = createPeer([
      { heading: 'Preise', content: 'Eine Sitzung kostet 90 Euro.' },
      { heading: 'Absagen', content: 'Die Stornogebühr beträgt 30 Euro.' },
      { heading: 'Schlaf', content: 'Guter Schlaf braucht Ruhe.' },
    ]);
    expect(peer.search('Was kostet eine Sitzung?', 5)[0]).toBe(0);
    expect(peer.search('Wie hoch ist die Stornogebühr?', 5)).toEqual([1]);
    expect(peer.search('Wetter morgen', 5)).toEqual([]);
  });
});
