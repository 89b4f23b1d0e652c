/**
 * npm run bench:particles — main-thread time per animation frame of the home page's 500
 * particles, measured in Chromium (budget: ≤ 2 ms per frame). Builds nothing: run `npm run build`
 * first. The page is measured twice, animated and under prefers-reduced-motion (no animation), and
 * the difference in main-thread task time is divided by the frames drawn, so page start-up and the
 * browser's own idle work cancel out.
 */
import { chromium, type Page } from '@playwright/test';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { clientOnlyPrefixes } from '../src/config/routes';
import { chromiumArgs, findChromium } from './find-chromium';
import { createStaticServer } from './staticServer';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const throttle = Number(process.env.BENCH_CPU_THROTTLE ?? 1);

async function measure(page: Page, url: string, reduced: boolean) {
  await page.emulateMedia({ reducedMotion: reduced ? 'reduce' : 'no-preference' });
  await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  await page.waitForTimeout(500);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  await cdp.send('Performance.enable');
  const task = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return (metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0) * 1000;
  };
  // A string, not a function: tsx's name helpers do not exist inside the page.
  const frames = page.evaluate<number>(`new Promise((done) => {
    let count = 0;
    const end = performance.now() + ${String(seconds * 1000)};
    const tick = () => {
      count++;
      if (performance.now() < end) requestAnimationFrame(tick);
      else done(count);
    };
    requestAnimationFrame(tick);
  })`);
  const before = await task();
  const frameCount = await frames;
  const after = await task();
  await cdp.detach();
  return { taskMs: after - before, frames: frameCount };
}

async function main() {
  const server = createStaticServer({ dir: resolve(import.meta.dirname, '..', process.env.DIST_DIR ?? 'dist'), clientOnlyPrefixes });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/`;
  const browser = await chromium.launch({ executablePath: findChromium(), args: chromiumArgs });
  try {
    const page = await browser.newPage({ viewport: { width: 412, height: 823 } });
    await page.addInitScript(() => window.localStorage.setItem('cookie-consent', 'accepted'));
    const still = await measure(page, url, true);
    const animated = await measure(page, url, false);
    const perFrame = (animated.taskMs - still.taskMs) / Math.max(animated.frames, 1);
    console.log(`particles: ${String(animated.frames)} frames in ${String(seconds)} s, CPU throttle ×${String(throttle)}`);
    console.log(`main-thread time: animated ${animated.taskMs.toFixed(0)} ms, still ${still.taskMs.toFixed(0)} ms`);
    console.log(`per frame: ${perFrame.toFixed(3)} ms (budget 2 ms) ${perFrame <= 2 ? 'OK' : 'OVER BUDGET'}`);
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
