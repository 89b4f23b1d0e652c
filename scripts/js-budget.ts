/**
 * npm run bench:js — first-load JavaScript (gzip) of every prerendered page: the entry script and
 * the chunks its HTML preloads, which is what the browser fetches before the page is interactive.
 * Budget: 120 KB gzip for a marketing page. Run `npm run build` first.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { prerenderPaths } from '../src/config/routes';

const dist = resolve(import.meta.dirname, '..', process.env.DIST_DIR ?? 'dist');
const BUDGET_KB = 120;
let worst = 0;
for (const { path } of prerenderPaths()) {
  const html = readFileSync(join(dist, path === '/' ? 'index.html' : join(path, 'index.html')), 'utf8');
  const files = [...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1] ?? '');
  const bytes = [...new Set(files)].reduce((sum, file) => sum + gzipSync(readFileSync(join(dist, file))).length, 0);
  const kb = bytes / 1024;
  worst = Math.max(worst, kb);
  console.log(`${kb.toFixed(1).padStart(6)} KB  ${path}`);
}
console.log(`largest first load: ${worst.toFixed(1)} KB gzip (budget ${String(BUDGET_KB)} KB) ${worst <= BUDGET_KB ? 'OK' : 'OVER BUDGET'}`);
