/**
 * npm run bench:lighthouse — Lighthouse 12 (mobile, simulated throttling: its default config) on
 * every prerendered public page, German and English paths alike, with the site served as
 * `npm run serve` serves it (same static server, same production headers from dist/_headers).
 * Three runs per page (BENCH_RUNS); every figure printed is the median of its runs. Prints each
 * page's four category scores, LCP, FCP, TBT and CLS, then the worst page, and exits non-zero when
 * a page misses the goal: 100 in all four categories, LCP ≤ 1.2 s, TBT ≤ 50 ms, CLS 0.
 *
 * Run `npm run build` first. Chromium: CHROME_PATH, else what scripts/find-chromium.ts finds.
 * BENCH_ROUTES=/,/products/ai-hotlines limits the pages; BENCH_JSON=file writes every run's
 * figures as JSON; BENCH_DETAILS=1 also prints, from each page's worst run, the LCP element and its
 * phases, the layout shifts and the long tasks (where a miss comes from). Slow (about 10 s per
 * run): not part of `npm test`.
 */
import { writeFileSync, existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import type { Result } from 'lighthouse';
import { clientOnlyPrefixes, prerenderPaths } from '../src/config/routes';
import { findChromium } from './find-chromium';
import { createStaticServer } from './staticServer';

const dist = resolve(import.meta.dirname, '..', process.env.DIST_DIR ?? 'dist');
const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const goal = { score: 100, lcpMs: 1200, tbtMs: 50, cls: 0 };

interface RunFigures {
  scores: Record<(typeof categories)[number], number>;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

function medianOf(all: RunFigures[]): RunFigures {
  const scores = Object.fromEntries(categories.map((c) => [c, median(all.map((r) => r.scores[c]))])) as RunFigures['scores'];
  return {
    scores,
    lcpMs: median(all.map((r) => r.lcpMs)),
    fcpMs: median(all.map((r) => r.fcpMs)),
    tbtMs: median(all.map((r) => r.tbtMs)),
    cls: median(all.map((r) => r.cls)),
  };
}

function misses(figures: RunFigures): string[] {
  const found: string[] = [];
  for (const c of categories) if (figures.scores[c] < goal.score) found.push(`${c} ${String(figures.scores[c])}`);
  if (figures.lcpMs > goal.lcpMs) found.push(`LCP ${figures.lcpMs.toFixed(0)} ms`);
  if (figures.tbtMs > goal.tbtMs) found.push(`TBT ${figures.tbtMs.toFixed(0)} ms`);
  // CLS as Lighthouse's report shows it (three decimals): a 0.0001 shift of a sub-pixel is 0 there.
  if (Number(figures.cls.toFixed(3)) > goal.cls) found.push(`CLS ${figures.cls.toFixed(3)}`);
  return found;
}

interface DetailItem {
  node?: { snippet?: string; selector?: string };
  phase?: string;
  timing?: number;
  score?: number;
  url?: string;
  duration?: number;
  total?: number;
  scripting?: number;
  groupLabel?: string;
  startTime?: number;
}
interface DetailTable {
  type?: string;
  items?: (DetailItem | DetailTable)[];
}

/** The rows of an audit's details table; a list (as the LCP element audit gives) is flattened. */
function detailRows(lhr: Result, id: string): DetailItem[] {
  const details = lhr.audits[id]?.details as DetailTable | undefined;
  const rows: DetailItem[] = [];
  const walk = (table: DetailTable) => {
    for (const item of table.items ?? []) {
      if ('items' in item && Array.isArray(item.items)) walk(item);
      else rows.push(item as DetailItem);
    }
  };
  if (details) walk(details);
  return rows;
}

const short = (text = '', length = 110) => (text.length > length ? `${text.slice(0, length)}…` : text);

function printDetails(lhr: Result): void {
  for (const row of detailRows(lhr, 'largest-contentful-paint-element')) {
    if (row.node) console.log(`    LCP element: ${short(row.node.selector)} ${short(row.node.snippet)}`);
    else if (row.phase) console.log(`    LCP ${row.phase}: ${(row.timing ?? 0).toFixed(0)} ms`);
  }
  for (const row of detailRows(lhr, 'layout-shifts')) {
    console.log(`    layout shift ${(row.score ?? 0).toFixed(4)}: ${short(row.node?.selector)} ${short(row.node?.snippet)}`);
  }
  const work = detailRows(lhr, 'mainthread-work-breakdown').map((row) => `${row.groupLabel ?? ''} ${(row.duration ?? 0).toFixed(0)}`);
  console.log(`    main thread ms: ${work.join(', ')}`);
  const scripts = detailRows(lhr, 'bootup-time').map((row) => `${short(row.url?.replace(/^https?:\/\/[^/]+/, ''), 50)} ${(row.total ?? 0).toFixed(0)}`);
  console.log(`    per script ms: ${scripts.join(', ')}`);
  for (const row of detailRows(lhr, 'long-tasks')) {
    console.log(`    long task ${(row.duration ?? 0).toFixed(0)} ms at ${(row.startTime ?? 0).toFixed(0)} ms: ${short(row.url, 80)}`);
  }
}

/**
 * Requests the page and every asset it names once before its first run, as a CDN's cache would
 * be warm: the static server compresses each file once (brotli) and then serves it from memory.
 */
async function warm(origin: string, path: string): Promise<void> {
  const get = async (url: string) => (await fetch(url, { headers: { 'accept-encoding': 'br' } })).arrayBuffer();
  const html = new TextDecoder().decode(await get(`${origin}${path}`));
  for (const [asset] of html.matchAll(/\/assets\/[\w.-]+/g)) await get(`${origin}${asset}`);
}

/** Lower is worse: the lowest category score first, then the slowest LCP. */
const badness = (f: RunFigures) => [-Math.min(...categories.map((c) => f.scores[c])), f.lcpMs, f.tbtMs];

/** One Lighthouse run; a failed trace (e.g. NO_NAVSTART on a busy machine) is retried twice. */
async function audit(url: string, port: number, attempt = 1): Promise<Result> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...categories],
    // Every run is a first visit. Lighthouse's default reset keeps localStorage and cookies, so a
    // language chosen on an English page of an earlier run would make the next German-only page
    // (the legal pages) switch to English after hydration: a layout shift no first visit has.
    clearStorageTypes: ['file_systems', 'shader_cache', 'service_workers', 'cache_storage', 'local_storage', 'indexeddb', 'cookies'],
  });
  const error = result ? result.lhr.runtimeError : { code: 'NO_RESULT', message: 'Lighthouse returned nothing' };
  if (!error && result) return result.lhr;
  if (attempt >= 3) throw new Error(`${url}: ${error?.code ?? ''} ${error?.message ?? ''}`);
  console.warn(`  ${url}: ${error?.code ?? ''}, running again`);
  return audit(url, port, attempt + 1);
}

