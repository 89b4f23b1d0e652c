import { useEffect, useId, useState } from 'react';
import { Switch } from '../../../components/ui/Switch';
import { useT } from '../../../i18n/language';
import { loadVoiceInputViaProvider, saveVoiceInputViaProvider } from '../../../services/systemSettings';
import { Notice, type NoticeTone } from '../Notice';

/**
 * Which service hears a visitor's voice: off, a browser with its own speech recognition uses it
 * (the specification's behaviour); on, every browser streams the voice to the operator's
 * speech-to-text provider, so no browser vendor's service hears it.
 */
export function VoiceInputSection() {
  const { t } = useT('admin');
  const headingId = useId();
  const [everyBrowser, setEveryBrowser] = useState<boolean | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<{ tone: NoticeTone; text: string } | null>(null);

  useEffect(() => {
    let active = true;
    loadVoiceInputViaProvider()
      .then((on) => {
        if (active) setEveryBrowser(on);
      })
      .catch((error: unknown) => {
        console.error('[admin] voice input setting not loaded:', error);
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
      await saveVoiceInputViaProvider(on);
      setEveryBrowser(on);
      setNotice({ tone: 'success', text: on ? t('voiceInput.switchedOn') : t('voiceInput.switchedOff') });
    } catch (error) {
      console.error('[admin] voice input setting not saved:', error);
      setNotice({ tone: 'error', text: t('voiceInput.saveFailed') });
    } finally {
      setSaving(false);
    }
  }

  return (
    <section
      aria-labelledby={headingId}
      aria-busy={everyBrowser === null && !loadFailed}
      className="space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <div>
        <h3 id={headingId} className="text-lg font-semibold text-slate-900">
          {t('voiceInput.heading')}
        </h3>
        <p className="mt-1 text-sm text-slate-700">{t('voiceInput.lead')}</p>
      </div>
      {loadFailed ? <Notice tone="error">{t('voiceInput.loadFailed')}</Notice> : null}
      <Switch
        label={t('voiceInput.switchLabel')}
        hint={t('voiceInput.switchHint')}
        checked={everyBrowser ?? false}
        disabled={everyBrowser === null || saving}
        onChange={(on) => void toggle(on)}
      />
      {notice ? <Notice tone={notice.tone}>{notice.text}</Notice> : null}
    </section>
  );
}
