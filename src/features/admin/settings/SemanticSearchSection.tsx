import { useCallback, useEffect, useState } from 'react';
import { useLanguage } from '../../../i18n/language';
import { useT } from '../../../i18n/language';
import { formatNumber } from '../../../lib/format';
import { embedPendingPassages, fetchEmbeddingStatus, type EmbeddingStatus } from '../../../services/embeddings';
import { Notice, type NoticeTone } from '../Notice';
import { buttonClass } from '../../../components/ui/buttonStyles';

/**
 * Whether the coach's knowledge search is hybrid (full text and embeddings, with the language model
 * key) and how many passages wait for their embedding, with "Einbettungen erstellen" for them:
 * documents processed before the key was set, or whose embedding failed after the upload.
 */
export function SemanticSearchSection({ token }: { token: string }) {
  const { t } = useT('admin');
  const { lang } = useLanguage();
  const [status, setStatus] = useState<EmbeddingStatus | null>(null);
  const [failed, setFailed] = useState(false);
  const [working, setWorking] = useState(false);
  const [notice, setNotice] = useState<{ tone: NoticeTone; text: string } | null>(null);

  const load = useCallback(() => {
    fetchEmbeddingStatus(token).then(
      (loaded) => {
        setStatus(loaded);
        setFailed(false);
      },
      (error: unknown) => {
        console.error('[admin] embedding status not loaded:', error);
        setFailed(true);
      },
    );
  }, [token]);

  useEffect(load, [load]);

  async function embed() {
    setWorking(true);
    setNotice(null);
    try {
      const result = await embedPendingPassages(token);
      setStatus(result);
      setNotice({ tone: 'success', text: t('semantic.embedded', { count: result.embedded }) });
    } catch (error) {
      console.error('[admin] embeddings not created:', error);
      setNotice({ tone: 'error', text: t('semantic.embedFailed') });
      load();
    } finally {
      setWorking(false);
    }
  }

  let state: string;
  if (status === null) state = failed ? t('settings.unavailable') : t('settings.loading');
  else if (!status.enabled) state = t('semantic.off');
  else if (status.pending === 0) state = t('semantic.ready');
  else state = t('semantic.pending', { count: status.pending, formatted: formatNumber(status.pending, lang) });

  return (
    <section aria-labelledby="admin-semantic-heading" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h3 id="admin-semantic-heading" className="text-lg font-semibold text-slate-900">
        {t('semantic.heading')}
      </h3>
      <p className="mt-1 text-sm text-slate-700">{t('semantic.lead')}</p>
      <p className="mt-4 text-sm font-medium text-slate-900" data-testid="semantic-status" data-enabled={status?.enabled ?? ''}>
        {state}
      </p>
      {notice ? (
        <div className="mt-3">
          <Notice tone={notice.tone}>{notice.text}</Notice>
        </div>
      ) : null}
      {status?.enabled && status.pending > 0 ? (
        <button type="button" className={`${buttonClass('secondary')} mt-4`} disabled={working} onClick={() => void embed()}>
          {working ? t('semantic.embedding') : t('semantic.embed')}
        </button>
      ) : null}
    </section>
  );
}
