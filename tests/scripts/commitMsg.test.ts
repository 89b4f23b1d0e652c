/**
 * The commit-msg hook (.githooks/commit-msg): a subject of at most 72 characters passes, a longer
 * one is refused; characters are counted, not bytes, and comment lines are not the subject.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const hook = resolve(import.meta.dirname, '..', '..', '.githooks', 'commit-msg');
const dir = mkdtempSync(join(tmpdir(), 'commit-msg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function check(message: string): { status: number | null; stderr: string } {
  const file = join(dir, 'COMMIT_EDITMSG');
  writeFileSync(file, message);
  const result = spawnSync('sh', [hook, file], { encoding: 'utf8' });
  return { status: result.status, stderr: result.stderr };
}

describe('commit-msg hook', () => {
  it('accepts a subject of exactly 72 characters with a long body', () => {
    expect(check(`${'a'.repeat(72)}\n\n${'b'.repeat(300)}\n`).status).toBe(0);
  });

  it('refuses a subject of 73 characters and says how long it is', () => {
    const result = check(`${'a'.repeat(73)}\n`);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('73 characters');
  });

  it('counts umlauts as one character each', () => {
    expect(check(`${'ä'.repeat(72)}\n`).status).toBe(0);
    expect(check(`${'ä'.repeat(73)}\n`).status).toBe(1);
  });

  it('skips comment lines before the subject', () => {
    expect(check(`# ${'x'.repeat(100)}\nShort subject\n`).status).toBe(0);
  });
});
