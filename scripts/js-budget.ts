/**
 * npm run bench:js — first-load JavaScript (gzip) of every prerendered page: the entry script and
 * the modules its HTML names for hydration (the `app-modules` meta entry, preloaded by the entry
 * after the first paint) or preloads, which is what the browser fetches before the page is
 * interactive. Islands (the ROI calculators) load after that and are not counted.
 * Budgets: 125 KB gzip for a marketing page, 130 KB for the live coach page (its voice button and
 * chat hydrate with the page). Exits non-zero when a page is over. Run `npm run build` first.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { pageMeta, pageMetaFromHtml } from '../src/app/buildContract';
import { prerenderPaths, routes, type RouteKind } from '../src/config/routes';

const dist = resolve(import.meta.dirname, '..', process.env.DIST_DIR ?? 'dist');
const budgetKb: Record<Exclude<RouteKind, 'admin'>, number> = { public: 125, coach: 130 };
const worst = { public: 0, coach: 0 };
for (const { path, id } of prerenderPaths()) {
  const kind = routes[id].kind === 'coach' ? 'coach' : 'public';
  const html = readFileSync(join(dist, path === '/' ? 'index.html' : join(path, 'index.html')), 'utf8');
  const listed = pageMetaFromHtml(html, pageMeta.appModules);
  const files = [
    ...[...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1] ?? ''),
    ...listed.split(' ').filter(Boolean).map((href) => href.replace(/^\//, '')),
  ];
  const bytes = [...new Set(files)].reduce((sum, file) => sum + gzipSync(readFileSync(join(dist, file))).length, 0);
  const kb = bytes / 1024;
  worst[kind] = Math.max(worst[kind], kb);
  console.log(`${kb.toFixed(1).padStart(6)} KB  ${path}${kind === 'coach' ? '  (live coach)' : ''}`);
}
let over = false;
for (const kind of ['public', 'coach'] as const) {
  const ok = worst[kind] <= budgetKb[kind];
  over ||= !ok;
  console.log(
    `largest first load, ${kind === 'public' ? 'marketing page' : 'live coach'}: ${worst[kind].toFixed(1)} KB gzip (budget ${String(budgetKb[kind])} KB) ${ok ? 'OK' : 'OVER BUDGET'}`,
  );
}
if (over) process.exitCode = 1;
