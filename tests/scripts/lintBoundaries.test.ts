/**
 * The import rules must fail on forbidden imports. Each fixture in tests/fixtures/lint names the
 * file it is linted as (`lint-as:`) and the rule ids it must produce (`expect:`), so a broken
 * resolver or a dropped zone turns this test red instead of silently checking nothing. Lint a
 * fixture as a file that its import targets do not import back, or no-cycle reports too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const fixtureDir = join(root, 'tests', 'fixtures', 'lint');

interface LintFixture {
  name: string;
  code: string;
  lintAs: string;
  expected: string[];
}

function header(code: string, key: string, name: string): string {
  const match = new RegExp(`^// ${key}: (.+)$`, 'm').exec(code);
  const value = match?.[1];
  if (value === undefined) throw new Error(`${name} lacks a "// ${key}:" line`);
  return value.trim();
}

const fixtures: LintFixture[] = readdirSync(fixtureDir)
  .filter((name) => name.endsWith('.ts'))
  .sort()
  .map((name) => {
    const code = readFileSync(join(fixtureDir, name), 'utf8');
    const expectLine = header(code, 'expect', name);
    return {
      name,
      code,
      lintAs: header(code, 'lint-as', name),
      expected: expectLine === 'nothing' ? [] : expectLine.split(',').map((rule) => rule.trim()),
    };
  });

const importRule = /^import-x\//;

describe('lint: import boundaries', () => {
  // The project's own configuration (zones, resolver, parser), running only the import rules. They
  // need no type information, so the parser builds no TypeScript program: building one for both
  // tsconfigs costs more than everything else this file does.
  const eslint = new ESLint({
    cwd: root,
    overrideConfig: { languageOptions: { parserOptions: { project: false, projectService: false } } },
    ruleFilter: ({ ruleId }) => importRule.test(ruleId),
  });

  it('has fixtures for forbidden and allowed imports', () => {
    expect(fixtures.filter((fixture) => fixture.expected.length > 0).length).toBeGreaterThanOrEqual(8);
    expect(fixtures.some((fixture) => fixture.expected.length === 0)).toBe(true);
  });

  it.each(fixtures)('$name', { timeout: 120_000 }, async ({ code, lintAs, expected }) => {
    const [result] = await eslint.lintText(code, { filePath: join(root, lintAs) });
    const found = (result?.messages ?? [])
      .map((message) => message.ruleId ?? `fatal: ${message.message}`)
      .filter((rule) => importRule.test(rule) || rule.startsWith('fatal'));
    expect(found.sort()).toEqual([...expected].sort());
  });
});
