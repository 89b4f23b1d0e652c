import { PROCESSING_STUCK_AFTER_MS } from '../../../lib/documentProcessing';
import type { DocumentItem } from '../../../services/documents';

/**
 * What the list shows for a document. The database knows three statuses; two situations are read
 * from the row's timestamps on top:
 *
 * - stuck: PROCESSING for longer than PROCESSING_STUCK_AFTER_MS (5 minutes) and not being
 *   processed in this tab. The text is extracted in the admin's browser, so a closed tab leaves a
 *   document PROCESSING for good; 5 minutes is far longer than a normal run takes. Another tab
 *   still reading a very large PDF cannot be told apart; a second run there only writes the same
 *   passages again. "Erneut verarbeiten" is offered.
 * - deleting / deleteIncomplete: a delete has begun (`deleting_since`). While it runs (in this tab,
 *   or for up to DELETE_INCOMPLETE_AFTER_MS elsewhere) it is "being deleted"; after that, or at
 *   once when this tab's delete failed, the delete is incomplete and the same delete finishes it.
 *
 * Time is the browser's clock against the server's timestamps. A clock that runs ahead can show a
 * document as stuck early; the server re-checks before it lets "Erneut verarbeiten" start, so
 * a wrong clock never starts a second run of a document that is still being processed.
 */
export type DocumentPhase = 'completed' | 'error' | 'processing' | 'stuck' | 'deleting' | 'deleteIncomplete';

/** A delete normally takes three quick requests; after this long without finishing it has failed. */
export const DELETE_INCOMPLETE_AFTER_MS = 60 * 1000;

export interface LocalActivity {
  /** This tab is extracting or ingesting the document right now. */
  processingHere?: boolean;
  /** This tab is deleting the document right now. */
  deletingHere?: boolean;
  /** This tab's last delete of the document failed. */
  deleteFailedHere?: boolean;
}

type PhaseFields = Pick<DocumentItem, 'status' | 'processing_started_at' | 'deleting_since'>;

function since(timestamp: string, now: number): number {
  const at = Date.parse(timestamp);
  return Number.isNaN(at) ? 0 : now - at;
}

export function documentPhase(document: PhaseFields, now: number, local: LocalActivity = {}): DocumentPhase {
  if (document.deleting_since !== null) {
    if (local.deletingHere) return 'deleting';
    if (local.deleteFailedHere || since(document.deleting_since, now) >= DELETE_INCOMPLETE_AFTER_MS) return 'deleteIncomplete';
    return 'deleting';
  }
  switch (document.status) {
    case 'COMPLETED':
      return 'completed';
    case 'ERROR':
      return 'error';
    case 'PROCESSING':
      return !local.processingHere && since(document.processing_started_at, now) >= PROCESSING_STUCK_AFTER_MS ? 'stuck' : 'processing';
  }
}

/** "Erneut verarbeiten" is offered for ERROR and for stuck documents. */
export const canReprocess = (phase: DocumentPhase): boolean => phase === 'error' || phase === 'stuck';

/** "Neu einlesen" (its text extracted again, the passages kept until then) is offered for processed documents. */
export const canRefresh = (phase: DocumentPhase): boolean => phase === 'completed';

/**
 * The next moment (ms since the epoch) at which a document's phase changes by time alone, or null
 * when none will: the list re-renders then, so a document turns stuck while the tab is open.
 */
export function nextPhaseChange(documents: readonly PhaseFields[], now: number): number | null {
  let next: number | null = null;
  for (const document of documents) {
    let at: number | null = null;
    if (document.deleting_since !== null) at = Date.parse(document.deleting_since) + DELETE_INCOMPLETE_AFTER_MS;
    else if (document.status === 'PROCESSING') at = Date.parse(document.processing_started_at) + PROCESSING_STUCK_AFTER_MS;
    if (at !== null && !Number.isNaN(at) && at > now && (next === null || at < next)) next = at;
  }
  return next;
}
