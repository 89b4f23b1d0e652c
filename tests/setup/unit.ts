import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// A React warning (hydration, keys, act) or any unexpected console output fails the test.
const fail = (kind: string) => (...args: unknown[]) => {
  throw new Error(`Unexpected console.${kind}: ${args.map(String).join(' ')}`);
};
vi.spyOn(console, 'error').mockImplementation(fail('error'));
vi.spyOn(console, 'warn').mockImplementation(fail('warn'));

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});
