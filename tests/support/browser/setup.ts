import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';
import { loadEverything } from '../../../src/i18n';

// A React warning (hydration, keys, act) or any unexpected console output fails the test.
const fail = (kind: string) => (...args: unknown[]) => {
  throw new Error(`Unexpected console.${kind}: ${args.map(String).join(' ')}`);
};
vi.spyOn(console, 'error').mockImplementation(fail('error'));
vi.spyOn(console, 'warn').mockImplementation(fail('warn'));

// Components render with every language's words at hand, as after the browser has loaded them.
beforeAll(async () => {
  await loadEverything();
});

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});
