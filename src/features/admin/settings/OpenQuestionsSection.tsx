import * as Switch from '@radix-ui/react-switch';
import { useEffect, useId, useState } from 'react';
import { useT } from '../../../i18n/language';
import { clearOpenQuestions, loadRecording, saveRecording } from '../../../services/openQuestions';
import { Notice, type NoticeTone } from '../Notice';
import { ConfirmDialog, dangerButton } from '../Panel';

/**
 * Whether the coach records open questions, and "Alle löschen". Switching off keeps what is
 * recorded (deleting is a separate action that asks first).
 */
export function OpenQuestionsSection() {
  const { t } = useT('admin');
  const switchId = useId();
  const hintId = useId();
  const [recording, setRecording] = useState<boolean | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [saving, setSaving] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [clearing, setClearing] = useState(false);
  const [notice, setNotice] = useState<{ tone: NoticeTone; text: string } | null>(null);

  useEffect(() => {
    let active = true;
    loadRecording()
      .then((on) => {
        if (active) setRecording(on);
      })
      .catch((error: unknown) => {
        console.error('[admin] recording switch not loaded:', error);
        if (active) setLoadFailed(true);
      });
    return () => {
      active = false;
    };
  }, []);

  async function toggle(on: boolean) {
    setSaving(true);
    setNotice(null);
    try {
      await saveRecording(on);
      setRecording(on);
      setNotice({ tone: 'success', text: on ? t('openQuestionSettings.switchedOn') : t('openQuestionSettings.switchedOff') });
    } catch (error) {
      console.error('[admin] recording switch not saved:', error);
      setNotice({ tone: 'error', text: t('openQuestionSettings.saveFailed') });
    } finally {
      setSaving(false);
    }
  }

  async function clear() {
    setClearing(true);
    setNotice(null);
    try {
      const removed = await clearOpenQuestions();
      setNotice({ tone: 'success', text: t('openQuestionSettings.cleared', { count: removed }) });
    } catch (error) {
      console.error('[admin] open questions not deleted:', error);
      setNotice({ tone: 'error', text: t('openQuestionSettings.clearFailed') });
    } finally {
      setConfirming(false);
      setClearing(false);
    }
  }

  return (
    <section
      aria-labelledby={`${switchId}-heading`}
      aria-busy={recording === null && !loadFailed}
      className="space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <div>
        <h3 id={`${switchId}-heading`} className="text-lg font-semibold text-slate-900">
          {t('openQuestionSettings.heading')}
        </h3>
        <p className="mt-1 text-sm text-slate-700">{t('openQuestionSettings.lead')}</p>
      </div>
      {loadFailed ? <Notice tone="error">{t('openQuestionSettings.loadFailed')}</Notice> : null}
      <div className="flex items-start gap-3">
        <Switch.Root
          id={switchId}
          checked={recording ?? false}
          disabled={recording === null || saving}
          aria-describedby={hintId}
          onCheckedChange={(checked) => void toggle(checked)}
          className="relative mt-0.5 h-6 w-11 shrink-0 rounded-full bg-slate-400 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-60 data-[state=checked]:bg-brand-700"
        >
          <Switch.Thumb className="block h-5 w-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.375rem]" />
        </Switch.Root>
        <div>
          <label htmlFor={switchId} className="text-sm font-medium text-slate-800">
            {t('openQuestionSettings.switchLabel')}
          </label>
          <p id={hintId} className="text-sm text-slate-700">
            {t('openQuestionSettings.switchHint')}
          </p>
        </div>
      </div>
      {notice ? <Notice tone={notice.tone}>{notice.text}</Notice> : null}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        trigger={t('openQuestionSettings.clearAll')}
        triggerClassName={dangerButton}
        title={t('openQuestionSettings.clearTitle')}
        question={t('openQuestionSettings.clearConfirm')}
        confirmLabel={clearing ? t('openQuestionSettings.clearing') : t('openQuestionSettings.clearConfirmButton')}
        cancelLabel={t('knowledge.cancel')}
        busy={clearing}
        onConfirm={() => void clear()}
      />
    </section>
  );
}
