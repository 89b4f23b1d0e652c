/**
 * Extracts a PDF's text in the admin's browser. pdfjs loads on first use (its own chunk, never
 * on a marketing page) and parses in its worker, a separate file that Vite emits under /assets,
 * so the page stays responsive and the CSP (`worker-src 'self'`, no eval) holds.
 */
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { extractTextWith, type PdfText, type PdfTextOptions } from './pdfTextExtraction';

export { PdfTextError, pdfTextMessages, type PdfText, type PdfTextOptions, type PdfTextReason } from './pdfTextExtraction';

let pdfjsLoading: ReturnType<typeof loadPdfjs> | null = null;

async function loadPdfjs() {
  const pdfjs = await import('pdfjs-dist');
  pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
  return pdfjs;
}

async function toBytes(data: ArrayBuffer | Uint8Array | Blob): Promise<Uint8Array> {
  if (data instanceof Blob) return new Uint8Array(await data.arrayBuffer());
  // pdfjs transfers the buffer to its worker, which would empty the caller's copy.
  return data instanceof Uint8Array ? data.slice() : new Uint8Array(data.slice(0));
}

/**
 * The text of every page of a PDF (a File from the upload works as it is), pages and paragraphs
 * separated by empty lines. Rejects with `PdfTextError` (reason 'encrypted', 'no-text' or
 * 'broken', German message) when the file cannot be read, with the signal's reason when aborted.
 */
export async function extractPdfText(data: ArrayBuffer | Uint8Array | Blob, options: PdfTextOptions = {}): Promise<PdfText> {
  const bytes = await toBytes(data);
  options.signal?.throwIfAborted();
  pdfjsLoading ??= loadPdfjs().catch((error: unknown) => {
    pdfjsLoading = null; // a failed chunk load (e.g. offline) may succeed on the next try
    throw error;
  });
  return extractTextWith(await pdfjsLoading, bytes, options);
}
