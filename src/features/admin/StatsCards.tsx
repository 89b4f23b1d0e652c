import { useCallback, useEffect, useState } from 'react';
import { Card } from '../../components/ui/Card';
import { formatNumber } from '../../lib/format';
import { useLanguage } from '../../i18n/language';
import { useT } from '../../i18n/language';
import { countRecentOpenQuestions } from '../../services/openQuestions';
import { fetchStats, type DashboardStats } from '../../services/stats';

/** How often the counters refresh while the dashboard is open. */
const REFRESH_MS = 15_000;

function Stat({ label, value, note, extra }: { label: string; value: string; note: string; extra?: string }) {
  return (
    <Card>
      <h3 className="text-sm font-medium text-slate-700">{label}</h3>
      <p className="mt-2 text-3xl font-extrabold tabular-nums text-brand-800">{value}</p>
      <p className="mt-1 text-sm text-slate-700">{note}</p>
      {extra ? <p className="mt-1 text-sm font-medium text-emerald-800">{extra}</p> : null}
    </Card>
  );
}

/**
 * The four counters from admin_stats() and the open questions of the last 7 days. A failed fetch is only logged (seed: nothing is shown);
 * the cards keep their last values. They refresh on an interval and whenever `refreshKey` changes
 * (e.g. a document finished processing).
 */
export function StatsCards({ refreshKey }: { refreshKey: number }) {
  const { t } = useT('admin');
  const { lang } = useLanguage();
  const [stats, setStats] = useState<DashboardStats | null>(null);
  const [openQuestions, setOpenQuestions] = useState<number | undefined>(undefined);

  const load = useCallback(() => {
    fetchStats()
      .then(setStats)
      // The seed: a failed statistics fetch is only logged.
      .catch((error: unknown) => console.error('[admin] statistics not loaded:', error));
    countRecentOpenQuestions()
      .then(setOpenQuestions)
      .catch((error: unknown) => console.error('[admin] statistics not loaded:', error));
  }, []);

  useEffect(() => {
    load();
    const timer = window.setInterval(load, REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [load, refreshKey]);

  const count = (value: number | undefined) => (value === undefined ? '…' : formatNumber(value, lang));
  const growth = stats?.conversationGrowth;
  const percent = growth === null || growth === undefined ? '' : formatNumber(Math.abs(growth), lang, growth % 1 === 0 ? 0 : 1);
  const growthNote =
    growth === null || growth === undefined
      ? t('stats.growthUnknown')
      : growth > 0
        ? t('stats.growthUp', { percent })
        : growth < 0
          ? t('stats.growthDown', { percent })
          : t('stats.growthFlat');
  const rating = stats?.averageRating;

  return (
    <section aria-labelledby="admin-stats-heading" aria-busy={stats === null}>
      <h2 id="admin-stats-heading" className="sr-only">
        {t('stats.heading')}
      </h2>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-5">
        <Stat label={t('stats.totalUsers')} value={count(stats?.totalUsers)} note={t('stats.totalUsersNote')} />
        <Stat
          label={t('stats.activeConversations')}
          value={count(stats?.activeConversations)}
          note={t('stats.activeConversationsNote')}
          extra={growthNote}
        />
        <Stat label={t('stats.documentsProcessed')} value={count(stats?.documentsProcessed)} note={t('stats.documentsProcessedNote')} />
        <Stat
          label={t('stats.averageRating')}
          value={
            stats === null
              ? '…'
              : rating === null || rating === undefined
                ? t('stats.noRating')
                : t('stats.averageRatingValue', { rating: formatNumber(rating, lang, 1) })
          }
          note={rating === null || rating === undefined ? t('stats.noRatingNote') : t('stats.ratingNote')}
        />
        <Stat label={t('stats.openQuestions')} value={count(openQuestions)} note={t('stats.openQuestionsNote')} />
      </div>
    </section>
  );
}
