import { useId, useState } from 'react';
import { buttonClass } from '../../../components/ui/buttonStyles';
import { formatFileSize, formatGermanDateTime } from '../../../lib/format';
import { useLanguage } from '../../../i18n/language';
import { useT } from '../../../i18n/language';
import { deleteDocument, DocumentError, PROCESSING_STUCK_AFTER_MS, signedPdfUrl, type DocumentItem } from '../../../services/documents';
import { Notice } from '../Notice';
import { ConfirmDialog, PanelSection } from '../Panel';
import { canRefresh, canReprocess, documentPhase, type DocumentPhase } from './documentPhase';
import { documentWentAway, refreshDocument, reprocessDocument } from './processUpload';
import { RefreshAll } from './RefreshAll';
import { StatusIcon } from './StatusIcon';
import { usePhaseClock, useProcessingHere, type DocumentsState } from './useDocuments';

const STUCK_MINUTES = PROCESSING_STUCK_AFTER_MS / 60_000;

function StatusBadge({ document, phase }: { document: DocumentItem; phase: DocumentPhase }) {
  const { t } = useT('admin');
  const tooltipId = useId();
  const label = t(`knowledge.status.${document.status}`);
  if (phase === 'stuck' || phase === 'deleting' || phase === 'deleteIncomplete') {
    const hint =
      phase === 'stuck' ? t('knowledge.stuckHint', { minutes: STUCK_MINUTES }) : phase === 'deleteIncomplete' ? t('knowledge.deleteIncompleteHint') : null;
    return (
      <span className="inline-flex max-w-xs flex-col gap-0.5">
        <span className="inline-flex items-center gap-1.5">
          <StatusIcon status={phase === 'stuck' ? 'STUCK' : ''} />
          <span className={`text-sm font-medium ${phase === 'deleting' ? 'text-slate-700' : phase === 'stuck' ? 'text-amber-900' : 'text-red-800'}`}>{t(`knowledge.phase.${phase}`)}</span>
        </span>
        {hint ? <span className="text-xs text-slate-700" data-field="phase-hint">{hint}</span> : null}
      </span>
    );
  }
  if (document.status === 'ERROR') {
    // The reason shows on hover and on keyboard focus, and is the badge's description for screen readers.
    return (
      <span className="group relative inline-flex">
        <button type="button" aria-describedby={tooltipId} className="inline-flex items-center gap-1.5 rounded focus-visible:outline-2 focus-visible:outline-brand-700">
          <StatusIcon status={document.status} />
          <span className="text-sm font-medium text-red-800">{label}</span>
        </button>
        <span
          id={tooltipId}
          role="tooltip"
          className="invisible absolute left-0 top-full z-10 mt-1 w-64 rounded-lg bg-slate-900 px-3 py-2 text-xs text-white opacity-0 shadow-lg transition-opacity group-focus-within:visible group-focus-within:opacity-100 group-hover:visible group-hover:opacity-100"
        >
          {t('knowledge.errorReason', { reason: document.error ?? '' })}
        </span>
      </span>
    );
  }
  return (
    <span className="inline-flex items-center gap-1.5">
      <StatusIcon status={document.status} />
      <span className={`text-sm font-medium ${document.status === 'COMPLETED' ? 'text-emerald-800' : 'text-amber-800'}`}>{label}</span>
    </span>
  );
}

type DeleteState = 'idle' | 'busy' | 'failed';

function DeleteButton({
  document,
  onDeleted,
  onStateChange,
}: {
  document: DocumentItem;
  onDeleted: (id: string) => void;
  onStateChange: (state: DeleteState) => void;
}) {
  const { t } = useT('admin');
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    setBusy(true);
    onStateChange('busy');
    setError(null);
    try {
      await deleteDocument(document);
      setOpen(false);
      onStateChange('idle');
      onDeleted(document.id);
    } catch (caught) {
      console.error('[admin] delete failed:', caught);
      onStateChange('failed');
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setError(null);
      }}
      trigger={t('knowledge.delete')}
      triggerClassName={buttonClass('ghost', 'text-red-800')}
      triggerLabel={t('knowledge.deleteLabel', { title: document.title })}
      title={t('knowledge.deleteLabel', { title: document.title })}
      question={t('knowledge.deleteConfirm', { title: document.title })}
      confirmLabel={t('knowledge.deleteConfirmButton')}
      cancelLabel={t('knowledge.cancel')}
      busy={busy}
      error={error}
      onConfirm={() => void confirm()}
    />
  );
}

type Outcome = { tone: 'success' | 'error'; text: string };

/**
 * A document's own action in its row: the button (busy while it runs) and what came of it next to
 * it. `run` resolves with what to say (null: nothing) and may throw: a document gone or being
 * deleted meanwhile says nothing (the list follows by itself), any other failure is `failed(error)`.
 */
