import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app/App';
import { preloadPage } from './app/pages';
import './styles.css';

/**
 * Prerendered pages are hydrated, client-only pages (admin) rendered. The current page's module is
 * loaded before hydration so the first render matches the HTML exactly.
 */
async function start() {
  const container = document.getElementById('root');
  if (!container) throw new Error('The page has no #root element.');
  await preloadPage(window.location.pathname);
  const app = (
    <StrictMode>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </StrictMode>
  );
  if (container.hasChildNodes()) hydrateRoot(container, app);
  else createRoot(container).render(app);
}

void start();
