/**
 * The extraction behind `extractPdfText`, driven in Node with pdfjs's legacy build on the
 * generated fixtures: the browser runs the same `extractTextWith` with the modern build.
 */
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';

import { extractTextWith, PdfTextError, pdfTextMessages, type PdfTextReason } from '../../src/services/pdfTextExtraction';
import { knowledgeParagraphs, knowledgePhrases } from '../fixtures/pdf/knowledgeText';
import { makeEncryptedPdf, makeTextPdf } from '../fixtures/pdf/makePdf';
import { encryptedPassword, fixtureBytes } from '../fixtures/pdf/write';

const made = fixtureBytes();
type Fixture = keyof typeof made;
// pdfjs transfers the bytes it is given to its worker, so every call gets its own copy.
const fixture = (name: Fixture): Uint8Array => made[name].slice();

async function failure(data: Uint8Array): Promise<PdfTextError> {
  const error: unknown = await extractTextWith(pdfjs, data).then(
    () => null,
    (reason: unknown) => reason,
  );
  if (!(error instanceof PdfTextError)) throw new Error(`expected a PdfTextError, got ${String(error)}`);
  return error;
}

describe('extracting text from a PDF', () => {
  it('returns every page of the knowledge document, umlauts, lines and paragraphs intact', async () => {
    const result = await extractTextWith(pdfjs, fixture('knowledge'));

    expect(result.pages).toBe(3);
    // An empty line per paragraph and page; a paragraph's wrapped lines joined. The fixture wraps
    // at 80 characters, not by width, so a line may end where the next word would still have fit:
    // that break stays a line break (a new unit), as it does in a typeset list.
    expect(result.text.split('\n\n').map((paragraph) => paragraph.replace(/\n/g, ' '))).toEqual(knowledgeParagraphs.flat());
    // Joined: one line per paragraph and one empty line between, give or take a few such breaks.
    expect(result.text.split('\n').length).toBeLessThan(knowledgeParagraphs.flat().length * 2 + 3);
    for (const phrase of Object.values(knowledgePhrases)) {
      expect(result.text.replace(/\s+/g, ' ')).toContain(phrase);
    }
    expect(result.text).toContain('„Ruhenerv“');
    expect(result.text).toContain('Regelmäßigkeit');
  });

  it('reports progress page by page', async () => {
    const progress: [number, number][] = [];
    await extractTextWith(pdfjs, fixture('knowledge'), { onPage: (done, total) => progress.push([done, total]) });
    expect(progress).toEqual([
      [0, 3],
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
  });

  it('reads the encrypted document with its password, so the file itself is sound', async () => {
    const task = pdfjs.getDocument({ data: makeEncryptedPdf(['Vertrauliche Grüße'], encryptedPassword), password: encryptedPassword, verbosity: 0 });
    const document = await task.promise;
    const content = await (await document.getPage(1)).getTextContent();
    expect(content.items.map((item) => ('str' in item ? item.str : '')).join('')).toBe('Vertrauliche Grüße');
    await task.destroy();
  });

  const cases: [string, Fixture, PdfTextReason][] = [
    ['a password-protected PDF', 'encrypted', 'encrypted'],
    ['an image-only PDF', 'imageOnly', 'no-text'],
    ['a truncated PDF', 'broken', 'broken'],
    ['a text file named .pdf', 'textAsPdf', 'broken'],
  ];
  it.each(cases)('refuses %s with a German reason', async (_, name, reason) => {
    const error = await failure(fixture(name));
    expect(error.reason).toBe(reason);
    expect(error.message).toBe(pdfTextMessages[reason]);
  });

  it('gives the messages admins see in documents.error', () => {
    expect(new PdfTextError('encrypted').message).toBe('Die PDF-Datei ist passwortgeschützt und kann nicht gelesen werden.');
    expect(new PdfTextError('no-text').message).toBe('Die PDF-Datei enthält keinen lesbaren Text (nur Bilder?).');
    expect(new PdfTextError('broken').message).toBe('Die PDF-Datei ist beschädigt und kann nicht gelesen werden.');
  });

  it('calls a PDF with only spaces and dashes on its pages text-less', async () => {
    const error = await failure(makeTextPdf([['  –  ', '…'], ['-']]));
    expect(error.reason).toBe('no-text');
  });

  it('calls an empty file broken', async () => {
    expect((await failure(new Uint8Array(0))).reason).toBe('broken');
  });

  it('stops when aborted before it starts', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(extractTextWith(pdfjs, fixture('knowledge'), { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('stops between pages when aborted while it runs', async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    const run = extractTextWith(pdfjs, fixture('knowledge'), {
      signal: controller.signal,
      onPage: (done) => {
        seen.push(done);
        if (done === 1) controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toEqual([0, 1]);
  });
});
