import type { OpenQuestion } from '../../../services/openQuestions';
import { applyOpenQuestionChange } from './useOpenQuestions';

const question = (id: string, count: number, lastAsked: string): OpenQuestion => ({
  id,
  question: `Frage ${id}?`,
  ask_count: count,
  first_asked_at: '2026-11-20T10:00:00Z',
  last_asked_at: lastAsked,
  answered_by: null,
  answered_title: null,
  answered_at: null,
});

const ids = (list: readonly OpenQuestion[]) => list.map((item) => item.id);

describe('applyOpenQuestionChange', () => {
  const list = [question('a', 3, '2026-11-25T10:00:00Z'), question('b', 1, '2026-11-26T10:00:00Z'), question('c', 1, '2026-11-24T10:00:00Z')];

  it('places a new question by count, then by last asked', () => {
    expect(ids(applyOpenQuestionChange(list, { type: 'INSERT', question: question('d', 1, '2026-11-25T12:00:00Z') }))).toEqual(['a', 'b', 'd', 'c']);
    expect(ids(applyOpenQuestionChange(list, { type: 'INSERT', question: question('e', 4, '2026-11-01T00:00:00Z') }))).toEqual(['e', 'a', 'b', 'c']);
  });

  it('moves a question asked again up, and does not list it twice', () => {
    const next = applyOpenQuestionChange(list, { type: 'UPDATE', question: question('c', 2, '2026-11-27T09:00:00Z') });
    expect(ids(next)).toEqual(['a', 'c', 'b']);
    expect(next.find((item) => item.id === 'c')?.ask_count).toBe(2);
    expect(ids(applyOpenQuestionChange(list, { type: 'INSERT', question: question('b', 1, '2026-11-26T10:00:00Z') }))).toEqual(['a', 'b', 'c']);
  });

  it('shows the answer mark of an update in place', () => {
    const answered = { ...question('b', 1, '2026-11-26T10:00:00Z'), answered_by: 'doc', answered_title: 'Handbuch.pdf', answered_at: '2026-11-27T10:00:00Z' };
    const next = applyOpenQuestionChange(list, { type: 'UPDATE', question: answered });
    expect(ids(next)).toEqual(['a', 'b', 'c']);
    expect(next[1]?.answered_title).toBe('Handbuch.pdf');
  });

  it('removes a dismissed question by id and leaves the others alone', () => {
    expect(ids(applyOpenQuestionChange(list, { type: 'DELETE', id: 'a' }))).toEqual(['b', 'c']);
    expect(applyOpenQuestionChange(list, { type: 'DELETE', id: 'nope' })).toEqual(list);
  });
});
