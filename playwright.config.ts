import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, findChromium } from './scripts/find-chromium';

const port = Number(process.env.E2E_PORT ?? 4179);
export const baseURL = `http://127.0.0.1:${port}`;

/**
 * End-to-end tests in real Chromium against the built site, served with the production headers
 * (CSP included) by scripts/serve.ts. `npm test` builds first; run `npm run build` before
 * `npm run test:e2e` on its own.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: { executablePath: findChromium(), args: chromiumArgs },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: {
    command: 'node_modules/.bin/tsx scripts/serve.ts',
    url: baseURL,
    env: { PORT: String(port), DIST_DIR: process.env.DIST_DIR ?? 'dist' },
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
