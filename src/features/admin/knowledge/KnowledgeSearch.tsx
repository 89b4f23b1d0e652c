import { useId, useState } from 'react';
import { buttonClass } from '../../../components/ui/buttonStyles';
import { useT } from '../../../i18n/language';
import { fieldText } from '../../../lib/formData';
import { searchKnowledge, type KnowledgePassage } from '../../../services/knowledge';
import { Notice } from '../Notice';
import { PanelSection } from '../Panel';

/** A question in, the passages the coach would be given out (the same search the coach function runs). */
export function KnowledgeSearch() {
  const { t } = useT('admin');
  const inputId = useId();
  const [busy, setBusy] = useState(false);
  const [results, setResults] = useState<KnowledgePassage[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function search(event: { preventDefault: () => void; currentTarget: HTMLFormElement }) {
    event.preventDefault();
    const query = fieldText(new FormData(event.currentTarget), 'query').trim();
    if (!query) return;
    setBusy(true);
    setError(null);
    try {
      setResults(await searchKnowledge(query));
    } catch (caught) {
      console.error('[admin] search failed:', caught);
      setError(caught instanceof Error ? caught.message : String(caught));
      setResults(null);
    } finally {
      setBusy(false);
    }
  }

  return (
    <PanelSection title={t('knowledge.searchHeading')} lead={t('knowledge.searchLead')}>
      <form role="search" onSubmit={(event) => void search(event)} className="flex flex-wrap items-end gap-3">
        <div className="min-w-0 flex-1">
          <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
            {t('knowledge.searchLabel')}
          </label>
          <input
            id={inputId}
            name="query"
            type="search"
            required
            maxLength={2000}
            placeholder={t('knowledge.searchPlaceholder')}
            className="mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 focus-visible:border-brand-700 focus-visible:outline-2 focus-visible:outline-brand-700"
          />
        </div>
        <button type="submit" disabled={busy} className={buttonClass('primary')}>
          {busy ? t('knowledge.searching') : t('knowledge.searchButton')}
        </button>
      </form>
      {error ? <Notice tone="error">{error}</Notice> : null}
      <div aria-live="polite">
        {results === null ? null : results.length === 0 ? (
          <p className="text-slate-700">{t('knowledge.noResults')}</p>
        ) : (
          <>
            <p className="text-sm font-medium text-slate-700">{t('knowledge.resultsCount', { count: results.length })}</p>
            <p className="text-xs text-slate-700">{t('knowledge.floorNote')}</p>
            <ol className="mt-2 space-y-3" aria-label={t('knowledge.searchHeading')}>
              {results.map((passage) => (
                <li key={`${passage.documentId}-${String(passage.ordinal)}`} className="rounded-xl border border-slate-200 bg-white p-4">
                  <p className="text-sm font-semibold text-slate-900">
                    {passage.documentTitle} · {t('knowledge.passage', { ordinal: passage.ordinal })}
                  </p>
                  <p className="mt-1 text-xs text-slate-700">
                    <span>{t('knowledge.score', { score: Math.round(passage.score * 100) })}</span>
                    {passage.matchedTerms.length > 0 ? <span> · {t('knowledge.matchedTerms', { terms: passage.matchedTerms.join(', ') })}</span> : null}
                  </p>
                  <p className="mt-1 whitespace-pre-line text-sm text-slate-800">{passage.content}</p>
                </li>
              ))}
            </ol>
          </>
        )}
      </div>
    </PanelSection>
  );
}
