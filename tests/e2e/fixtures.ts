import { test as base, expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Json = Record<string, unknown>;
const locales = join(import.meta.dirname, '..', '..', 'src', 'i18n', 'locales');

/** Reads a translation as the app shows it, so tests follow the copy instead of repeating it. */
export function text(lang: 'de' | 'en', key: string, vars: Record<string, string> = {}): string {
  const [ns, ...path] = key.split(':').length === 2 ? (key.split(':') as [string, string]) : ['common', key];
  const file = JSON.parse(readFileSync(join(locales, lang, `${ns}.json`), 'utf8')) as Json;
  const value = path
    .join('.')
    .split('.')
    .reduce<unknown>((node, part) => (node as Json)[part], file);
  if (typeof value !== 'string') throw new Error(`No text at ${lang}/${key}`);
  return value.replace(/{{\s*(\w+)\s*}}/g, (_, name: string) => vars[name] ?? '');
}

export interface ConsoleProblems {
  /** Problems seen so far. */
  readonly seen: string[];
  /**
   * Expects a console message a test provokes on purpose, e.g. the browser's own
   * "Failed to load resource: … 400" line for a refused sign-in. Anything else still fails.
   */
  allow(pattern: RegExp): void;
}

/**
 * Every test fails on a console error, a page error or a CSP violation in the browser: a hydration
 * mismatch, a React warning or a blocked script shows up here.
 */
export const test = base.extend<{ consoleProblems: ConsoleProblems }>({
  consoleProblems: [
    async ({ context }, use) => {
      const seen: string[] = [];
      const allowed: RegExp[] = [];
      // Every page of the test's context, including a second tab.
      const watch = (page: import('@playwright/test').Page) => {
        page.on('console', (message) => {
          if (message.type() === 'error' || message.type() === 'warning') seen.push(`${message.type()}: ${message.text()}`);
        });
        page.on('pageerror', (error) => seen.push(`pageerror: ${error.message}`));
      };
      context.pages().forEach(watch);
      context.on('page', watch);
      await use({ seen, allow: (pattern) => allowed.push(pattern) });
      const unexpected = seen.filter((problem) => !allowed.some((pattern) => pattern.test(problem)));
      expect(unexpected, 'console errors and warnings').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** The accessibility rules every page and state is audited against (axe-core tags). */
export const wcag = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** Waits until React has hydrated the prerendered page (the app marks <html> when it is live). */
export async function gotoHydrated(page: Page, path: string) {
  const response = await page.goto(path);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  return response;
}
