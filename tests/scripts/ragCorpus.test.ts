/**
 * The loader of the retrieval evaluation corpus (scripts/ragCorpus.ts): a half is every corpus
 * file in its folder, a question may name a document of any of them, an unanswerable question
 * carries the kind it comes near, and what does not fit the format is refused with the question's
 * id. The real halves load with all four kinds. Rendering and the passages are checked by
 * tests/fixtures/rag/check.ts, which needs groff and is not part of this test.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import { HALVES, KINDS, loadHalf } from '../../scripts/ragCorpus';

const folders: string[] = [];

/** A half's folder holding the given corpus files. */
function half(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rag-corpus-'));
  folders.push(dir);
  for (const [name, corpus] of Object.entries(files)) writeFileSync(join(dir, name), JSON.stringify(corpus));
  return dir;
}

afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const manual = { file: 'manual-waschmaschine', title: 'Waschmaschine', kind: 'manual', language: 'de' };
const faq = { file: 'faq-praxis', title: 'Praxis', kind: 'faq', language: 'de' };
const answerable = { id: 'dev-001', question: 'was heißt f null zwei', document: 'manual-waschmaschine', passage: 'F02 Flusensieb verstopft', fact: ['Flusensieb'], style: ['spoken', 'number'] };

describe('loadHalf', () => {
  it('lets a question name a document of another corpus file of the half', () => {
    const dir = half({
      'a.json': { documents: [manual], questions: [] },
      'b.json': { documents: [faq], questions: [answerable] },
    });
    const corpus = loadHalf('dev', dir);
    expect(corpus.documents.map((document) => document.file)).toEqual(['manual-waschmaschine', 'faq-praxis']);
    expect(corpus.questions).toMatchObject([{ id: 'dev-001', kind: 'manual', corpus: 'b.json' }]);
  });

  it('gives an unanswerable question the kind it comes near, or none', () => {
    const dir = half({
      'corpus.json': {
        documents: [manual],
        questions: [
          { id: 'dev-002', question: 'kann die auch trocknen', document: null, kind: 'manual', nearMiss: "no 'Trockner'", style: ['spoken'] },
          { id: 'dev-003', question: 'Wie wird das Wetter?', document: null },
        ],
      },
    });
    expect(loadHalf('dev', dir).questions.map((question) => question.kind)).toEqual(['manual', null]);
  });

  it.each([
    ['an unknown document', { ...answerable, document: 'manual-kuehlschrank' }, /dev-001 names an unknown document manual-kuehlschrank/],
    ['no fact', { ...answerable, fact: [] }, /dev-001 has no fact/],
    ['no passage', { id: 'dev-001', question: 'x', document: 'manual-waschmaschine', fact: ['x'] }, /dev-001 has no passage/],
    ['a near-miss note on an answerable question', { ...answerable, nearMiss: "'F02'" }, /dev-001 is answerable but has a nearMiss or kind/],
    ['a passage on an unanswerable question', { id: 'dev-001', question: 'x', document: null, passage: 'F02' }, /dev-001 has a passage or fact but no document/],
  ])('refuses a question with %s', (_case, question, message) => {
    const dir = half({ 'corpus.json': { documents: [manual], questions: [question] } });
    expect(() => loadHalf('dev', dir)).toThrow(message);
  });

  it('refuses a style tag it does not know and a kind it does not know', () => {
    expect(() => loadHalf('dev', half({ 'corpus.json': { documents: [manual], questions: [{ ...answerable, style: ['mumbled'] }] } }))).toThrow();
    expect(() => loadHalf('dev', half({ 'corpus.json': { documents: [{ ...manual, kind: 'brochure' }], questions: [] } }))).toThrow();
  });

  it('refuses an id used twice and a document listed twice, across corpus files', () => {
    const twiceAsked = half({
      'a.json': { documents: [manual], questions: [answerable] },
      'b.json': { documents: [faq], questions: [{ ...answerable, question: 'anders gefragt' }] },
    });
    expect(() => loadHalf('dev', twiceAsked)).toThrow(/question id dev-001 is used twice/);
    const twiceListed = half({ 'a.json': { documents: [manual], questions: [] }, 'b.json': { documents: [manual], questions: [] } });
    expect(() => loadHalf('dev', twiceListed)).toThrow(/document manual-waschmaschine is listed twice/);
  });

  it.each(HALVES)('loads the %s half with documents of every kind', (name) => {
    const corpus = loadHalf(name);
    for (const kind of KINDS) expect(corpus.documents.filter((document) => document.kind === kind).length).toBeGreaterThan(0);
  });
});
