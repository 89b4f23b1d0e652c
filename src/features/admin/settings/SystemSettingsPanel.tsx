import type { Session } from '@supabase/supabase-js';
import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useId, useState } from 'react';
import { buttonClass } from '../../../components/ui/buttonStyles';
import { useAdminT } from '../../../i18n/namespaces/admin';
import { clearVoiceCache, fetchProviderKeys, type KeyStatus, type ProviderKeys } from '../../../services/systemSettings';
import { Notice, type NoticeTone } from '../Notice';

function KeyField({ label, status, fallback }: { label: string; status: KeyStatus | undefined; fallback: string }) {
  const { t } = useAdminT();
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

/** Systemeinstellungen: whether the provider keys are set (masked), and 'Cache leeren'. */
export function SystemSettingsPanel({ session }: { session: Session }) {
  const { t } = useAdminT();
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
        console.info('[admin] key status not loaded:', error);
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
      console.info('[admin] cache not cleared:', error);
      setNotice({ tone: 'error', text: t('settings.clearFailed') });
      setConfirming(false);
    } finally {
      setClearing(false);
    }
  }

  const fallback = keysFailed ? t('settings.unavailable') : t('settings.loading');
  return (
    <section aria-labelledby="settings-heading" className="space-y-6">
      <div>
        <h2 id="settings-heading" className="text-xl font-bold text-slate-900">
          {t('settings.heading')}
        </h2>
        <p className="mt-1 text-slate-700">{t('settings.lead')}</p>
      </div>
      <div className="grid gap-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm md:grid-cols-2">
        <KeyField label={t('settings.languageModelKey')} status={keys?.languageModel} fallback={fallback} />
        <KeyField label={t('settings.voiceKey')} status={keys?.voice} fallback={fallback} />
      </div>
      {notice ? <Notice tone={notice.tone}>{notice.text}</Notice> : null}
      <div className="space-y-2">
        <Dialog.Root open={confirming} onOpenChange={setConfirming}>
          <Dialog.Trigger className={buttonClass('primary', 'bg-red-700 hover:bg-red-800 focus-visible:outline-red-700')}>
            {t('settings.clearCache')}
          </Dialog.Trigger>
          <Dialog.Portal>
            <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
            <Dialog.Content className="fixed left-1/2 top-1/2 z-50 w-[min(92vw,28rem)] -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl">
              <Dialog.Title className="text-lg font-bold text-slate-900">{t('settings.clearCache')}</Dialog.Title>
              <Dialog.Description className="mt-2 text-slate-700">{t('settings.clearCacheConfirm')}</Dialog.Description>
              <div className="mt-6 flex justify-end gap-3">
                <Dialog.Close className={buttonClass('secondary')}>{t('knowledge.cancel')}</Dialog.Close>
                <button
                  type="button"
                  disabled={clearing}
                  className={buttonClass('primary', 'bg-red-700 hover:bg-red-800 focus-visible:outline-red-700')}
                  onClick={() => void clear()}
                >
                  {clearing ? t('settings.clearing') : t('settings.clearCacheConfirmButton')}
                </button>
              </div>
            </Dialog.Content>
          </Dialog.Portal>
        </Dialog.Root>
        <p className="text-sm text-slate-700">{t('settings.clearCacheHint')}</p>
      </div>
    </section>
  );
}
