/**
 * npm run build: the client bundle (Vite), then the prerender entry for Node, then static HTML
 * for every public route in both languages, plus spa.html (client-only routes), a not-found page
 * per language, sitemap.xml and robots.txt, all read from the one route registry. `main()` at the
 * end lists the steps in order.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { entryChunk, pageMeta, pageMetaTag, templateMarkers } from '../src/app/buildContract';
import { criticalCss } from './criticalCss';
import { deploymentCsp } from './csp';

const root = resolve(import.meta.dirname, '..');
// DIST_DIR lets several builds live side by side (e.g. parallel test runs); dist/ by default.
const dist = resolve(root, process.env.DIST_DIR ?? 'dist');
const ssrOut = `${dist}-ssr`;
const origin = 'http://prerender.local';

type Lang = 'de' | 'en';

interface PrerenderModule {
  render(url: string): Promise<{ html: string }>;
  headFor(pathname: string, lang: Lang): { lang: Lang; canonical: string | null; alternates: readonly { hreflang: string; href: string }[] };
  renderHeadTags(head: ReturnType<PrerenderModule['headFor']>): string;
  prerenderPaths(): { path: string; id: string; lang: Lang }[];
  englishPrefixes: readonly string[];
  pageModules: Record<string, { file: string; namespaces: readonly string[] }>;
  stylesheet: string;
}

interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
}
type Manifest = Record<string, ManifestChunk>;

/** Step 1: the browser's bundle into dist/, with Vite's manifest of chunks. */
async function buildClient(): Promise<Manifest> {
  await build({ root, logLevel: 'warn', build: { outDir: dist, emptyOutDir: true } });
  return JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
}

