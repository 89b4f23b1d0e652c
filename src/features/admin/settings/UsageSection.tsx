import { useCallback, useEffect, useState } from 'react';
import { useLanguage } from '../../../i18n/language';
import { useT } from '../../../i18n/language';
import { formatNumber } from '../../../lib/format';
import { fetchUsage, type Usage, type UsageKind } from '../../../services/systemSettings';
import { Notice } from '../Notice';

/** Refreshed as often as the counters. */
const REFRESH_MS = 15_000;

const ROWS: UsageKind[] = ['modelTokens', 'ttsCharacters', 'sttSeconds', 'embeddingTokens'];

/**
 * Today's spend against each daily cap, and by how many clients. A reached cap pauses the live
 * coach until midnight; the figures keep their last values when a refresh fails. A budget too
 * small for a new visitor's first question, greeting or utterance is named with its fix.
 */
export function UsageSection({ token }: { token: string }) {
  const { t } = useT('admin');
  const { lang } = useLanguage();
  const [usage, setUsage] = useState<Usage | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(() => {
    fetchUsage(token)
      .then((loaded) => {
        setUsage(loaded);
        setFailed(false);
      })
      .catch((error: unknown) => {
        console.error('[admin] usage not loaded:', error);
        setFailed(true);
      });
  }, [token]);

  useEffect(() => {
    load();
    const timer = window.setInterval(load, REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [load]);

  return (
    <section aria-labelledby="admin-usage-heading" aria-busy={usage === null} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h3 id="admin-usage-heading" className="text-lg font-semibold text-slate-900">
        {t('usage.heading')}
      </h3>
      <p className="mt-1 text-sm text-slate-700">{t('usage.lead')}</p>
      {usage === null ? (
        <p className="mt-4 text-sm text-slate-700">{failed ? t('settings.unavailable') : t('settings.loading')}</p>
      ) : (
        <>
          <dl className="mt-4 grid gap-4 md:grid-cols-4">
            {ROWS.map((key) => {
              const reached = usage.today[key] >= usage.caps[key];
              return (
                <div key={key} data-usage={key} data-reached={reached}>
                  <dt className="text-sm font-medium text-slate-700">{t(`usage.${key}`)}</dt>
                  <dd className="mt-1 text-2xl font-extrabold tabular-nums text-brand-800">
                    {t('usage.ofCap', { used: formatNumber(usage.today[key], lang), cap: formatNumber(usage.caps[key], lang) })}
                  </dd>
                  {key === 'embeddingTokens' ? null : <dd className="text-sm text-slate-700">{t('usage.clients', { count: usage.clients[key] })}</dd>}
                  {reached ? <dd className="mt-1 text-sm font-medium text-red-800">{t('usage.reached')}</dd> : null}
                </div>
              );
            })}
          </dl>
          {usage.problems.map((problem) => (
            <Notice key={`${problem.kind}-${problem.scope}`} tone="error" className="mt-4">
              {t('usage.problem', {
                scope: t(problem.scope === 'client' ? 'usage.scopeClient' : 'usage.scopeNetwork'),
                budget: formatNumber(problem.budget, lang),
                kind: t(`usage.${problem.kind}`),
                needed: formatNumber(problem.needed, lang),
                setting: problem.fix.setting,
                value: formatNumber(problem.fix.value, lang),
              })}
            </Notice>
          ))}
        </>
      )}
    </section>
  );
}
