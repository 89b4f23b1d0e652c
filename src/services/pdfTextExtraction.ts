/**
 * Reads a PDF's text with a given pdfjs build and says in German why it cannot when it cannot.
 * The caller passes pdfjs in, so the browser uses the modern build with its worker
 * (`pdfText.ts`) and Node tests drive the very same code with the legacy build.
 */
import type * as Pdfjs from 'pdfjs-dist';
import { documentText, hasReadableText, pageLayout, type PageText } from '../lib/pdfTextLayout';

/** The part of the pdfjs module used here; both `pdfjs-dist` and its legacy build fit. */
export type PdfjsLib = Pick<typeof Pdfjs, 'getDocument'>;

export type PdfTextReason = 'encrypted' | 'no-text' | 'broken';

/** Stored in `documents.error` and shown to admins; German like the knowledge base. */
export const pdfTextMessages: Record<PdfTextReason, string> = {
  encrypted: 'Die PDF-Datei ist passwortgeschützt und kann nicht gelesen werden.',
  'no-text': 'Die PDF-Datei enthält keinen lesbaren Text (nur Bilder?).',
  broken: 'Die PDF-Datei ist beschädigt und kann nicht gelesen werden.',
};

/** A PDF whose text cannot be read; `message` is the German text for admins, `detail` pdfjs's own words. */
export class PdfTextError extends Error {
  override readonly name = 'PdfTextError';
  constructor(
    readonly reason: PdfTextReason,
    readonly detail?: string,
  ) {
    super(pdfTextMessages[reason]);
  }
}

export interface PdfTextOptions {
  /** Stops the work and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Progress: called with 0 once the page count is known, then after every page. */
  onPage?: (done: number, total: number) => void;
}

export interface PdfText {
  text: string;
  pages: number;
}

const errorName = (error: unknown): string =>
  typeof error === 'object' && error !== null && 'name' in error && typeof error.name === 'string' ? error.name : '';

/**
 * What a pdfjs failure means for the admin, or null when it says nothing about the file (a
 * worker that failed to start, a bug): those are rethrown as they are. pdfjs names its errors
 * the same in every build, so the name decides, not `instanceof`.
 */
export function classifyPdfError(error: unknown): PdfTextReason | null {
  switch (errorName(error)) {
    case 'PasswordException':
      return 'encrypted';
    // The structure cannot be parsed, or the worker failed on the file's contents
    // (pdfjs wraps every other error thrown while parsing as UnknownErrorException).
    case 'InvalidPDFException':
    case 'UnknownErrorException':
    case 'FormatError':
      return 'broken';
    default:
      return null;
  }
}

/**
 * Extracts the text of every page. `data` is handed to pdfjs, which transfers its buffer to the
 * worker: pass bytes the caller no longer needs (`extractPdfText` copies for its callers).
 */
export async function extractTextWith(pdfjs: PdfjsLib, data: Uint8Array, options: PdfTextOptions = {}): Promise<PdfText> {
  const { signal, onPage } = options;
  signal?.throwIfAborted();
  const task = pdfjs.getDocument({
    data,
    // Content-Security-Policy has no 'unsafe-eval'; pdfjs would otherwise probe for it.
    isEvalSupported: false,
    // Errors only: pdfjs's warnings about fonts it does not need for text are noise here.
    verbosity: 0,
  });
  const abort = () => void task.destroy();
  signal?.addEventListener('abort', abort, { once: true });
  try {
    const document = await task.promise;
    const total = document.numPages;
    if (total < 1) throw new PdfTextError('broken', 'the document has no pages');
    onPage?.(0, total);
    const pages: PageText[] = [];
    for (let number = 1; number <= total; number++) {
      signal?.throwIfAborted();
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      pages.push(pageLayout(content.items, content.styles));
      page.cleanup();
      onPage?.(number, total);
    }
    const text = documentText(pages);
    if (!hasReadableText(text)) throw new PdfTextError('no-text');
    return { text, pages: total };
  } catch (error) {
    signal?.throwIfAborted();
    if (error instanceof PdfTextError) throw error;
    const reason = classifyPdfError(error);
    if (reason === null) throw error;
    throw new PdfTextError(reason, error instanceof Error ? error.message : String(error));
  } finally {
    signal?.removeEventListener('abort', abort);
    await task.destroy();
  }
}
