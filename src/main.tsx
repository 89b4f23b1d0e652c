/**
 * The entry: 1.5 KB gzip that waits until the browser has painted the prerendered HTML, then loads
 * the app (React, the router, the words), which hydrates. So the first paint needs the HTML alone,
 * and neither downloading nor evaluating the app competes with it, not even from the cache.
 *
 * The HTML names the modules the page hydrates with (`<meta name="app-modules">`, written by
 * scripts/build.ts): they are preloaded together right after the app's import starts (in a task of
 * their own, so neither makes a long task), so the page's own chunk and words arrive alongside the
 * app instead of after it.
 */
import { markStoredConsent } from './features/consent/decided';

function afterFirstPaint(run: () => void): void {
  // A hidden tab paints no frame: start at once rather than wait until it is shown.
  if (document.visibilityState === 'hidden') run();
  // requestAnimationFrame runs just before the next frame is painted; the task after it, after.
  else requestAnimationFrame(() => setTimeout(run, 0));
}

/**
 * Preloads the modules the HTML names, a few per task: each `<link rel=modulepreload>` starts its
 * request synchronously (0.5–1.5 ms each on a phone), and a page names up to 16.
 */
function preloadPageModules(hrefs: readonly string[]): void {
  for (const href of hrefs.slice(0, 4)) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
  if (hrefs.length > 4) setTimeout(() => preloadPageModules(hrefs.slice(4)), 0);
}

const pageModules = (): string[] =>
  (document.querySelector<HTMLMetaElement>('meta[name="app-modules"]')?.content ?? '').split(' ').filter(Boolean);

// The prerendered cookie notice is hidden until this says that no consent is stored: then it shows
// now, without waiting for the app (src/features/consent/decided.ts).
markStoredConsent();

// The built pages carry the stylesheet inline (scripts/build.ts); the dev server's do not.
if (import.meta.env.DEV) void import('./styles.css');

afterFirstPaint(() => {
  void import('./app/boot').then(({ start }) => start());
  // A task of its own: each preload is a request the browser starts synchronously (about 1 ms each
  // on a phone), and the app's own download has begun by then.
  setTimeout(() => preloadPageModules(pageModules()), 0);
});
