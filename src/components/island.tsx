import { lazy, memo, Suspense, type ComponentType, type ReactNode } from 'react';

type Loader<P> = () => Promise<ComponentType<P>>;
const islands: (() => Promise<unknown>)[] = [];

/**
 * A part of a page whose code is not needed for the first paint (e.g. an ROI calculator). The
 * prerenderer renders it in full; in the browser its code loads after the page's own, and React
 * hydrates it as soon as the code arrives, keeping the server's markup until then. So the page's
 * first-load JavaScript does not carry it.
 */
export function createIsland<P extends object>(load: Loader<P>, placeholder: ReactNode = null) {
  let ready: ComponentType<P> | null = null;
  const preload = async () => {
    ready ??= await load();
    return ready;
  };
  islands.push(preload);

  const Lazy = lazy<ComponentType<P>>(() => {
    const loaded = ready;
    // Already loaded (always so when prerendering): resolve synchronously, so the content renders
    // right away instead of the placeholder.
    if (loaded) return { then: (resolve: (module: { default: ComponentType<P> }) => void) => resolve({ default: loaded }) } as Promise<{ default: ComponentType<P> }>;
    return preload().then((component) => ({ default: component }));
  });

  // Memoized: a boundary that is still waiting for its code must not receive an update (the page
  // re-renders when more words arrive, e.g. the island's own), or React discards the server's
  // markup and shows the placeholder until the code is there.
  return memo(function Island(props: P) {
    return (
      <Suspense fallback={placeholder}>
        <Lazy {...props} />
      </Suspense>
    );
  });
}

/** Loads every island's code, so the prerenderer renders them in full. */
export async function preloadIslands(): Promise<void> {
  await Promise.all(islands.map((preload) => preload()));
}
