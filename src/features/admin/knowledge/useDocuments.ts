import { useCallback, useEffect, useEffectEvent, useState, useSyncExternalStore } from 'react';
import { listDocuments, subscribeToDocuments, type DocumentChange, type DocumentItem } from '../../../services/documents';
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

/**
 * Keeps the list consistent when loads and realtime changes overlap: a load that started before a
 * later one finished is stale and dropped (responses can arrive out of order), and every change
 * heard while a load was under way is applied again on top of that load's result, since the
 * query may have read the table before or after the change.
 */
export class DocumentListSync {
  private current: DocumentItem[] = [];
  private nextLoad = 0;
  private appliedLoad = -1;
  private nextChange = 0;
  /** Load token → number of changes heard when it started. */
  private readonly pending = new Map<number, number>();
  private readonly log: { seq: number; change: DocumentChange }[] = [];

  get documents(): DocumentItem[] {
    return this.current;
  }

  /** Marks the start of a load; pass the token to loaded() or failed(). */
  beginLoad(): number {
    const token = this.nextLoad++;
    this.pending.set(token, this.nextChange);
    return token;
  }

  /** Applies a change now and remembers it for the loads under way. */
  change(change: DocumentChange): DocumentItem[] {
    this.current = applyDocumentChange(this.current, change);
    if (this.pending.size > 0) this.log.push({ seq: this.nextChange, change });
    this.nextChange++;
    return this.current;
  }

  /** A load's result; false when a later load has already been applied (the result is dropped). */
  loaded(token: number, list: readonly DocumentItem[]): boolean {
    const startedAt = this.pending.get(token);
    if (startedAt === undefined || token < this.appliedLoad) {
      this.failed(token);
      return false;
    }
    this.appliedLoad = token;
    this.current = this.log
      .filter((entry) => entry.seq >= startedAt)
      .reduce<DocumentItem[]>((next, entry) => applyDocumentChange(next, entry.change), [...list]);
    // Loads started before this one can only be dropped now: stop keeping changes for them.
    for (const older of [...this.pending.keys()]) if (older <= token) this.pending.delete(older);
    this.prune();
    return true;
  }

  /** A load that failed: its buffered changes are no longer needed for it. */
  failed(token: number): void {
    this.pending.delete(token);
    this.prune();
  }

  private prune(): void {
    const oldestNeeded = Math.min(...this.pending.values());
    const keepFrom = this.log.findIndex((entry) => entry.seq >= oldestNeeded);
    this.log.splice(0, keepFrom === -1 ? this.log.length : keepFrom);
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
  const [sync] = useState(() => new DocumentListSync());
  const [documents, setDocuments] = useState<DocumentItem[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [live, setLive] = useState(true);
  const settle = useEffectEvent(() => onSettled());

  const reload = useCallback(async (list: DocumentListSync) => {
    const token = list.beginLoad();
    try {
      const loaded = await listDocuments();
      if (list.loaded(token, loaded)) {
        setDocuments(list.documents);
        setError(null);
      }
    } catch (caught) {
      list.failed(token);
      console.error('[admin] documents not loaded:', caught);
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    const list = sync;
    // Load at once (from a microtask, not inside the effect's body), so the list never waits on
    // the live connection…
    void Promise.resolve(list).then(reload);
    let wasLive: boolean | null = null;
    const unsubscribe = subscribeToDocuments(
      (change) => {
        setDocuments(list.change(change));
        // A document that finished (or left) changes the counters.
        if (change.type === 'DELETE' || change.document.status !== 'PROCESSING') settle();
      },
      (subscribed) => {
        setLive(subscribed);
        // …and again once subscribed, so no change falls between the list and the subscription,
        // and after a lost connection, to catch up with what was missed.
        if (subscribed && wasLive !== true) void reload(list);
        wasLive = subscribed;
      },
    );
    return unsubscribe;
  }, [reload, sync]);

  const forget = useCallback((id: string) => setDocuments(sync.change({ type: 'DELETE', id })), [sync]);
  return { documents, loading, error, live, forget };
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
