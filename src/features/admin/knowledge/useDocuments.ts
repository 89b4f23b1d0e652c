import { useCallback, useEffect, useEffectEvent, useState } from 'react';
import { listDocuments, subscribeToDocuments, type DocumentChange, type DocumentItem } from '../../../services/documents';

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

/**
 * The document list, newest first, kept current through realtime. `onSettled` hears when a
 * document reaches COMPLETED or ERROR (the counters refresh then).
 */
export function useDocuments(onSettled: () => void): DocumentsState {
  const [documents, setDocuments] = useState<DocumentItem[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [live, setLive] = useState(true);
  const settle = useEffectEvent(() => onSettled());

  const reload = useCallback(async () => {
    try {
      setDocuments(await listDocuments());
      setError(null);
    } catch (caught) {
      console.info('[admin] documents not loaded:', caught);
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    // Load at once, so the list never waits on the live connection…
    void Promise.resolve().then(reload);
    let wasLive: boolean | null = null;
    const unsubscribe = subscribeToDocuments(
      (change) => {
        setDocuments((list) => applyDocumentChange(list, change));
        // A document that finished (or left) changes the counters.
        if (change.type === 'DELETE' || change.document.status !== 'PROCESSING') settle();
      },
      (subscribed) => {
        setLive(subscribed);
        // …and again once subscribed, so no change falls between the list and the subscription,
        // and after a lost connection, to catch up with what was missed.
        if (subscribed && wasLive !== true) void reload();
        wasLive = subscribed;
      },
    );
    return unsubscribe;
  }, [reload]);

  const forget = useCallback((id: string) => setDocuments((list) => list.filter((item) => item.id !== id)), []);
  return { documents, loading, error, live, forget };
}