/** Step 2: src/app/prerender.tsx built for Node and loaded. */
async function buildPrerenderer(): Promise<PrerenderModule> {
  await build({
    root,
    logLevel: 'warn',
    build: { ssr: 'src/app/prerender.tsx', outDir: ssrOut, emptyOutDir: true, copyPublicDir: false },
  });
  return (await import(pathToFileURL(join(ssrOut, 'prerender.js')).href)) as PrerenderModule;
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
  return html.replace(templateMarkers.head, () => `<style>${css.trim()}</style>\n    ${templateMarkers.head}`);
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

/** Step 3: index.html as Vite wrote it, with the stylesheet inline and the entry at low priority. */
function readTemplate(stylesheet: string): string {
  const template = lowPriorityScripts(inlineStylesheet(readFileSync(join(dist, 'index.html'), 'utf8'), stylesheet));
  if (!template.includes(templateMarkers.html) || !template.includes(templateMarkers.head)) {
    throw new Error(`index.html lost its ${templateMarkers.head} or ${templateMarkers.html} marker.`);
  }
  return template;
}

/** The chunks a module needs beyond the entry, so the browser fetches them with the entry. */
function preloadsFor(manifest: Manifest, key: string): string[] {
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
 * Step 4: the entry chunk and the app it imports, checked against the contract: vite.config.ts
 * names the entry (src/app/buildContract.ts) and so keeps Vite's preload links out of it, one
 * more link per module next to the entry's own.
 */
function findEntry(manifest: Manifest): { file: string; app: readonly string[] } {
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry);
  if (!entry) throw new Error('The client build has no entry chunk in its manifest.');
  if (!entryChunk.matches(entry.file)) throw new Error(`The entry chunk ${entry.file} is not named as vite.config.ts names it (${entryChunk.fileNames}).`);
  const app = entry.dynamicImports ?? [];
  if (app.length === 0) throw new Error('The entry chunk imports no app: src/main.tsx should import ./app/boot.');
  if (readFileSync(join(dist, entry.file), 'utf8').includes('__vite__mapDeps')) {
    throw new Error("The entry preloads the app's modules through Vite; vite.config.ts's resolveDependencies no longer matches the entry chunk.");
  }
  return { file: entry.file, app };
}

/**
 * The modules that hydrate a page: the app (boot), the page's chunks and its words in the page's
 * language (common and the page's namespaces). They are listed in a <meta> element, not
 * modulepreloaded: src/main.tsx preloads them once the HTML has been painted, so no script
 * download competes with the first paint (and no inline script is needed to carry the list).
 */
function hydrationModules(ssr: PrerenderModule, manifest: Manifest, app: readonly string[], id: string, lang: Lang): string[] {
  const page = ssr.pageModules[id];
  if (!page || !manifest[`src/pages/${page.file}`]) {
    throw new Error(`src/app/pages.tsx names src/pages/${page?.file ?? '?'} for ${id}, which the build did not produce.`);
  }
  const keys = [
    // The app first, so its preload is the first request.
    ...app,
    `src/pages/${page.file}`,
    ...['common', ...page.namespaces].map((ns) => `src/i18n/locales/${lang}/${ns}.json`),
  ];
  return [...new Set(keys.flatMap((key) => preloadsFor(manifest, key)))];
}

/**
 * Each prerendered page keeps only the rules its own HTML uses (with their :hover, :focus and
 * media-query variants): about half of the stylesheet, so every page's HTML fits in the first
 * round trips (TCP's first window is about 14 KB). The whole stylesheet is written to
 * `assets/styles-<hash>.css` and named in the page's `app-stylesheet` meta entry: src/main.tsx
 * fetches it with the app and applies it the first time the app adds an element or changes a
 * class (a dialog or another page may use any rule).
 */
function writeWholeStylesheet(css: string): string {
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

/** A page from the template: its language, head tags and prerendered markup. */
function fillTemplate(template: string, lang: Lang, head: string, html: string): string {
  return (
    template
      // Replacer functions: a string replacement would expand `$&`, `$'` and `$1` found in the page.
      .replace('<html lang="de">', () => `<html lang="${lang}">`)
      .replace(templateMarkers.head, () => head)
      .replace(templateMarkers.html, () => html)
  );
}

function writePage(path: string, html: string): void {
  const file = path === '/' ? join(dist, 'index.html') : join(dist, path, 'index.html');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, html);
}

/** Step 5: every public path of the registry as static HTML; returns the first-load modules. */
async function prerenderPages(ssr: PrerenderModule, manifest: Manifest, template: string, stylesheetTag: string): Promise<Set<string>> {
  const entry = findEntry(manifest);
  const firstLoad = new Set<string>([entry.file]);
  for (const { path, id, lang } of ssr.prerenderPaths()) {
    const { html } = await ssr.render(`${origin}${path}`);
    const modules = hydrationModules(ssr, manifest, entry.app, id, lang);
    modules.forEach((file) => firstLoad.add(file));
    const head = [
      ssr.renderHeadTags(ssr.headFor(path, lang)),
      pageMetaTag(pageMeta.appModules, modules.map((file) => `/${file}`).join(' ')),
      stylesheetTag,
    ].join('\n    ');
    writePage(path, criticalStylesOnly(fillTemplate(template, lang, head, html)));
  }
  return firstLoad;
}

/**
 * V8's explicit compile hint (Chrome 136+): a file that starts with this comment has all its
 * functions compiled on the background thread that streams it, instead of one by one on the main
 * thread when each is first called. Hydration calls most of React DOM's functions, and compiling
 * them lazily costs 40–50 ms of main thread per page load on a phone, in the tasks that block a
 * visitor's first tap. Only the first-load chunks get it (the entry and what a prerendered page
 * names in `app-modules`): eager compilation of code that loads on demand (the admin area, PDF
 * parsing) would spend CPU and memory on functions that may never run. Browsers without the hint
 * read an ordinary comment. The comment must be the file's first line.
 */
const compileHint = '//# allFunctionsCalledOnLoad\n';

/** Step 6: the compile hint on every first-load chunk. */
function addCompileHints(files: Iterable<string>): void {
  for (const file of files) {
    const path = join(dist, file);
    writeFileSync(path, compileHint + readFileSync(path, 'utf8'));
  }
}

/**
 * Step 7: spa.html for the client-only admin area, and a not-found page per language: 404.html
 * in German, and the English one as `404.html` in each folder only English paths use (`/en/`,
 * `/products/`, …), the nearest 404 page a static host such as Cloudflare Pages serves (Netlify
 * reads the `_redirects` rules written next to them; scripts/staticServer.ts does the same).
 */
async function writeShellAndNotFoundPages(ssr: PrerenderModule, template: string, stylesheetTag: string): Promise<void> {
  writeFileSync(join(dist, 'spa.html'), fillTemplate(template, 'de', '<meta name="robots" content="noindex" />\n    <title>Admin</title>', ''));
  const notFound = async (path: string, lang: Lang) => {
    const { html } = await ssr.render(`${origin}${path}`);
    const head = `${ssr.renderHeadTags(ssr.headFor(path, lang))}\n    ${stylesheetTag}`;
    return criticalStylesOnly(fillTemplate(template, lang, head, html));
  };
  writeFileSync(join(dist, '404.html'), await notFound('/__not-found__', 'de'));
  const english = await notFound(`/${ssr.englishPrefixes[0] ?? 'en'}/__not-found__`, 'en');
  const rules: string[] = [];
  for (const prefix of ssr.englishPrefixes) {
    mkdirSync(join(dist, prefix), { recursive: true });
    writeFileSync(join(dist, prefix, '404.html'), english);
    rules.push(`/${prefix}/*  /${prefix}/404.html  404`);
  }
  const redirects = join(dist, '_redirects');
  writeFileSync(redirects, `${readFileSync(redirects, 'utf8').trimEnd()}\n${rules.join('\n')}\n`);
}

const escapeXml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/**
 * Step 8: sitemap.xml with every prerendered page and, for each, its twins in both languages
 * (`xhtml:link` alternates, as the pages' own hreflang links), and robots.txt.
 */
function writeSitemapAndRobots(ssr: PrerenderModule): void {
  const entries = ssr.prerenderPaths().flatMap(({ path, lang }) => {
    const head = ssr.headFor(path, lang);
    if (head.canonical === null) return [];
    const alternates = head.alternates.map(
      (alt) => `\n    <xhtml:link rel="alternate" hreflang="${alt.hreflang}" href="${escapeXml(alt.href)}" />`,
    );
    return [`  <url>\n    <loc>${escapeXml(head.canonical)}</loc>${alternates.join('')}\n  </url>`];
  });
  writeFileSync(
    join(dist, 'sitemap.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${entries.join('\n')}\n</urlset>\n`,
  );
  const firstUrl = ssr.headFor('/', 'de').canonical ?? 'https://www.example.com/';
  writeFileSync(join(dist, 'robots.txt'), `User-agent: *\nDisallow: /admin/\n\nSitemap: ${new URL(firstUrl).origin}/sitemap.xml\n`);
}

/**
 * Step 9: the CSP lets the browser talk to exactly the Supabase project's origin (HTTPS and
 * WebSocket), and load Turnstile's widget only in a build with its site key (./csp.ts).
 */
function allowSupabaseInCsp(): void {
  const headersFile = join(dist, '_headers');
  if (!existsSync(headersFile)) throw new Error('public/_headers was not copied.');
  writeFileSync(
    headersFile,
    deploymentCsp(readFileSync(headersFile, 'utf8'), {
      supabaseUrl: process.env.VITE_SUPABASE_URL ?? 'http://127.0.0.1:54321',
      turnstile: (process.env.VITE_TURNSTILE_SITE_KEY ?? '').trim() !== '',
    }),
  );
}

/** Step 10: what only the build needed. */
function cleanUp(): void {
  rmSync(ssrOut, { recursive: true, force: true });
  rmSync(join(dist, '.vite'), { recursive: true, force: true });
}

async function main() {
  const manifest = await buildClient();
  const ssr = await buildPrerenderer();
  const template = readTemplate(ssr.stylesheet);
  const stylesheetTag = pageMetaTag(pageMeta.appStylesheet, writeWholeStylesheet(ssr.stylesheet));
  const firstLoad = await prerenderPages(ssr, manifest, template, stylesheetTag);
  addCompileHints(firstLoad);
  await writeShellAndNotFoundPages(ssr, template, stylesheetTag);
  writeSitemapAndRobots(ssr);
  allowSupabaseInCsp();
  cleanUp();
  console.log(
    `Prerendered ${String(ssr.prerenderPaths().length)} pages, spa.html, the not-found pages, sitemap.xml and robots.txt into ${dist}.`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
