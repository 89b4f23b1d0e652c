import { LiveListSync } from '../../../lib/liveList';
import {
  byAskedOften,
  listOpenQuestions,
  subscribeToOpenQuestions,
  type OpenQuestion,
  type OpenQuestionChange,
} from '../../../services/openQuestions';
import { useLiveList, type LiveListState } from '../useLiveList';

/** One realtime change, the list kept in the tab's order: most asked first, then most recently asked. */
export function applyOpenQuestionChange(list: readonly OpenQuestion[], change: OpenQuestionChange): OpenQuestion[] {
  const others = list.filter((item) => item.id !== (change.type === 'DELETE' ? change.id : change.question.id));
  return change.type === 'DELETE' ? others : [...others, change.question].sort(byAskedOften);
}

const createSync = () => new LiveListSync<OpenQuestion, OpenQuestionChange>(applyOpenQuestionChange);

/** The open questions, most asked first, kept current through realtime. */
export function useOpenQuestions(): LiveListState<OpenQuestion, OpenQuestionChange> {
  return useLiveList<OpenQuestion, OpenQuestionChange>({
    createSync,
    load: listOpenQuestions,
    subscribe: subscribeToOpenQuestions,
    what: 'open questions',
  });
}
