/**
 * npm run bench:js — first-load JavaScript (gzip) of every prerendered page: the entry script and
 * the modules its HTML names for hydration (`<meta name="app-modules">`, preloaded by the entry
 * after the first paint) or preloads, which is what the browser fetches before the page is
 * interactive. Islands (the ROI calculators) load after that and are not counted.
 * Budget: 90 KB gzip for a marketing page. Run `npm run build` first.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { prerenderPaths } from '../src/config/routes';

const dist = resolve(import.meta.dirname, '..', process.env.DIST_DIR ?? 'dist');
const BUDGET_KB = 90;
let worst = 0;
for (const { path } of prerenderPaths()) {
  const html = readFileSync(join(dist, path === '/' ? 'index.html' : join(path, 'index.html')), 'utf8');
  const listed = /<meta name="app-modules" content="([^"]*)"/.exec(html)?.[1] ?? '';
  const files = [
    ...[...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1] ?? ''),
    ...listed.split(' ').filter(Boolean).map((href) => href.replace(/^\//, '')),
  ];
  const bytes = [...new Set(files)].reduce((sum, file) => sum + gzipSync(readFileSync(join(dist, file))).length, 0);
  const kb = bytes / 1024;
  worst = Math.max(worst, kb);
  console.log(`${kb.toFixed(1).padStart(6)} KB  ${path}`);
}
console.log(`largest first load: ${worst.toFixed(1)} KB gzip (budget ${String(BUDGET_KB)} KB) ${worst <= BUDGET_KB ? 'OK' : 'OVER BUDGET'}`);
