import { useState } from 'react';
import { buttonClass } from '../../../components/ui/buttonStyles';
import { useT } from '../../../i18n/language';
import type { DocumentItem } from '../../../services/documents';
import { Notice } from '../Notice';
import { canRefresh, documentPhase } from './documentPhase';
import { documentWentAway, refreshDocument } from './processUpload';

type Outcome = { tone: 'success' | 'error'; text: string };

/**
 * "Alle neu einlesen": every processed document read again from its stored PDF, one after the
 * other (refreshDocument), as after an update that improved the PDF extraction. The documents are
 * those processed when the run starts. One that fails keeps its passages and is named at the end;
 * one deleted meanwhile is left out. Offered from two processed documents on (one has its own
 * button in its row).
 */
export function RefreshAll({ documents, now }: { documents: readonly DocumentItem[]; now: number }) {
  const { t } = useT('admin');
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const processed = documents.filter((document) => canRefresh(documentPhase(document, now)));
  if (processed.length < 2 && progress === null && outcome === null) return null;

  async function start() {
    const queue = [...processed];
    const failed: string[] = [];
    let refreshed = 0;
    setOutcome(null);
    for (const [index, document] of queue.entries()) {
      setProgress({ done: index, total: queue.length });
      try {
        await refreshDocument(document);
        refreshed += 1;
      } catch (caught) {
        if (documentWentAway(caught)) continue;
        console.error('[admin] reading again failed:', caught);
        failed.push(document.title);
      }
    }
    setProgress(null);
    setOutcome(
      failed.length === 0
        ? { tone: 'success', text: t('knowledge.refreshAllDone', { count: refreshed }) }
        : { tone: 'error', text: t('knowledge.refreshAllFailed', { done: refreshed, total: refreshed + failed.length, titles: failed.join(', ') }) },
    );
  }

  return (
    <div className="flex flex-wrap items-center gap-3">
      <button type="button" className={buttonClass('secondary')} disabled={progress !== null} onClick={() => void start()}>
        {t('knowledge.refreshAll')}
      </button>
      {progress ? (
        <Notice tone="info">{t('knowledge.refreshAllProgress', { done: progress.done, total: progress.total })}</Notice>
      ) : outcome ? (
        <Notice tone={outcome.tone}>{outcome.text}</Notice>
      ) : null}
    </div>
  );
}
