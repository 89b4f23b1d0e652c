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
 * phases, the layout shifts and the long tasks (where a miss comes from). It also prints the host's
 * benchmarkIndex and, from each run's trace, how long the main thread's tasks after the first paint
 * took on the clock and how much of that the main thread was running. BENCH_FLOOR=1 then
 * audits the same pages once more with every script removed from their HTML: the floor that the
 * machine and the browser set, which no script can go below. Slow (about 10 s per run): not part
 * of `npm test`.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import type { Result, RunnerResult } from 'lighthouse';
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
  /** Lighthouse's measure of the host's CPU (its report's "CPU/Memory Power"). */
  benchmarkIndex: number;
  /** The main thread's tasks after the first paint that can count for TBT: their time on the clock… */
  taskWallMs: number;
  /** …and how much of it the main thread ran (the rest it was not running). */
  taskCpuMs: number;
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
    benchmarkIndex: median(all.map((r) => r.benchmarkIndex)),
    taskWallMs: median(all.map((r) => r.taskWallMs)),
    taskCpuMs: median(all.map((r) => r.taskCpuMs)),
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
async function audit(url: string, port: number, attempt = 1): Promise<RunnerResult> {
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
  if (!error && result) return result;
  if (attempt >= 3) throw new Error(`${url}: ${error?.code ?? ''} ${error?.message ?? ''}`);
  console.warn(`  ${url}: ${error?.code ?? ''}, running again`);
  return audit(url, port, attempt + 1);
}

/** One page's figures: every run and their median. */
interface PageResult {
  path: string;
  runs: RunFigures[];
  median: RunFigures;
}

interface TraceEvent {
  name: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
}

/**
 * The page's main-thread tasks after its first contentful paint that are long enough to count for
 * TBT once Lighthouse's simulation slows them down 4× (12.5 ms or more as observed): their time
 * on the clock and the main thread's own time in them (its thread time), from the run's own
 * trace. Lighthouse counts the clock; where the two differ, the main thread was not running: it
 * waited for a core that the browser's other threads and processes had, or for a synchronous call
 * into another process (a font lookup, for one).
 */
function blockingTasks(events: readonly TraceEvent[]): { taskWallMs: number; taskCpuMs: number } {
  const paint = events.find((event) => event.name === 'firstContentfulPaint');
  if (!paint) return { taskWallMs: Number.NaN, taskCpuMs: Number.NaN };
  const tasks = events.filter(
    (event) =>
      event.name === 'RunTask' &&
      event.pid === paint.pid &&
      event.tid === paint.tid &&
      event.ts >= paint.ts &&
      (event.dur ?? 0) >= 12_500,
  );
  const sum = (pick: (event: TraceEvent) => number) => tasks.reduce((total, event) => total + pick(event), 0) / 1000;
  return { taskWallMs: sum((event) => event.dur ?? 0), taskCpuMs: sum((event) => event.tdur ?? event.dur ?? 0) };
}

function printRow(path: string, m: RunFigures): void {
  const s = m.scores;
  console.log(
    `${path.padEnd(30)} ${[s.performance, s.accessibility, s['best-practices'], s.seo].map((v) => String(v).padStart(4)).join('  ')}  ` +
      `${m.lcpMs.toFixed(0).padStart(7)} ${m.fcpMs.toFixed(0).padStart(7)} ${m.tbtMs.toFixed(0).padStart(7)}  ${m.cls.toFixed(3)}` +
      (misses(m).length > 0 ? `   misses: ${misses(m).join(', ')}` : ''),
  );
}

