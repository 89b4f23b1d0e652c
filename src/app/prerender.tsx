import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { preloadIslands } from '../components/island';
import { loadEverything } from '../i18n';
import { App } from './App';
import { preloadPage } from './pages';

export { headFor, renderHeadTags } from './head';
export { englishPrefixes, prerenderPaths } from '../config/routes';
export { pageModules } from './pages';
/** The site's stylesheet as text: scripts/build.ts puts it into every page as a <style> element. */
export { default as stylesheet } from '../styles.css?inline';

/**
 * The prerender entry (built for Node by scripts/build.ts): renders one path through React
 * Router's `StaticRouter`, the same routes the browser hydrates with `BrowserRouter`. Nothing is
 * embedded for hydration: the pages load no data, so the browser rebuilds the same tree from the
 * URL and the HTML stays free of inline scripts (the CSP allows none).
 */
export async function render(url: string): Promise<{ html: string }> {
  const { pathname } = new URL(url);
  await loadEverything();
  await preloadPage(pathname);
  await preloadIslands();
  const html = renderToString(
    <StrictMode>
      <StaticRouter location={pathname}>
        <App />
      </StaticRouter>
    </StrictMode>,
  );
  return { html };
}
