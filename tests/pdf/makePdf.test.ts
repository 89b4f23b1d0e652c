/** The fixture writer itself: sound file structure, the ciphers it builds on, the files on disk. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { knowledgePages } from '../fixtures/pdf/knowledgeText';
import { rc4, winAnsi, wrapParagraphs } from '../fixtures/pdf/makePdf';
import { fixtureBytes, fixtureFiles, writeFixtures } from '../fixtures/pdf/write';

const latin1 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('latin1');

/** Checks what a strict reader checks first: header, startxref, and every xref entry pointing at its object. */
function expectSoundStructure(bytes: Uint8Array): void {
  const text = latin1(bytes);
  expect(text.startsWith('%PDF-1.7\n')).toBe(true);
  expect(text.endsWith('%%EOF\n')).toBe(true);
  const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)?.[1]);
  expect(text.slice(startxref, startxref + 5)).toBe('xref\n');
  const header = /^xref\n0 (\d+)\n/.exec(text.slice(startxref));
  const size = Number(header?.[1]);
  const table = text.slice(startxref + (header?.[0].length ?? 0), startxref + (header?.[0].length ?? 0) + size * 20);
  const entries = table.match(/.{20}/gs) ?? [];
  expect(entries).toHaveLength(size);
  expect(entries[0]).toBe('0000000000 65535 f\r\n');
  entries.slice(1).forEach((entry, i) => {
    expect(entry).toMatch(/^\d{10} 00000 n\r\n$/);
    const offset = Number(entry.slice(0, 10));
    expect(text.slice(offset, offset + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`);
  });
  expect(text).toContain(`/Size ${size}`);
}

describe('makePdf', () => {
  const files = fixtureBytes();

  it.each(['knowledge', 'imageOnly', 'encrypted'] as const)('writes a correct xref table (%s)', (name) => {
    expectSoundStructure(files[name]);
  });

  it('gives every stream its exact length', () => {
    const text = latin1(files.knowledge);
    for (const match of text.matchAll(/\/Length (\d+) >>\nstream\n/g)) {
      const start = (match.index) + match[0].length;
      expect(text.slice(start + Number(match[1]), start + Number(match[1]) + 10)).toBe('\nendstream');
    }
  });

  it('keeps the encrypted text out of sight', () => {
    const text = latin1(files.encrypted);
    expect(text).toContain('/Encrypt');
    expect(text).not.toContain(Buffer.from(winAnsi('Vertrauliche')).toString('hex'));
  });

  it('makes a broken PDF that still starts like one, and a text file that does not', () => {
    expect(latin1(files.broken).startsWith('%PDF-')).toBe(true);
    expect(latin1(files.broken)).not.toContain('xref');
    expect(latin1(files.textAsPdf).startsWith('%PDF-')).toBe(false);
  });

  it('encodes WinAnsi and refuses what it lacks', () => {
    expect(Array.from(winAnsi('A\u00e4\u00df\u20ac\u201e\u201c\u2013'))).toEqual([0x41, 0xe4, 0xdf, 0x80, 0x84, 0x93, 0x96]);
    expect(() => winAnsi('Ω')).toThrow(/WinAnsiEncoding/);
    expect(() => winAnsi('\u0081')).toThrow(/WinAnsiEncoding/);
  });

  it('implements RC4 (RFC 6229-style known answer)', () => {
    const encrypted = rc4(new TextEncoder().encode('Key'), new TextEncoder().encode('Plaintext'));
    expect(Buffer.from(encrypted).toString('hex')).toBe('bbf316e8d940af0ad3');
  });

  it('wraps paragraphs into lines of the given width with an empty line between them', () => {
    expect(wrapParagraphs(['eins zwei drei vier', 'fünf'], 9)).toEqual(['eins zwei', 'drei vier', '', 'fünf']);
    expect(knowledgePages).toHaveLength(3);
    expect(knowledgePages.flat().every((line) => line.length <= 80)).toBe(true);
  });

  it('writes the fixture files for upload tests', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pdf-fixtures-'));
    try {
      const paths = await writeFixtures(dir);
      expect(Object.values(paths).map((path) => path.slice(dir.length + 1)).sort()).toEqual(Object.values(fixtureFiles).sort());
      expect(new Uint8Array(await readFile(paths.knowledge))).toEqual(files.knowledge);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
