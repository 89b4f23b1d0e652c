import react from '@vitejs/plugin-react';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { parseEnv } from './src/config/envSchema.ts';

Object.assign(process.env, parseEnv({}));

/**
 * Unit tests that talk to the backend through the browser fakes (a stubbed fetch, audio, speech):
 * the services they reach keep per-page-view state (the supabase-js client with the fetch it was
 * created with, "asked once" answers), so each file gets fresh modules.
 */
const isolatedUnitTests = ['src/services/**/*.test.{ts,tsx}', 'src/features/coach/**/*.test.{ts,tsx}'];

export default defineConfig({
  plugins: [react()],
  define: { __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()) },
  test: {
    // A worker on every core, not Vitest's default of one core kept back: its main process is
    // mostly idle (run times in docs/testing.md).
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'jsdom',
          globals: true,
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: isolatedUnitTests,
          setupFiles: ['tests/support/browser/setup.ts'],
          testTimeout: 15_000,
          // One jsdom for all of these files instead of one per file: they keep no module state
          // between files (tests/support/browser/setup.ts empties the DOM and storage after each test).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'unit-isolated',
          environment: 'jsdom',
          globals: true,
          include: isolatedUnitTests,
          setupFiles: ['tests/support/browser/setup.ts'],
          testTimeout: 15_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['tests/{db,local,scripts,pdf,audio,functions}/**/*.test.ts'],
          setupFiles: ['tests/support/node/setup.ts'],
          globalSetup: ['tests/support/node/globalSetup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
