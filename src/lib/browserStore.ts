/**
 * A tiny external store over one localStorage key, for useSyncExternalStore: the server snapshot
 * is always null, so hydration matches the prerendered HTML and the stored value applies after.
 * When storage is unavailable the value lives in memory for this page view.
 */
export interface BrowserStore<T extends string> {
  get: () => T | null;
  set: (value: T) => void;
  subscribe: (listener: () => void) => () => void;
}

export function createBrowserStore<T extends string>(
  key: string,
  accept: (value: unknown) => value is T,
): BrowserStore<T> {
  const listeners = new Set<() => void>();
  let memory: T | null = null;

  const read = (): T | null => {
    try {
      const value = window.localStorage.getItem(key);
      return accept(value) ? value : null;
    } catch {
      return memory;
    }
  };

  return {
    get: read,
    set: (value) => {
      memory = value;
      try {
        window.localStorage.setItem(key, value);
      } catch {
        // Storage disabled (private mode, policy): keep the value in memory.
      }
      listeners.forEach((listener) => listener());
    },
    subscribe: (listener) => {
      listeners.add(listener);
      const onStorage = (event: StorageEvent) => {
        if (event.key === key) listener();
      };
      window.addEventListener('storage', onStorage);
      return () => {
        listeners.delete(listener);
        window.removeEventListener('storage', onStorage);
      };
    },
  };
}