function RowAction({
  label,
  busyLabel,
  ariaLabel,
  variant,
  noticeClassName,
  run,
  failed,
}: {
  label: string;
  busyLabel: string;
  ariaLabel: string;
  variant: 'secondary' | 'ghost';
  noticeClassName: string;
  run: () => Promise<Outcome | null>;
  failed: (error: unknown) => Outcome;
}) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  async function start() {
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome(await run());
    } catch (caught) {
      if (!documentWentAway(caught)) setOutcome(failed(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <span className="inline-flex flex-col items-start gap-1">
      <button type="button" className={buttonClass(variant)} aria-label={ariaLabel} disabled={busy} onClick={() => void start()}>
        {busy ? busyLabel : label}
      </button>
      {outcome ? (
        <Notice tone={outcome.tone} className={noticeClassName}>
          {outcome.text}
        </Notice>
      ) : null}
    </span>
  );
}

const refusalOf = (error: unknown) => (error instanceof DocumentError ? error.refusal : undefined);

/**
 * "Erneut verarbeiten" for an ERROR or stuck document (see reprocessDocument). A refusal or failure
 * shows next to the button in the page's language; the document itself then keeps its state.
 */
function ReprocessButton({ document }: { document: DocumentItem }) {
  const { t } = useT('admin');
  return (
    <RowAction
      label={t('knowledge.reprocess')}
      busyLabel={t('knowledge.reprocessStarting')}
      ariaLabel={t('knowledge.reprocessLabel', { title: document.title })}
      variant="secondary"
      noticeClassName="text-sm"
      run={async () => {
        await reprocessDocument(document.id);
        return null;
      }}
      failed={(error) => {
        console.error('[admin] reprocess failed:', error);
        return { tone: 'error', text: refusalOf(error) === 'conflict' ? t('knowledge.reprocessBusy') : t('knowledge.reprocessFailed') };
      }}
    />
  );
}

/**
 * "Neu einlesen" for a COMPLETED document (see refreshDocument): its text is extracted again from
 * the stored PDF, so a better extraction reaches it. The document keeps its passages until the new
 * ones replace them; the outcome shows next to the button.
 */
function RefreshButton({ document }: { document: DocumentItem }) {
  const { t } = useT('admin');
  return (
    <RowAction
      label={t('knowledge.refresh')}
      busyLabel={t('knowledge.refreshBusy')}
      ariaLabel={t('knowledge.refreshLabel', { title: document.title })}
      variant="ghost"
      noticeClassName="max-w-xs text-sm"
      run={async () => ({ tone: 'success', text: t('knowledge.refreshed', { count: await refreshDocument(document) }) })}
      failed={(error) => {
        console.error('[admin] reading again failed:', error);
        return { tone: 'error', text: refusalOf(error) === 'unreadable' ? t('knowledge.refreshUnreadable') : t('knowledge.refreshFailed') };
      }}
    />
  );
}

/**
 * The stored PDF opens in a new tab through a signed URL that works for a minute: the bucket is
 * private, and a plain link cannot carry the admin's token. The tab opens at once (in the click,
 * so no popup blocker stops it) and goes to the file when the link is signed.
 */
function PdfLink({ document }: { document: DocumentItem }) {
  const { t } = useT('admin');
  const [failed, setFailed] = useState(false);

  async function open(tab: Window | null) {
    setFailed(false);
    try {
      const url = document.storage_path === null ? document.url : await signedPdfUrl(document.storage_path);
      if (tab) tab.location.href = url;
      else window.open(url, '_blank', 'noopener');
    } catch (caught) {
      console.error('[admin] opening the file failed:', caught);
      tab?.close();
      setFailed(true);
    }
  }

  return (
    <>
      <a
        href={document.url}
        target="_blank"
        rel="noopener noreferrer"
        onClick={(event) => {
          event.preventDefault();
          const tab = window.open('', '_blank');
          if (tab) tab.opener = null;
          void open(tab);
        }}
        className="break-all font-semibold text-slate-900 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-700"
      >
        {document.title}
      </a>
      {failed ? (
        <Notice tone="error" className="text-sm">
          {t('knowledge.openFailed')}
        </Notice>
      ) : null}
    </>
  );
}

function DocumentRow({ document, now, processingHere, onDeleted }: { document: DocumentItem; now: number; processingHere: boolean; onDeleted: (id: string) => void }) {
  const { t } = useT('admin');
  const { lang } = useLanguage();
  const [deleteState, setDeleteState] = useState<DeleteState>('idle');
  const phase = documentPhase(document, now, {
    processingHere,
    deletingHere: deleteState === 'busy',
    deleteFailedHere: deleteState === 'failed',
  });
  return (
    <li data-document-id={document.id} data-status={document.status} data-phase={phase} className="flex flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
      {/* At least 14rem: on a phone the title keeps its line and the actions wrap below it. */}
      <div className="min-w-[14rem] flex-1">
        <PdfLink document={document} />
        <p className="text-sm text-slate-700">
          <span data-field="size">{document.file_size === null ? '–' : formatFileSize(document.file_size, lang)}</span>
          {' · '}
          <span data-field="uploaded">{t('knowledge.uploadedAt', { date: formatGermanDateTime(document.created_at) })}</span>
        </p>
      </div>
      <StatusBadge document={document} phase={phase} />
      {canReprocess(phase) ? <ReprocessButton document={document} /> : null}
      {canRefresh(phase) ? <RefreshButton document={document} /> : null}
      <DeleteButton document={document} onDeleted={onDeleted} onStateChange={setDeleteState} />
    </li>
  );
}

/** 'Dokumentenverwaltung': every document with size, status and upload time, newest first, live. */
export function DocumentList({ state }: { state: DocumentsState }) {
  const { t } = useT('admin');
  const { documents, loading, error, live, forget } = state;
  const now = usePhaseClock(documents);
  const processingHere = useProcessingHere();

  return (
    <PanelSection title={t('knowledge.listHeading')} lead={t('knowledge.listLead')} busy={loading}>
      {error ? <Notice tone="error">{error}</Notice> : null}
      {!live && !loading ? <Notice tone="info">{t('knowledge.reconnecting')}</Notice> : null}
      {!loading && documents.length === 0 && !error ? <p className="text-slate-700">{t('knowledge.empty')}</p> : null}
      <RefreshAll documents={documents} now={now} />
      <ul className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white" aria-label={t('knowledge.listHeading')}>
        {documents.map((document) => (
          <DocumentRow key={document.id} document={document} now={now} processingHere={processingHere.has(document.id)} onDeleted={forget} />
        ))}
      </ul>
    </PanelSection>
  );
}
