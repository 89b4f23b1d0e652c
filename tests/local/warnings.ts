/** Warnings the functions are expected to log in a test (all others fail it). */
import { vi } from 'vitest';

/**
 * Lets the functions' warnings that match `expected` through (a test configures caps small enough
 * to reach them), recording them; any other warning still fails the test, as
 * tests/support/node/setup.ts makes it. `restore()` puts the failing spy back.
 */
export function expectWarnings(expected: RegExp): { seen: () => string[]; restore: () => void } {
  const seen: string[] = [];
  const warn = vi.mocked(console.warn);
  const previous = warn.getMockImplementation();
  warn.mockImplementation((...args: unknown[]) => {
    const text = args.map(String).join(' ');
    if (!expected.test(text)) throw new Error(`Unexpected console.warn: ${text}`);
    seen.push(text);
  });
  return {
    seen: () => [...seen],
    restore: () => {
      warn.mockImplementation(previous ?? (() => undefined));
    },
  };
}

/** The functions' warnings of a spend cap or a budget that does not fit a question (../../supabase/functions/_shared). */
export const SPEND_WARNINGS = /daily cap of|daily budget of/u;