async function main() {
  if (!existsSync(join(dist, 'index.html'))) throw new Error(`No build in ${dist}: run \`npm run build\` first.`);
  const only = process.env.BENCH_ROUTES?.split(',').map((p) => p.trim()).filter(Boolean);
  const paths = prerenderPaths()
    .map(({ path }) => path)
    .filter((path) => !only || only.includes(path));
  if (paths.length === 0) throw new Error(`BENCH_ROUTES matches no prerendered page: ${process.env.BENCH_ROUTES ?? ''}`);

  const server = createStaticServer({ dir: dist, clientOnlyPrefixes });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? findChromium(),
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
  });

  const results: { path: string; runs: RunFigures[]; median: RunFigures }[] = [];
  try {
    const header = `${'page'.padEnd(30)} perf  a11y  b-p   seo    LCP ms  FCP ms  TBT ms  CLS`;
    console.log(`Lighthouse ${runs > 1 ? `median of ${String(runs)} runs` : '1 run'} per page, mobile, simulated throttling, ${origin}\n`);
    console.log(header);
    for (const path of paths) {
      await warm(origin, path);
      const all: RunFigures[] = [];
      let worstRun: { lhr: Result; score: number; cls: number } | undefined;
      for (let i = 0; i < runs; i++) {
        const lhr = await audit(`${origin}${path}`, chrome.port);
        // The run BENCH_DETAILS explains: the lowest performance score, then the largest shift.
        const run = { lhr, score: lhr.categories.performance?.score ?? 0, cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? 0 };
        if (!worstRun || run.score < worstRun.score || (run.score === worstRun.score && run.cls > worstRun.cls)) worstRun = run;
        const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
        all.push({
          scores: Object.fromEntries(categories.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])) as RunFigures['scores'],
          lcpMs: numeric('largest-contentful-paint'),
          fcpMs: numeric('first-contentful-paint'),
          tbtMs: numeric('total-blocking-time'),
          cls: numeric('cumulative-layout-shift'),
        });
      }
      const m = medianOf(all);
      results.push({ path, runs: all, median: m });
      const s = m.scores;
      console.log(
        `${path.padEnd(30)} ${[s.performance, s.accessibility, s['best-practices'], s.seo].map((v) => String(v).padStart(4)).join('  ')}  ` +
          `${m.lcpMs.toFixed(0).padStart(7)} ${m.fcpMs.toFixed(0).padStart(7)} ${m.tbtMs.toFixed(0).padStart(7)}  ${m.cls.toFixed(3)}` +
          (misses(m).length > 0 ? `   misses: ${misses(m).join(', ')}` : ''),
      );
      if (process.env.BENCH_DETAILS && worstRun) printDetails(worstRun.lhr);
    }
  } finally {
    chrome.kill();
    server.close();
  }

  if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, `${JSON.stringify(results, null, 2)}\n`);
  const worst = [...results].sort((a, b) => {
    const [x, y] = [badness(a.median), badness(b.median)];
    for (let i = 0; i < x.length; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (y[i] ?? 0) - (x[i] ?? 0);
    return 0;
  })[0];
  const failing = results.filter((r) => misses(r.median).length > 0);
  if (worst) {
    const s = worst.median.scores;
    console.log(
      `\nworst page: ${worst.path} (${categories.map((c) => String(s[c])).join('/')}, LCP ${worst.median.lcpMs.toFixed(0)} ms, ` +
        `TBT ${worst.median.tbtMs.toFixed(0)} ms, CLS ${worst.median.cls.toFixed(3)})`,
    );
  }
  console.log(
    failing.length === 0
      ? `all ${String(results.length)} pages meet the goal (100/100/100/100, LCP ≤ ${String(goal.lcpMs)} ms, TBT ≤ ${String(goal.tbtMs)} ms, CLS 0)`
      : `${String(failing.length)} of ${String(results.length)} pages miss the goal: ${failing.map((r) => r.path).join(', ')}`,
  );
  if (failing.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