/** Serves `dir` as `npm run serve` does and audits each path `runs` times, printing a row per page. */
async function auditPages(dir: string, paths: string[], chromePort: number): Promise<PageResult[]> {
  const server = createStaticServer({ dir, clientOnlyPrefixes });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  const results: PageResult[] = [];
  try {
    console.log(`Lighthouse ${runs > 1 ? `median of ${String(runs)} runs` : '1 run'} per page, mobile, simulated throttling, ${origin}\n`);
    console.log(`${'page'.padEnd(30)} perf  a11y  b-p   seo    LCP ms  FCP ms  TBT ms  CLS`);
    for (const path of paths) {
      await warm(origin, path);
      const all: RunFigures[] = [];
      let worstRun: { lhr: Result; score: number; cls: number } | undefined;
      for (let i = 0; i < runs; i++) {
        const { lhr, artifacts } = await audit(`${origin}${path}`, chromePort);
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
          benchmarkIndex: lhr.environment.benchmarkIndex,
          ...blockingTasks(artifacts.Trace.traceEvents),
        });
      }
      const m = medianOf(all);
      results.push({ path, runs: all, median: m });
      printRow(path, m);
      if (process.env.BENCH_DETAILS && worstRun) {
        console.log(`    tasks after the first paint that count for TBT: ${m.taskWallMs.toFixed(0)} ms on the clock, ${m.taskCpuMs.toFixed(0)} ms of it running (median of the runs)`);
        printDetails(worstRun.lhr);
      }
    }
  } finally {
    server.close();
  }
  return results;
}

/**
 * A copy of the build whose pages have no script: the same HTML and inline CSS, painted as the
 * visitor first sees them, with nothing run. What Lighthouse measures for it is the machine's and
 * the browser's share of a page (parsing, style, layout, paint), the floor below which no script
 * can bring the page. Where the floor itself misses the goal, the machine cannot show the goal.
 */
function withoutScripts(html: string): string {
  return html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/giu, '').replace(/<link\b[^>]*rel="modulepreload"[^>]*>/giu, '');
}

function scriptFreeCopy(from: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'lighthouse-floor-'));
  cpSync(from, dir, { recursive: true });
  const pages = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.html'));
  for (const name of pages) {
    const file = join(dir, name);
    writeFileSync(file, withoutScripts(readFileSync(file, 'utf8')));
  }
  return dir;
}

async function main() {
  if (!existsSync(join(dist, 'index.html'))) throw new Error(`No build in ${dist}: run \`npm run build\` first.`);
  const only = process.env.BENCH_ROUTES?.split(',').map((p) => p.trim()).filter(Boolean);
  const paths = prerenderPaths()
    .map(({ path }) => path)
    .filter((path) => !only || only.includes(path));
  if (paths.length === 0) throw new Error(`BENCH_ROUTES matches no prerendered page: ${process.env.BENCH_ROUTES ?? ''}`);

  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? findChromium(),
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
  });
  const floorDir = process.env.BENCH_FLOOR ? scriptFreeCopy(dist) : null;
  let results: PageResult[];
  let floor: PageResult[] = [];
  try {
    results = await auditPages(dist, paths, chrome.port);
    if (floorDir) {
      console.log('\nThe floor: the same pages without any script (BENCH_FLOOR)');
      floor = await auditPages(floorDir, paths, chrome.port);
    }
  } finally {
    chrome.kill();
    if (floorDir) rmSync(floorDir, { recursive: true, force: true });
  }

  if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, `${JSON.stringify(floorDir ? { results, floor } : results, null, 2)}\n`);
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
  // Lighthouse slows the host's CPU down 4× in its simulation, a factor it calibrates for a
  // high-end desktop (benchmarkIndex 1500–2000); on a slower host the same page counts slower.
  const index = median(results.map((r) => r.median.benchmarkIndex));
  console.log(`host CPU: Lighthouse benchmarkIndex ${index.toFixed(0)} (its 4× CPU slowdown is calibrated for 1500–2000)`);
  const wall = median(results.map((r) => r.median.taskWallMs));
  const cpu = median(results.map((r) => r.median.taskCpuMs));
  console.log(
    `main-thread tasks after the first paint that count for TBT (median page): ${wall.toFixed(0)} ms on the clock, ` +
      `${cpu.toFixed(0)} ms of it running; the rest the main thread waited (for one of the machine's ${String(availableParallelism())} cores, or for another process)`,
  );
  const floorMisses = floor.filter((r) => misses(r.median).length > 0);
  if (floorDir) {
    console.log(
      floorMisses.length === 0
        ? 'without scripts, every page meets the goal on this machine'
        : `without any script, ${String(floorMisses.length)} of ${String(floor.length)} pages already miss the goal on this machine: ${floorMisses.map((r) => r.path).join(', ')}`,
    );
  }
  if (failing.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
