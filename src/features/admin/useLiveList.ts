import { useCallback, useEffect, useEffectEvent, useState } from 'react';
import type { LiveListSync } from '../../lib/liveList';

/** Where a live list comes from; `load` and `subscribe` must be stable (module functions). */
export interface LiveListSource<T, C> {
  /** A fresh sync for this list (how a change applies). */
  createSync: () => LiveListSync<T, C>;
  load: () => Promise<T[]>;
  /** Subscribes to the list's realtime changes; returns the unsubscribe. */
  subscribe: (onChange: (change: C) => void, onStatus: (subscribed: boolean) => void) => () => void;
  /** Hears every change heard live, after it is applied. */
  onChange?: (change: C) => void;
  /** For the log line of a failed load: `[admin] <what> not loaded`. */
  what: string;
}

export interface LiveListState<T, C> {
  items: T[];
  loading: boolean;
  /** The message of a failed load, or null. */
  error: string | null;
  /** False while the live connection is down (the list then reloads when it is back). */
  live: boolean;
  /** Applies a change at once (after the admin's own delete, before its realtime event). */
  change: (change: C) => void;
  /** Loads the list again (after a failed load). */
  reload: () => void;
}

/**
 * A list loaded once and kept current through realtime: loaded at once, again once subscribed (so
 * no change falls between the load and the subscription) and after a lost connection (to catch up
 * with what was missed); loads and changes that overlap are reconciled by LiveListSync.
 */
export function useLiveList<T, C>(source: LiveListSource<T, C>): LiveListState<T, C> {
  const { load, subscribe, what } = source;
  const [sync] = useState(source.createSync);
  const [items, setItems] = useState<T[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [live, setLive] = useState(true);
  const heard = useEffectEvent((change: C) => source.onChange?.(change));

  const reload = useCallback(async () => {
    const token = sync.beginLoad();
    try {
      const loaded = await load();
      if (sync.loaded(token, loaded)) {
        setItems(sync.items);
        setError(null);
      }
    } catch (caught) {
      sync.failed(token);
      console.error(`[admin] ${what} not loaded:`, caught);
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setLoading(false);
    }
  }, [load, sync, what]);

  useEffect(() => {
    // Load at once (from a microtask, not inside the effect's body), so the list never waits on
    // the live connection…
    void Promise.resolve().then(reload);
    let wasLive: boolean | null = null;
    return subscribe(
      (change) => {
        setItems(sync.change(change));
        heard(change);
      },
      (subscribed) => {
        setLive(subscribed);
        // …and again once subscribed, and after a lost connection.
        if (subscribed && wasLive !== true) void reload();
        wasLive = subscribed;
      },
    );
  }, [reload, subscribe, sync]);

  const change = useCallback((next: C) => setItems(sync.change(next)), [sync]);
  const retry = useCallback(() => {
    setLoading(true);
    void reload();
  }, [reload]);
  return { items, loading, error, live, change, reload: retry };
}
