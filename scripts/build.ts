/**
 * npm run build: the client bundle (Vite), then the prerender entry for Node, then static HTML
 * for every public route in each language it has, plus spa.html (client-only routes), 404.html,
 * sitemap.xml and robots.txt, all read from the one route registry.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { criticalCss } from './criticalCss';

const root = resolve(import.meta.dirname, '..');
// DIST_DIR lets several builds live side by side (e.g. parallel test runs); dist/ by default.
const dist = resolve(root, process.env.DIST_DIR ?? 'dist');
const ssrOut = `${dist}-ssr`;

interface PrerenderModule {
  render(url: string): Promise<{ html: string }>;
  headFor(pathname: string, lang: 'de' | 'en'): { lang: 'de' | 'en'; canonical: string | null };
  renderHeadTags(head: ReturnType<PrerenderModule['headFor']>): string;
  prerenderPaths(): { path: string; id: string; lang: 'de' | 'en' }[];
  pageModules: Record<string, { file: string; namespaces: readonly string[] }>;
  stylesheet: string;
}

interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
}

/** The chunks a page needs beyond the entry, so the browser fetches them with the entry. */
function preloadsFor(manifest: Record<string, ManifestChunk>, key: string): string[] {
  const files = new Set<string>();
  const visit = (name: string) => {
    const chunk = manifest[name];
    if (!chunk || chunk.isEntry || files.has(chunk.file)) return;
    files.add(chunk.file);
    chunk.imports?.forEach(visit);
  };
  visit(key);
  return [...files];
}

/**
 * The site's one stylesheet (Tailwind, about 9 KB gzip) goes into the page template as a <style>
 * element, so the first paint needs nothing but the HTML: no render-blocking request, no extra
 * round trip (each prerendered page then keeps only its own rules: criticalStylesOnly).
 * It comes from the prerender build (`styles.css?inline`), not from the client's: a stylesheet of
 * the client entry would be a dependency of every lazy chunk, which Vite's preload helper would
 * then fetch again as a <link>. The CSP allows the <style> element (`style-src 'unsafe-inline'`,
 * kept because Radix's scroll lock writes a <style> element at run time, which a hash could not
 * allow); scripts stay `'self'` only.
 */
function inlineStylesheet(html: string, css: string): string {
  if (css.includes('</style')) throw new Error('The stylesheet contains "</style", which would end the inline style.');
  if (/<link rel="stylesheet"/.test(html)) throw new Error('index.html links a stylesheet; the build inlines src/styles.css instead.');
  return html.replace('<!--app-head-->', () => `<style>${css.trim()}</style>\n    <!--app-head-->`);
}

/**
 * Each prerendered page keeps only the rules its own HTML uses (with their :hover, :focus and
 * media-query variants): about half of the stylesheet, so every page's HTML fits in the first
 * round trips (TCP's first window is about 14 KB). The whole stylesheet is written to
 * `assets/styles-<hash>.css` and named in `<meta name="app-stylesheet">`: src/main.tsx fetches it
 * with the app and applies it the first time the app adds an element or changes a class (a dialog
 * or another page may use any rule).
 */
function writeFullStylesheet(css: string): string {
  const file = `assets/styles-${createHash('sha256').update(css).digest('base64url').slice(0, 8)}.css`;
  writeFileSync(join(dist, file), css.trim());
  return `/${file}`;
}

/** The page with only the rules its elements can use in its inline stylesheet (scripts/criticalCss.ts). */
function criticalStylesOnly(html: string): string {
  const inline = /<style>([\s\S]*?)<\/style>/.exec(html);
  if (!inline?.[1]) throw new Error('The page has no inline stylesheet.');
  return html.replace(inline[0], () => `<style>${criticalCss(inline[1] ?? '', html)}</style>`);
}

/**
 * The entry script (src/main.tsx, 2 KB gzip) is fetched at low priority: the first paint does not
 * need it (it waits for that paint before it loads the app), so it must not take bandwidth from
 * the HTML. Vite's own modulepreload links for the entry's imports would load code before the
 * paint: there must be none (the entry imports nothing statically).
 */
function lowPriorityScripts(html: string): string {
  if (html.includes('rel="modulepreload"')) throw new Error('index.html preloads modules before the first paint; src/main.tsx should import nothing statically.');
  return html.replace(/<script type="module" crossorigin src=/g, '<script type="module" crossorigin fetchpriority="low" src=');
}

/**
 * V8's explicit compile hint (Chrome 136+): a file that starts with this comment has all its
 * functions compiled on the background thread that streams it, instead of one by one on the main
 * thread when each is first called. Hydration calls most of React DOM's functions, and compiling
 * them lazily cost 40–50 ms of main thread per page load (591 functions on a product page), in the
 * tasks that block a visitor's first tap. Only the first-load chunks get it (the entry and what a
 * prerendered page names in `app-modules`): eager compilation of code that loads on demand (the
 * admin area, PDF parsing) would spend CPU and memory on functions that may never run. Browsers
 * without the hint read an ordinary comment. The comment must be the file's first line.
 */
const compileHint = '//# allFunctionsCalledOnLoad\n';

function addCompileHints(dist: string, files: Iterable<string>): void {
  for (const file of files) {
    const path = join(dist, file);
    writeFileSync(path, compileHint + readFileSync(path, 'utf8'));
  }
}

