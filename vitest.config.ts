import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { parseEnv } from './src/config/envSchema.ts';

Object.assign(process.env, parseEnv({}));

export default defineConfig({
  plugins: [react()],
  define: { __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()) },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'jsdom',
          globals: true,
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/setup/unit.ts'],
          testTimeout: 15_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['tests/{db,local,scripts,pdf,audio,functions}/**/*.test.ts'],
          setupFiles: ['tests/setup/node.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
