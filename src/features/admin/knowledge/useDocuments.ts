import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { LiveListSync } from '../../../lib/liveList';
import { listDocuments, subscribeToDocuments, type DocumentChange, type DocumentItem } from '../../../services/documents';
import { useLiveList } from '../useLiveList';
import { nextPhaseChange } from './documentPhase';
import { processingHere } from './processingHere';

/** Applies one realtime change the seed's way: inserts prepended, updates replaced by id, deletes removed by id. */
export function applyDocumentChange(list: readonly DocumentItem[], change: DocumentChange): DocumentItem[] {
  switch (change.type) {
    case 'INSERT':
      return [change.document, ...list.filter((item) => item.id !== change.document.id)];
    case 'UPDATE':
      return list.some((item) => item.id === change.document.id)
        ? list.map((item) => (item.id === change.document.id ? change.document : item))
        : [change.document, ...list];
    case 'DELETE':
      return list.filter((item) => item.id !== change.id);
  }
}

/** The document list's sync: loads and realtime changes that overlap (see LiveListSync). */
export class DocumentListSync extends LiveListSync<DocumentItem, DocumentChange> {
  constructor() {
    super(applyDocumentChange);
  }

  get documents(): DocumentItem[] {
    return this.items;
  }
}

export interface DocumentsState {
  documents: DocumentItem[];
  loading: boolean;
  /** The catalogue message of a failed load, or null. */
  error: string | null;
  /** False while the live connection is down (the list then reloads when it is back). */
  live: boolean;
  /** Removes a document from the list at once (after a delete), before the realtime event arrives. */
  forget: (id: string) => void;
}

const createDocumentListSync = () => new DocumentListSync();

/**
 * The document list, newest first, kept current through realtime. `onSettled` hears when a
 * document reaches COMPLETED or ERROR (the counters refresh then).
 */
export function useDocuments(onSettled: () => void): DocumentsState {
  const list = useLiveList<DocumentItem, DocumentChange>({
    createSync: createDocumentListSync,
    load: listDocuments,
    subscribe: subscribeToDocuments,
    what: 'documents',
    // A document that finished (or left) changes the counters.
    onChange: (change) => {
      if (change.type === 'DELETE' || change.document.status !== 'PROCESSING') onSettled();
    },
  });
  const { change } = list;
  const forget = useCallback((id: string) => change({ type: 'DELETE', id }), [change]);
  return { documents: list.items, loading: list.loading, error: list.error, live: list.live, forget };
}

/** The longest a timer may wait (setTimeout's limit); a later change is scheduled again then. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * The time the list's phases are computed against: taken again whenever a document's phase changes
 * by time alone (a document turns stuck, a delete turns incomplete), so the list shows it without
 * a reload.
 */
export function usePhaseClock(documents: readonly DocumentItem[]): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const next = nextPhaseChange(documents, now);
    if (next === null) return;
    const timer = window.setTimeout(() => setNow(Date.now()), Math.min(MAX_TIMER_MS, Math.max(0, next - Date.now()) + 250));
    return () => window.clearTimeout(timer);
  }, [documents, now]);
  return now;
}

/** The ids of the documents this tab is processing right now. */
export function useProcessingHere(): ReadonlySet<string> {
  return useSyncExternalStore(processingHere.subscribe, processingHere.current, processingHere.current);
}
