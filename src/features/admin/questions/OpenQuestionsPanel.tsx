import { useEffect, useState } from 'react';
import { buttonClass } from '../../../components/ui/buttonStyles';
import { useT } from '../../../i18n/language';
import { formatGermanDateTime } from '../../../lib/format';
import { dismissOpenQuestion, loadRecording, type OpenQuestion, type OpenQuestionChange } from '../../../services/openQuestions';
import { Notice } from '../Notice';
import { PanelSection } from '../Panel';
import { useOpenQuestions } from './useOpenQuestions';

function QuestionRow({
  question,
  onDismissed,
  onAddKnowledge,
}: {
  question: OpenQuestion;
  onDismissed: (change: OpenQuestionChange) => void;
  onAddKnowledge: () => void;
}) {
  const { t } = useT('admin');
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const answered = question.answered_title !== null;

  async function dismiss() {
    setBusy(true);
    setFailed(false);
    try {
      await dismissOpenQuestion(question.id);
      onDismissed({ type: 'DELETE', id: question.id });
    } catch (error) {
      console.error('[admin] dismissing the question failed:', error);
      setFailed(true);
      setBusy(false);
    }
  }

  return (
    <li data-question-id={question.id} data-answered={answered} className="flex flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
      <div className="min-w-[14rem] flex-1">
        <p className="break-words font-semibold text-slate-900">{question.question}</p>
        <p className="text-sm text-slate-700">
          <span data-field="count">{t('questions.asked', { count: question.ask_count })}</span>
          {' · '}
          <span data-field="last-asked">{t('questions.lastAsked', { date: formatGermanDateTime(question.last_asked_at) })}</span>
        </p>
        {answered ? (
          <p data-field="answered" className="mt-1 text-sm text-emerald-900">
            <span className="inline-block rounded-full bg-emerald-100 px-2 py-0.5 font-semibold">{t('questions.answered')}</span>{' '}
            {t('questions.answeredBy', { title: question.answered_title })}
          </p>
        ) : null}
        {failed ? (
          <Notice tone="error" className="mt-2 text-sm">
            {t('questions.dismissFailed')}
          </Notice>
        ) : null}
      </div>
      {answered ? null : (
        <button type="button" className={buttonClass('secondary')} aria-label={t('questions.addKnowledgeLabel', { question: question.question })} onClick={onAddKnowledge}>
          {t('questions.addKnowledge')}
        </button>
      )}
      <button
        type="button"
        className={buttonClass('primary')}
        disabled={busy}
        aria-label={t('questions.dismissLabel', { question: question.question })}
        onClick={() => void dismiss()}
      >
        {t('questions.dismiss')}
      </button>
    </li>
  );
}

/** Whether recording is switched off (then a notice says so); null while unknown. */
function useRecordingOff(): boolean | null {
  const [off, setOff] = useState<boolean | null>(null);
  useEffect(() => {
    let active = true;
    loadRecording()
      .then((on) => {
        if (active) setOff(!on);
      })
      // The list works without it; the switch in Systemeinstellungen reports its own failure.
      .catch((error: unknown) => console.error('[admin] recording switch not loaded:', error));
    return () => {
      active = false;
    };
  }, []);
  return off;
}

/**
 * "Offene Fragen": what visitors asked that the knowledge base could not answer, most asked first,
 * then most recently asked; count and last asked per row; live. "Erledigt" dismisses a question,
 * "Wissen hinzufügen" leads to the upload; a question a newly processed document answers shows
 * "jetzt beantwortet" with the document's title.
 */
export function OpenQuestionsPanel({ onAddKnowledge }: { onAddKnowledge: () => void }) {
  const { t } = useT('admin');
  const { items, loading, error, live, change, reload } = useOpenQuestions();
  const recordingOff = useRecordingOff();

  return (
    <PanelSection title={t('questions.heading')} lead={t('questions.lead')} busy={loading}>
      {recordingOff ? <Notice tone="info">{t('questions.recordingOff')}</Notice> : null}
      {error ? (
        <div className="space-y-3">
          <Notice tone="error">{t('questions.loadFailed')}</Notice>
          <button type="button" className={buttonClass('secondary')} onClick={reload}>
            {t('questions.retry')}
          </button>
        </div>
      ) : null}
      {!live && !loading ? <Notice tone="info">{t('knowledge.reconnecting')}</Notice> : null}
      {loading && items.length === 0 ? <p className="text-slate-700">{t('questions.loading')}</p> : null}
      {!loading && !error && items.length === 0 ? <p className="text-slate-700">{t('questions.empty')}</p> : null}
      {items.length > 0 ? (
        <ol className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white" aria-label={t('questions.listLabel')}>
          {items.map((question) => (
            <QuestionRow key={question.id} question={question} onDismissed={change} onAddKnowledge={onAddKnowledge} />
          ))}
        </ol>
      ) : null}
    </PanelSection>
  );
}
