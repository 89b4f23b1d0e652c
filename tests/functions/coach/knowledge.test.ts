/**
 * The coach's knowledge (supabase/functions/coach/knowledge.ts): the search's evidence read
 * defensively, the knowledge message the model gets with and without passages, and the topics the
 * honest reply names.
 */
import { describe, expect, it } from 'vitest';

import {
  evidenceOf,
  KNOWLEDGE_INTRO,
  KNOWLEDGE_RULES,
  knowledgeMessage,
  NO_KNOWLEDGE_INTRO,
  NO_KNOWLEDGE_RULES,
  topicList,
  topicOf,
} from '../../../supabase/functions/coach/knowledge';
import { KNOWLEDGE_FRAME_CHARS, KNOWLEDGE_PASSAGES, PASSAGE_FRAME_CHARS, PASSAGE_MAX_CHARS } from '../../../supabase/functions/_shared/budgetFit';

describe('evidenceOf', () => {
  it('reads the search\'s evidence and drops what is malformed', () => {
    expect(
      evidenceOf({
        total: 6,
        asked: 2,
        asked_weight: 5,
        related_share: 0.6,
        terms: [
          { term: 'hochzeit', weight: 4, previous: false, named: true, words: ['hochzeit', 7], related: ['trauung', null] },
          { term: 'feier', weight: 1, previous: false, words: ['feier'] },
          { term: 'standesamt', weight: 2, previous: false, named: true, words: [] },
          { term: 'kaputt', weight: '1', previous: false, words: [] },
          'nonsense',
        ],
        foreign: ['standesamt', 3],
      }),
    ).toEqual({
      total: 6,
      asked: 2,
      askedWeight: 5,
      relatedShare: 0.6,
      terms: [
        { term: 'hochzeit', weight: 4, previous: false, named: true, foreign: false, words: ['hochzeit'], related: ['trauung'] },
        { term: 'feier', weight: 1, previous: false, named: false, foreign: false, words: ['feier'], related: [] },
        { term: 'standesamt', weight: 2, previous: false, named: true, foreign: true, words: [], related: [] },
      ],
    });
    expect(evidenceOf({ total: 1, asked: 1, terms: [] })).toEqual({ total: 1, asked: 1, askedWeight: 1, relatedShare: 0, terms: [] });
    expect(evidenceOf({ total: 3, asked: 1, asked_weight: 2, terms: [] })).toEqual({ total: 3, asked: 1, askedWeight: 2, relatedShare: 0, terms: [] });
    expect(evidenceOf(null)).toEqual({ total: 0, asked: 0, askedWeight: 0, relatedShare: 0, terms: [] });
    expect(evidenceOf([1, 2])).toEqual({ total: 0, asked: 0, askedWeight: 0, relatedShare: 0, terms: [] });
  });
});

describe('knowledgeMessage', () => {
  const evidence = { total: 1, asked: 1, askedWeight: 1, relatedShare: 0.6, terms: [] };

  it('quotes each passage with its section between markers, after the rules', () => {
    const message = knowledgeMessage([{ title: 'Preise.pdf', heading: '2 Kurse', content: 'Achtsamkeitskurs\t340 €', score: 1, evidence }]);
    expect(message).toBe(
      `${KNOWLEDGE_INTRO}\n\n${KNOWLEDGE_RULES}\n\n<<<Auszug 1: Zitat aus dem Dokument „Preise.pdf“>>>\nAbschnitt: 2 Kurse\nAchtsamkeitskurs\t340 €\n<<<Ende von Auszug 1>>>`,
    );
    expect(KNOWLEDGE_RULES).toContain('Fakten wie Preise, Termine, Fristen, Regeln, Schritte, Namen und Zahlen nennst du nur so, wie sie in den Auszügen stehen.');
  });

  it('tells the model when nothing was found, how to answer then, and what the knowledge base covers', () => {
    expect(knowledgeMessage([], ['Preisliste 2026', 'Hausordnung'])).toBe(
      `${NO_KNOWLEDGE_INTRO}\n\n${NO_KNOWLEDGE_RULES}\n\nDeine Wissensdatenbank enthält Dokumente zu „Preisliste 2026“ und „Hausordnung“.`,
    );
    expect(knowledgeMessage([], [])).toBe(`${NO_KNOWLEDGE_INTRO}\n\n${NO_KNOWLEDGE_RULES}\n\nDeine Wissensdatenbank ist gerade leer.`);
    expect(NO_KNOWLEDGE_RULES).toContain('Sag ehrlich, dass das nicht in deinem Wissen steht');
    expect(NO_KNOWLEDGE_RULES).toContain('Begrüßung, Mitgefühl, Rückfragen und allgemeine, unbedenkliche Coaching-Tipps');
  });
});

describe('topics', () => {
  it('names a document by its title without the file name\'s extension and separators', () => {
    expect(topicOf('Preisliste_2026.pdf')).toBe('Preisliste 2026');
    expect(topicOf('Starterwissen – Stress im Job.pdf')).toBe('Starterwissen – Stress im Job');
    expect(topicOf('atem>>>.pdf')).toBe('atem');
    expect(topicOf('faq-preisliste-lindenhof.pdf')).toBe('faq preisliste lindenhof');
    expect(topicOf('KI-Coaching.pdf')).toBe('KI-Coaching');
    expect(topicOf('Leitfaden Covid-19.pdf')).toBe('Leitfaden Covid-19');
    expect(topicOf('e-mail-vorlagen 2026.pdf')).toBe('e-mail-vorlagen 2026');
  });

  it('lists topics as German lists them', () => {
    expect(topicList(['A'])).toBe('„A“');
    expect(topicList(['A', 'B', 'C'])).toBe('„A“, „B“ und „C“');
    expect(topicList([])).toBe('');
  });
});

describe('the knowledge message at its largest', () => {
  it('stays within what a question\'s bound counts for it (../_shared/budgetFit.ts)', () => {
    const passage = { title: `${'T'.repeat(96)}.pdf`, heading: 'H'.repeat(100), content: 'x'.repeat(PASSAGE_MAX_CHARS), score: 1, evidence: evidenceOf(null) };
    const largest = knowledgeMessage(Array.from({ length: KNOWLEDGE_PASSAGES }, () => passage));
    expect(largest.length).toBeLessThanOrEqual(KNOWLEDGE_FRAME_CHARS + KNOWLEDGE_PASSAGES * (PASSAGE_FRAME_CHARS + PASSAGE_MAX_CHARS));
    const topics = Array.from({ length: 6 }, (_, index) => `${String(index)}${'t'.repeat(99)}`);
    expect(knowledgeMessage([], topics).length).toBeLessThanOrEqual(KNOWLEDGE_FRAME_CHARS + KNOWLEDGE_PASSAGES * PASSAGE_FRAME_CHARS);
  });
});
