import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { Router } from '../components/router';
import { defaultLang, matchPath } from '../config/routes';
import { activateLanguage } from '../i18n';
import { languageStore } from '../i18n/language';
import { App } from './App';
import { preloadPage } from './pages';

/**
 * Prerendered pages are hydrated, client-only pages (admin) rendered. The current page's module
 * and words are loaded before the first render, so it matches the HTML exactly: the HTML is in
 * the path's language (German where the path has none). A remembered other language is loaded
 * too, so it applies right after hydration without a flash of missing text.
 */
export async function start(): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('The page has no #root element.');
  const { pathname } = window.location;
  const pathLang = matchPath(pathname)?.boundLang ?? null;
  const stored = languageStore.get();
  await Promise.all([
    activateLanguage(pathLang ?? defaultLang),
    pathLang === null && stored !== null ? activateLanguage(stored) : undefined,
  ]);
  await preloadPage(pathname);
  const app = (
    <StrictMode>
      <Router>
        <App />
      </Router>
    </StrictMode>
  );
  // Hydrating inside a transition lets React yield to the browser between components, so the
  // page stays responsive (no long task) while it becomes interactive.
  if (container.hasChildNodes()) startTransition(() => void hydrateRoot(container, app));
  else createRoot(container).render(app);
}