async function main() {
  await build({ root, logLevel: 'warn', build: { outDir: dist, emptyOutDir: true } });
  await build({
    root,
    logLevel: 'warn',
    build: { ssr: 'src/app/prerender.tsx', outDir: ssrOut, emptyOutDir: true, copyPublicDir: false },
  });

  const entry = join(ssrOut, 'prerender.js');
  const ssr = (await import(pathToFileURL(entry).href)) as PrerenderModule;
  const template = lowPriorityScripts(inlineStylesheet(readFileSync(join(dist, 'index.html'), 'utf8'), ssr.stylesheet));
  if (!template.includes('<!--app-html-->') || !template.includes('<!--app-head-->')) {
    throw new Error('index.html lost its <!--app-head--> or <!--app-html--> marker.');
  }

  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  // The modules that hydrate the page: the app (boot), the page's chunks and its words in the
  // page's language (common and the page's namespaces). They are listed in a <meta> element, not
  // modulepreloaded: src/main.tsx preloads them once the HTML has been painted, so no script
  // download competes with the first paint (and no inline script is needed to carry the list).
  const entryChunk = Object.values(manifest).find((chunk) => chunk.isEntry);
  if (!entryChunk) throw new Error('The client build has no entry chunk in its manifest.');
  const firstLoad = new Set<string>([entryChunk.file]);
  const app = entryChunk.dynamicImports ?? [];
  if (app.length === 0) throw new Error('The entry chunk imports no app: src/main.tsx should import ./app/boot.');
  // vite.config.ts turns Vite's preload links off for the entry's imports by the entry chunk's
  // name (index-*.js); a renamed entry would bring them back, one more link per module next to
  // the entry's own.
  if (readFileSync(join(dist, entryChunk.file), 'utf8').includes('__vite__mapDeps')) {
    throw new Error("The entry preloads the app's modules through Vite; vite.config.ts's resolveDependencies no longer matches the entry chunk.");
  }
  const preloadTags = (id: string, lang: string) => {
    const page = ssr.pageModules[id];
    if (page && !manifest[`src/pages/${page.file}`]) {
      throw new Error(`src/app/pages.tsx names src/pages/${page.file} for ${id}, which the build did not produce.`);
    }
    const keys = [
      // The app (src/app/boot.tsx and what it imports), which the entry imports once the page is
      // painted; first, so its preload is the first request.
      ...app,
      `src/pages/${page?.file ?? ''}`,
      ...['common', ...(page?.namespaces ?? [])].map((ns) => `src/i18n/locales/${lang}/${ns}.json`),
    ];
    const files = [...new Set(keys.flatMap((key) => preloadsFor(manifest, key)))];
    files.forEach((file) => firstLoad.add(file));
    return `<meta name="app-modules" content="${files.map((file) => `/${file}`).join(' ')}" />`;
  };

  const stylesheetTag = `<meta name="app-stylesheet" content="${writeFullStylesheet(ssr.stylesheet)}" />`;
  const page = (lang: string, head: string, html: string) =>
    template
      // Replacer functions: a string replacement would expand `$&`, `$'` and `$1` found in the page.
      .replace('<html lang="de">', () => `<html lang="${lang}">`)
      .replace('<!--app-head-->', () => head)
      .replace('<!--app-html-->', () => html);

  // Client-only routes (admin) get an empty shell that the browser renders.
  writeFileSync(
    join(dist, 'spa.html'),
    page('de', '<meta name="robots" content="noindex" />\n    <title>Admin</title>', ''),
  );

  const origin = 'http://prerender.local';
  const written: string[] = [];
  for (const { path, id, lang } of ssr.prerenderPaths()) {
    const { html } = await ssr.render(`${origin}${path}`);
    const file = path === '/' ? join(dist, 'index.html') : join(dist, path, 'index.html');
    mkdirSync(dirname(file), { recursive: true });
    const head = `${ssr.renderHeadTags(ssr.headFor(path, lang))}\n    ${preloadTags(id, lang)}\n    ${stylesheetTag}`;
    writeFileSync(file, criticalStylesOnly(page(lang, head, html)));
    written.push(path);
  }

  addCompileHints(dist, firstLoad);

  const missing = '/__not-found__';
  const notFound = await ssr.render(`${origin}${missing}`);
  writeFileSync(
    join(dist, '404.html'),
    criticalStylesOnly(page('de', `${ssr.renderHeadTags(ssr.headFor(missing, 'de'))}\n    ${stylesheetTag}`, notFound.html)),
  );

  const canonical = ssr
    .prerenderPaths()
    .map(({ path, lang }) => ssr.headFor(path, lang).canonical)
    .filter((url): url is string => url !== null);
  writeFileSync(
    join(dist, 'sitemap.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${canonical
      .map((url) => `  <url><loc>${url}</loc></url>`)
      .join('\n')}\n</urlset>\n`,
  );
  const siteUrl = new URL(canonical[0] ?? 'https://www.example.com/').origin;
  writeFileSync(join(dist, 'robots.txt'), `User-agent: *\nDisallow: /admin/\n\nSitemap: ${siteUrl}/sitemap.xml\n`);

  // The browser talks to the Supabase project over HTTPS and WebSocket: allow exactly that origin.
  const supabase = new URL(process.env.VITE_SUPABASE_URL ?? 'http://127.0.0.1:54321');
  const socket = `${supabase.protocol === 'https:' ? 'wss:' : 'ws:'}//${supabase.host}`;
  const headersFile = join(dist, '_headers');
  writeFileSync(
    headersFile,
    readFileSync(headersFile, 'utf8').replace("connect-src 'self'", `connect-src 'self' ${supabase.origin} ${socket}`),
  );

  rmSync(ssrOut, { recursive: true, force: true });
  rmSync(join(dist, '.vite'), { recursive: true, force: true });
  if (!existsSync(join(dist, '_headers'))) throw new Error('public/_headers was not copied.');
  console.log(`Prerendered ${written.length} pages, spa.html, 404.html, sitemap.xml and robots.txt into ${dist}.`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
