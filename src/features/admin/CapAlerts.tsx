import { useCallback, useEffect, useState } from 'react';
import { useLanguage, useT } from '../../i18n/language';
import { formatNumber } from '../../lib/format';
import { fetchUsage, type Usage, type UsageKind } from '../../services/systemSettings';

/** Refreshed as often as the counters. */
const REFRESH_MS = 15_000;

const KINDS: UsageKind[] = ['modelTokens', 'ttsCharacters', 'sttSeconds', 'embeddingTokens'];

/**
 * How far today's spend of a kind is: null below 80 % of its cap; 80 from there; 100 once the cap
 * is reached or a request was refused for it (a request that does not fit the rest is refused
 * before the last unit is spent).
 */
export function capLevel(usage: Usage, kind: UsageKind): { level: 80 | 100; percent: number } | null {
  const cap = usage.caps[kind];
  const percent = cap > 0 ? Math.min(100, Math.floor((usage.today[kind] * 100) / cap)) : 0;
  const refused = usage.alerts.some((alert) => alert.kind === kind && alert.threshold === 100);
  if (refused || percent >= 100) return { level: 100, percent };
  return percent >= 80 ? { level: 80, percent } : null;
}

/**
 * The operator's warning on the dashboard, above the counters: a daily cap at 80 % or reached,
 * with what was spent and by how many clients. Nothing is shown while every cap is below 80 %
 * (or the usage cannot be read: the settings tab says so).
 */
export function CapAlerts({ token }: { token: string }) {
  const { t } = useT('admin');
  const { lang } = useLanguage();
  const [usage, setUsage] = useState<Usage | null>(null);

  const load = useCallback(() => {
    fetchUsage(token)
      .then(setUsage)
      .catch((error: unknown) => console.error('[admin] usage not loaded:', error));
  }, [token]);

  useEffect(() => {
    load();
    const timer = window.setInterval(load, REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [load]);

  const alerts = usage === null ? [] : KINDS.flatMap((kind) => {
    const state = capLevel(usage, kind);
    return state ? [{ kind, ...state }] : [];
  });
  if (usage === null || alerts.length === 0) return null;
  return (
    <section aria-labelledby="admin-cap-alerts-heading" className="space-y-2">
      <h2 id="admin-cap-alerts-heading" className="sr-only">
        {t('capAlerts.heading')}
      </h2>
      {alerts.map(({ kind, level, percent }) => {
        const values = {
          kind: t(`usage.${kind}`),
          percent: formatNumber(percent, lang),
          used: formatNumber(usage.today[kind], lang),
          cap: formatNumber(usage.caps[kind], lang),
        };
        const clients = kind === 'embeddingTokens' ? null : usage.clients[kind];
        return (
          <div
            key={kind}
            role={level === 100 ? 'alert' : 'status'}
            data-cap-alert={kind}
            data-level={level}
            className={`rounded-xl border px-4 py-3 text-sm ${level === 100 ? 'border-red-300 bg-red-50 text-red-900' : 'border-amber-300 bg-amber-50 text-amber-900'}`}
          >
            <p className="font-semibold">{level === 100 ? t('capAlerts.reached', values) : t('capAlerts.nearly', values)}</p>
            <p className="mt-1">
              {clients === null ? t('capAlerts.spentByAdmins', values) : t('capAlerts.spentByClients', { ...values, count: clients })}{' '}
              {level === 100 ? t(`capAlerts.paused.${kind}`) : t('capAlerts.raiseHint')}
            </p>
          </div>
        );
      })}
    </section>
  );
}
