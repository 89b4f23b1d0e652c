import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, findTestChromium } from './scripts/find-chromium';
import { e2eEnv } from './tests/e2e/env';

export const baseURL = `http://127.0.0.1:${String(e2eEnv.sitePort)}`;

/**
 * End-to-end tests in real Chromium against the built site, served with the production headers
 * (CSP included), the real local Supabase-compatible stack and fake OpenAI / ElevenLabs servers,
 * all started by tests/e2e/server.ts. `npm test` builds first; run `npm run build` before
 * `npm run test:e2e` on its own. Specs named `*.serial.spec.ts` change shared state (the
 * functions' environment, the fake providers' behaviour, the greeting cache): they run one at a
 * time. `npm run test:e2e` (scripts/e2e.ts) runs them in a lane of their own (E2E_LANE=serial),
 * with its own server on other ports, beside the others (E2E_LANE=parallel); a plain
 * `playwright test` on one server runs them after all others.
 */
const lane = process.env.E2E_LANE;
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  reporter: 'list',
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL,
    // Recording a trace costs every test about a tenth more CPU; on CI the log is what is read.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    // Pages are visited as by someone who asked for reduced motion: the home page's particle canvas
    // otherwise keeps a core busy in Chromium's software rendering for as long as a test looks at
    // it. The tests about motion ask for it (layout.spec.ts).
    reducedMotion: 'reduce',
    launchOptions: { executablePath: findTestChromium(), args: chromiumArgs },
  },
  projects: [
    ...(lane === 'serial' ? [] : [{ name: 'chromium', use: { ...devices['Desktop Chrome'] }, testIgnore: /\.serial\.spec\.ts$/ }]),
    ...(lane === 'parallel'
      ? []
      : [
          {
            name: 'serial',
            use: { ...devices['Desktop Chrome'] },
            testMatch: /\.serial\.spec\.ts$/,
            fullyParallel: false,
            workers: 1,
            // Sharing the parallel specs' server, they wait for all of them.
            dependencies: lane === 'serial' ? [] : ['chromium'],
          },
        ]),
  ],
  webServer: {
    command: 'node_modules/.bin/tsx tests/e2e/server.ts',
    url: baseURL,
    env: { DIST_DIR: process.env.DIST_DIR ?? 'dist' },
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
