import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { defaultLang, langOfPath } from '../config/routes';
import { activateLanguage } from '../i18n';
import { languageStore } from '../i18n/language';
import { App } from './App';
import { preloadPage } from './pages';

/**
 * Prerendered pages are hydrated, client-only pages (admin) rendered. The current page's module
 * and its words in the page's language are loaded before the first render, so it matches the HTML
 * exactly: a prerendered page is in its path's language, the admin area in the remembered one.
 */
export async function start(): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('The page has no #root element.');
  const { pathname } = window.location;
  await activateLanguage(langOfPath(pathname) ?? languageStore.get() ?? defaultLang);
  await preloadPage(pathname);
  const app = (
    <StrictMode>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </StrictMode>
  );
  // Hydrating inside a transition lets React yield to the browser between components, so the
  // page stays responsive (no long task) while it becomes interactive.
  if (container.hasChildNodes()) startTransition(() => void hydrateRoot(container, app));
  else createRoot(container).render(app);
}
