import type { Session } from '@supabase/supabase-js';
import * as Tabs from '@radix-ui/react-tabs';
import { lazy, Suspense, useCallback, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { buttonClass } from '../../components/ui/buttonStyles';
import { useT } from '../../i18n/language';
import { signOut } from '../../services/auth';
import { CapAlerts } from './CapAlerts';
import { OpenQuestionsPanel } from './questions/OpenQuestionsPanel';
import { StatsCards } from './StatsCards';
import { VoiceSettingsPanel } from './voice/VoiceSettingsPanel';
import { SystemSettingsPanel } from './settings/SystemSettingsPanel';

// FilePond and pdf.js are big; they load when the knowledge tab is first opened.
const KnowledgePanel = lazy(() => import('./knowledge/KnowledgePanel'));

const tabIds = ['voice', 'knowledge', 'questions', 'settings'] as const;
type TabId = (typeof tabIds)[number];
const isTabId = (value: string | null): value is TabId => tabIds.includes(value as TabId);

const tabClass =
  'rounded-t-lg border-b-2 border-transparent px-4 py-2.5 text-sm font-semibold text-slate-700 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-brand-700 data-[state=active]:border-brand-700 data-[state=active]:text-brand-800';

/** The Master Admin Dashboard: counters and the tabs; the chosen tab lives in the URL (?tab=). */
export function Dashboard({ session }: { session: Session }) {
  const { t } = useT('admin');
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: TabId = isTabId(requested) ? requested : 'voice';
  const [statsKey, setStatsKey] = useState(0);
  const refreshStats = useCallback(() => setStatsKey((key) => key + 1), []);
  const knowledgeTab = useRef<HTMLButtonElement>(null);
  const selectTab = (value: string) => {
    if (!isTabId(value)) return;
    const next = new URLSearchParams(params);
    next.set('tab', value);
    setParams(next, { replace: true });
  };
  // "Wissen hinzufügen": to the upload, with the focus on the knowledge tab (the button is gone).
  const addKnowledge = () => {
    selectTab('knowledge');
    knowledgeTab.current?.focus();
  };

  return (
    <div className="mx-auto max-w-6xl space-y-8 px-4 pb-20">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-700">{t('dashboard.signedInAs', { email: session.user.email ?? '' })}</p>
        <button type="button" className={buttonClass('secondary')} onClick={() => void signOut()}>
          {t('dashboard.signOut')}
        </button>
      </div>
      <CapAlerts token={session.access_token} />
      <StatsCards refreshKey={statsKey} />
      <Tabs.Root
        value={tab}
        onValueChange={selectTab}
      >
        <Tabs.List aria-label={t('dashboard.tabsLabel')} className="flex flex-wrap gap-1 border-b border-slate-200">
          {tabIds.map((id) => (
            <Tabs.Trigger key={id} value={id} className={tabClass} ref={id === 'knowledge' ? knowledgeTab : undefined}>
              {t(`dashboard.tabs.${id}`)}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="voice" className="pt-6 focus-visible:outline-2 focus-visible:outline-brand-700">
          <VoiceSettingsPanel session={session} />
        </Tabs.Content>
        <Tabs.Content value="knowledge" className="pt-6 focus-visible:outline-2 focus-visible:outline-brand-700">
          <Suspense fallback={<p className="text-slate-700" aria-busy="true">…</p>}>
            <KnowledgePanel onDocumentSettled={refreshStats} />
          </Suspense>
        </Tabs.Content>
        <Tabs.Content value="questions" className="pt-6 focus-visible:outline-2 focus-visible:outline-brand-700">
          <OpenQuestionsPanel onAddKnowledge={addKnowledge} />
        </Tabs.Content>
        <Tabs.Content value="settings" className="pt-6 focus-visible:outline-2 focus-visible:outline-brand-700">
          <SystemSettingsPanel session={session} />
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
