/**
 * The entry: 2 KB gzip that waits until the browser has painted the prerendered HTML, then loads
 * the app (React, the router, the words) and the whole stylesheet, and the app hydrates. So the
 * first paint needs the HTML alone, and neither downloading nor evaluating the app competes with
 * it, not even from the cache.
 *
 * The HTML names the modules the page hydrates with (the `app-modules` meta entry, written by
 * scripts/build.ts; src/app/buildContract.ts holds the names both sides use): they are preloaded together right after the app's import starts (in a task of
 * their own, so neither makes a long task), so the page's own chunk and words arrive alongside the
 * app instead of after it.
 */
import { pageMeta, readPageMeta } from './app/buildContract';
import { markStoredConsent } from './features/consent/decided';

/**
 * Runs `run` once the browser has painted the page's content (the first contentful paint), in the
 * task that reports it. The next animation frame is not enough: on a busy phone Chrome runs
 * frames that paint nothing yet, so the app's download could begin before the text is on screen.
 * Pages without prerendered content (the admin area's empty shell) have nothing to wait for; a
 * browser without paint timing, or a paint that never comes (a tab hidden before it painted),
 * falls back to the next frame or to two seconds.
 */
function afterFirstPaint(run: () => void): void {
  let started = false;
  let observer: PerformanceObserver | undefined;
  const start = () => {
    if (started) return;
    started = true;
    observer?.disconnect();
    run();
  };
  const root = document.getElementById('root');
  // A hidden tab paints no frame: start at once rather than wait until it is shown.
  if (document.visibilityState === 'hidden' || !root?.hasChildNodes()) return start();
  if (PerformanceObserver.supportedEntryTypes.includes('paint')) {
    observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length > 0) start();
    });
    observer.observe({ type: 'paint', buffered: true });
    setTimeout(start, 2000);
    document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && start());
  } else {
    // requestAnimationFrame runs just before the next frame is painted; the task after it, after.
    requestAnimationFrame(() => setTimeout(start, 0));
  }
}

/**
 * Preloads the modules the HTML names, two per task: each `<link rel=modulepreload>` starts its
 * request synchronously (0.5–1.5 ms each on a phone, 2–5 ms with DevTools' network recording, as
 * Lighthouse runs), and a page names up to 16.
 */
function preloadPageModules(hrefs: readonly string[]): void {
  for (const href of hrefs.slice(0, 2)) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
  if (hrefs.length > 2) setTimeout(() => preloadPageModules(hrefs.slice(2)), 0);
}

/**
 * The sections below the fold are rendered only as they near the viewport (src/styles.css), and
 * until then their height is an estimate. A jump to an anchor (the legal pages' table of contents,
 * a link or an address with a #fragment) would land beside its target while the sections it
 * passes render, so before the first one every section is laid out for good: one layout, on the
 * visitor's click.
 */
function layOutFullyBeforeAnchorJumps(): void {
  const full = () => {
    document.documentElement.dataset.layout = 'full';
    document.removeEventListener('click', onClick, true);
  };
  const onClick = (event: MouseEvent) => {
    if (event.target instanceof Element && event.target.closest('a[href*="#"]')) full();
  };
  if (location.hash) return full();
  document.addEventListener('click', onClick, true);
  window.addEventListener('hashchange', full, { once: true });
}

const pageModules = (): string[] => readPageMeta(pageMeta.appModules).split(' ').filter(Boolean);

// The prerendered cookie notice is hidden until this says that no consent is stored: then it shows
// now, without waiting for the app (src/features/consent/decided.ts).
markStoredConsent();

layOutFullyBeforeAnchorJumps();

// The built pages carry the stylesheet inline (scripts/build.ts); the dev server's do not.
if (import.meta.env.DEV) void import('./styles.css');

/** Resolves in a later task, so the browser can handle input and paint in between. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The whole stylesheet, applied the first time the app adds an element to the page or changes a
 * class. The HTML carries the rules its own elements use (scripts/build.ts) in every state they
 * can take (hover, focus, breakpoints, `aria-*` and `data-*` states), so until the app renders
 * something new (a dialog, an open menu, another page) they are all the page needs; what it
 * renders next may need any rule. Applying a stylesheet restyles the whole page, 10–35 ms of main
 * thread while a phone loads the page, so a visitor who only reads never pays for it.
 *
 * The text is fetched with the app (the returned promise settles when it is there, or has
 * failed). A MutationObserver runs its callback right after the change, before the browser renders
 * the next frame, so new content is never painted without its rules. Constructed stylesheets are not
 * subject to the CSP's `style-src`; a browser without them, or a failed fetch, gets a `<link>`.
 */
function applyWholeStylesheetOnFirstChange(): Promise<unknown> {
  const href = readPageMeta(pageMeta.appStylesheet);
  if (!href) return Promise.resolve();
  const text = fetch(href)
    .then((response) => (response.ok ? response.text() : null))
    .catch(() => null);
  const apply = (css: string | null) => {
    if (css !== null && 'adoptedStyleSheets' in document) {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    } else {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = href;
      document.head.append(link);
    }
  };
  const observer = new MutationObserver((records) => {
    const changed = records.some(
      (record) => record.type === 'attributes' || [...record.addedNodes].some((node) => node.nodeType === Node.ELEMENT_NODE),
    );
    if (!changed) return;
    observer.disconnect();
    // Once the text is there this runs in the same microtask checkpoint, still before the frame is
    // rendered; a change before that (before the app has even started) applies it on arrival.
    void text.then(apply);
  });
  observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['class'] });
  return text;
}

afterFirstPaint(() => {
  const stylesheet = applyWholeStylesheetOnFirstChange();
  // React DOM (the largest module) is evaluated in a task of its own, i18next with its set-up
  // (src/i18n) in the next and the rest of the app (src/app/boot.tsx, React Router with it) in a
  // third: together they would make one long task. The app starts once the whole stylesheet's text is there, so
  // whatever it renders first can have its rules at once.
  void import('react-dom/client')
    .then(nextTask)
    .then(() => import('./i18n'))
    .then(nextTask)
    .then(() => Promise.all([import('./app/boot'), stylesheet]))
    .then(([{ start }]) => start());
  // A task of its own: each preload is a request the browser starts synchronously (about 1 ms each
  // on a phone), and the app's own download has begun by then.
  setTimeout(() => preloadPageModules(pageModules()), 0);
});
