import { afterEach, vi } from 'vitest';

// An unexpected warning or error in a server-side test is a failure, not noise.
const fail = (kind: string) => (...args: unknown[]) => {
  throw new Error(`Unexpected console.${kind}: ${args.map(String).join(' ')}`);
};
vi.spyOn(console, 'error').mockImplementation(fail('error'));
vi.spyOn(console, 'warn').mockImplementation(fail('warn'));
afterEach(() => {
  vi.clearAllMocks();
});
