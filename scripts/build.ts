/**
 * npm run build: the client bundle (Vite), then the prerender entry for Node, then static HTML
 * for every public route in each language it has, plus spa.html (client-only routes), 404.html,
 * sitemap.xml and robots.txt, all read from the one route registry.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';

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
}

interface ManifestChunk {
  file: string;
  imports?: string[];
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

async function main() {
  await build({ root, logLevel: 'warn', build: { outDir: dist, emptyOutDir: true } });
  await build({
    root,
    logLevel: 'warn',
    build: { ssr: 'src/app/prerender.tsx', outDir: ssrOut, emptyOutDir: true, copyPublicDir: false },
  });

  const entry = join(ssrOut, 'prerender.js');
  const ssr = (await import(pathToFileURL(entry).href)) as PrerenderModule;
  const template = readFileSync(join(dist, 'index.html'), 'utf8');
  if (!template.includes('<!--app-html-->') || !template.includes('<!--app-head-->')) {
    throw new Error('index.html lost its <!--app-head--> or <!--app-html--> marker.');
  }

  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  // The page's chunks and its words in the page's language (common and the page's namespaces).
  const preloadTags = (id: string, lang: string) => {
    const page = ssr.pageModules[id];
    const keys = [
      `src/pages/${page?.file ?? ''}`,
      ...['common', ...(page?.namespaces ?? [])].map((ns) => `src/i18n/locales/${lang}/${ns}.json`),
    ];
    return [...new Set(keys.flatMap((key) => preloadsFor(manifest, key)))]
      .map((file) => `<link rel="modulepreload" crossorigin href="/${file}" />`)
      .join('\n    ');
  };

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
    writeFileSync(file, page(lang, `${ssr.renderHeadTags(ssr.headFor(path, lang))}\n    ${preloadTags(id, lang)}`, html));
    written.push(path);
  }

  const missing = '/__not-found__';
  const notFound = await ssr.render(`${origin}${missing}`);
  writeFileSync(join(dist, '404.html'), page('de', ssr.renderHeadTags(ssr.headFor(missing, 'de')), notFound.html));

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
