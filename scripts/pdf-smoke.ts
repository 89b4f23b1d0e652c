/**
 * npx tsx scripts/pdf-smoke.ts — checks `extractPdfText` as the browser runs it: Vite bundles a
 * tiny page around src/services/pdfText.ts, the static server serves it under the site's real
 * headers (CSP without eval, worker-src 'self'), and Chromium extracts every PDF fixture. Prints
 * what came back, the worker pdfjs started and the longest main-thread task (a figure, not a
 * verdict); exits 1 when a result is wrong, the CSP was violated or no worker ran.
 */
import { chromium } from '@playwright/test';
import { once } from 'node:events';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { knowledgePages } from '../tests/fixtures/pdf/knowledgeText';
import { makeTextPdf } from '../tests/fixtures/pdf/makePdf';
import { fixtureBytes, type FixtureName } from '../tests/fixtures/pdf/write';
import { chromiumArgs, findChromium } from './find-chromium';
import { createStaticServer } from './staticServer';

const root = resolve(import.meta.dirname, '..');

interface Outcome {
  pages?: number;
  text?: string;
  reason?: string;
  message?: string;
  error?: string;
  progress: number[];
}

const expected: Record<FixtureName, string> = {
  knowledge: 'text',
  imageOnly: 'no-text',
  encrypted: 'encrypted',
  broken: 'broken',
  textAsPdf: 'broken',
};

async function bundle(dir: string): Promise<string> {
  const out = join(dir, 'out');
  const service = JSON.stringify(join(root, 'src/services/pdfText.ts'));
  // The page exposes one function; its module is the service exactly as the app imports it.
  writeFileSync(
    join(dir, 'smoke.ts'),
    `import { extractPdfText, PdfTextError } from ${service};
window.smokeExtract = async (bytes) => {
  const progress = [];
  try {
    const blob = new Blob([new Uint8Array(bytes)], { type: 'application/pdf' });
    const { text, pages } = await extractPdfText(blob, { onPage: (done) => progress.push(done) });
    return { text, pages, progress };
  } catch (error) {
    if (error instanceof PdfTextError) return { reason: error.reason, message: error.message, progress };
    return { error: String(error), progress };
  }
};
document.body.dataset.ready = 'true';
`,
  );
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html lang="de"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>pdf smoke</title>' +
      '<script type="module" src="./smoke.ts"></script></head><body></body></html>',
  );
  await build({ root: dir, configFile: false, logLevel: 'warn', build: { outDir: out, emptyOutDir: true, target: 'es2022' } });
  copyFileSync(join(root, 'public/_headers'), join(out, '_headers'));
  return out;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-smoke-'));
  const server = createStaticServer({ dir: await bundle(dir), clientOnlyPrefixes: [] });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const browser = await chromium.launch({ executablePath: findChromium(), args: chromiumArgs });
  const problems: string[] = [];
  try {
    const page = await browser.newPage();
    const workers: string[] = [];
    page.on('worker', (worker) => workers.push(worker.url()));
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()} ${message.location().url}`);
    });
    page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
    await page.goto(`http://127.0.0.1:${String((server.address() as AddressInfo).port)}/`);
    await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
    await page.evaluate(`(() => {
      window.violations = [];
      window.longestTask = 0;
      document.addEventListener('securitypolicyviolation', (event) => window.violations.push(event.violatedDirective + ' ' + event.blockedURI));
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.longestTask = Math.max(window.longestTask, entry.duration);
      }).observe({ type: 'longtask' });
    })()`);

    // The bytes go over first, so parsing them is not counted as the extraction's main-thread work.
    const extract = async (bytes: Uint8Array) => {
      await page.evaluate(`window.pending = ${JSON.stringify(Array.from(bytes))}`);
      return page.evaluate<Outcome>('window.longestTask = 0, window.smokeExtract(window.pending)');
    };
    const files = fixtureBytes();
    for (const [name, bytes] of Object.entries(files) as [FixtureName, Uint8Array][]) {
      const outcome = await extract(bytes);
      const got = outcome.text !== undefined ? 'text' : (outcome.reason ?? `error ${outcome.error ?? '?'}`);
      console.log(`${name.padEnd(10)} → ${got}${outcome.pages ? `, ${String(outcome.pages)} pages` : ''}${outcome.message ? ` (${outcome.message})` : ''}`);
      if (got !== expected[name]) problems.push(`${name}: expected ${expected[name]}, got ${got}`);
      if (name === 'knowledge' && outcome.text !== knowledgePages.map((lines) => lines.join('\n')).join('\n\n')) {
        problems.push(`knowledge: text differs:\n${outcome.text ?? ''}`);
      }
    }

    const long = makeTextPdf(Array.from({ length: 60 }, (_, i) => knowledgePages[i % 3] ?? []));
    const started = Date.now();
    const outcome = await extract(long);
    const elapsed = Date.now() - started;
    if (outcome.pages !== 60) problems.push(`60-page PDF: got ${JSON.stringify(outcome).slice(0, 200)}`);
    const longestTask = await page.evaluate<number>('window.longestTask');
    const longest = longestTask > 0 ? `${longestTask.toFixed(0)} ms` : 'none of 50 ms or more';
    console.log(`60 pages  → ${String(elapsed)} ms in all; longest main-thread task meanwhile: ${longest}`);

    const violations = await page.evaluate<string[]>('window.violations');
    problems.push(...violations.map((violation) => `CSP violation: ${violation}`));
    console.log(`workers started: ${String(workers.length)} (${[...new Set(workers.map((url) => new URL(url).pathname))].join(', ')})`);
    if (!workers.some((url) => /pdf\.worker[^/]*\.mjs$/.test(url))) problems.push('pdfjs did not start its worker');
  } finally {
    await browser.close();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
  console.log('pdf smoke: ok');
}

await main();
