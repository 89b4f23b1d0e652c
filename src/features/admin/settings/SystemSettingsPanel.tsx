import type { Session } from '@supabase/supabase-js';
import { useEffect, useId, useState } from 'react';
import { useT } from '../../../i18n/language';
import { clearVoiceCache, fetchProviderKeys, type KeyStatus, type ProviderKeys } from '../../../services/systemSettings';
import { Notice, type NoticeTone } from '../Notice';
import { ConfirmDialog, PanelSection, dangerButton } from '../Panel';
import { OpenQuestionsSection } from './OpenQuestionsSection';
import { SemanticSearchSection } from './SemanticSearchSection';
import { UsageSection } from './UsageSection';
import { VoiceInputSection } from './VoiceInputSection';

function KeyField({ label, status, fallback }: { label: string; status: KeyStatus | undefined; fallback: string }) {
  const { t } = useT('admin');
  const id = useId();
  const value = status === undefined ? fallback : status.configured && status.masked ? status.masked : t('settings.notConfigured');
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        type="text"
        disabled
        readOnly
        value={value}
        data-configured={status?.configured ?? ''}
        className="mt-1 block w-full cursor-not-allowed rounded-lg border border-slate-300 bg-slate-100 px-3 py-2 font-mono text-slate-800"
      />
    </div>
  );
}

/** Systemeinstellungen: provider keys (masked), usage, search, open questions, voice input, and 'Cache leeren'. */
export function SystemSettingsPanel({ session }: { session: Session }) {
  const { t } = useT('admin');
  const [keys, setKeys] = useState<ProviderKeys | null>(null);
  const [keysFailed, setKeysFailed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [clearing, setClearing] = useState(false);
  const [notice, setNotice] = useState<{ tone: NoticeTone; text: string } | null>(null);
  const token = session.access_token;

  useEffect(() => {
    let active = true;
    fetchProviderKeys(token)
      .then((loaded) => {
        if (active) setKeys(loaded);
      })
      .catch((error: unknown) => {
        console.error('[admin] key status not loaded:', error);
        if (active) setKeysFailed(true);
      });
    return () => {
      active = false;
    };
  }, [token]);

  async function clear() {
    setClearing(true);
    setNotice(null);
    try {
      const removed = await clearVoiceCache(token);
      setNotice({ tone: 'success', text: t('settings.cleared', { count: removed }) });
      setConfirming(false);
    } catch (error) {
      console.error('[admin] cache not cleared:', error);
      setNotice({ tone: 'error', text: t('settings.clearFailed') });
      setConfirming(false);
    } finally {
      setClearing(false);
    }
  }

  const fallback = keysFailed ? t('settings.unavailable') : t('settings.loading');
  return (
    <PanelSection title={t('settings.heading')} lead={t('settings.lead')} className="space-y-6">
      <div className="grid gap-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm md:grid-cols-2">
        <KeyField label={t('settings.languageModelKey')} status={keys?.languageModel} fallback={fallback} />
        <KeyField label={t('settings.voiceKey')} status={keys?.voice} fallback={fallback} />
      </div>
      <UsageSection token={token} />
      <SemanticSearchSection token={token} />
      <OpenQuestionsSection />
      <VoiceInputSection />
      {notice ? <Notice tone={notice.tone}>{notice.text}</Notice> : null}
      <div className="space-y-2">
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          trigger={t('settings.clearCache')}
          triggerClassName={dangerButton}
          title={t('settings.clearCache')}
          question={t('settings.clearCacheConfirm')}
          confirmLabel={clearing ? t('settings.clearing') : t('settings.clearCacheConfirmButton')}
          cancelLabel={t('knowledge.cancel')}
          busy={clearing}
          onConfirm={() => void clear()}
        />
        <p className="text-sm text-slate-700">{t('settings.clearCacheHint')}</p>
      </div>
    </PanelSection>
  );
}
