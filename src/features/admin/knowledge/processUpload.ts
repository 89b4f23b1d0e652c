import {
  beginReprocessing,
  DocumentError,
  downloadStoredPdf,
  embedNewPassages,
  ingestDocumentText,
  markDocumentFailed,
  refreshDocumentText,
  refreshFailed,
  uploadDocument,
  type UploadOptions,
} from '../../../services/documents';
import { extractPdfText, PdfTextError } from '../../../services/pdfText';
import { processingHere } from './processingHere';

/** Stored when extraction fails in a way pdf.js does not classify (German: operators read it). */
export const unexpectedProcessingReason = 'Die PDF-Datei konnte nicht verarbeitet werden.';
/** Stored when "Erneut verarbeiten" cannot download the stored PDF (missing, or no connection). */
export const storedFileUnavailableReason = 'Die gespeicherte PDF-Datei konnte nicht geladen werden.';

/** The document was undone or deleted meanwhile: nothing left to record or to say. */
export function documentWentAway(error: unknown): boolean {
  return error instanceof DocumentError && (error.refusal === 'gone' || error.refusal === 'deleting');
}

/**
 * The text step after an upload: pdf.js reads the text in its worker, the database splits it into
 * passages and sets COMPLETED; an encrypted, image-only or broken file ends as ERROR with its reason.
 * Never throws: whatever happens, the document leaves PROCESSING, unless it is gone (an undo or a
 * delete while the text was extracted), which is no failure. While it runs, this tab's list knows
 * that the document is being processed here (see processingHere).
 */
export async function extractAndIngest(documentId: string, file: Blob): Promise<void> {
  const done = processingHere.begin(documentId);
  try {
    const { text } = await extractPdfText(file);
    await ingestDocumentText(documentId, text);
    // In the background: the document is usable at once, by full text until it is embedded.
    void embedNewPassages();
  } catch (error) {
    if (documentWentAway(error)) return;
    const reason = error instanceof PdfTextError ? error.message : unexpectedProcessingReason;
    if (!(error instanceof PdfTextError)) console.error('[admin] processing failed:', error);
    try {
      await markDocumentFailed(documentId, reason);
    } catch (markError) {
      console.error('[admin] could not record the failure:', markError);
    }
  } finally {
    done();
  }
}

/**
 * One file through the knowledge base: stored and recorded as PROCESSING (the returned promise
 * resolves then, with the storage key, so the upload widget can finish), text extracted and ingested
 * afterwards. Rejects with a DocumentError carrying the catalogue message.
 */
export async function uploadToKnowledgeBase(file: File, options: UploadOptions = {}): Promise<{ storagePath: string; processed: Promise<void> }> {
  const { document, storagePath } = await uploadDocument(file, options);
  return { storagePath, processed: extractAndIngest(document.id, file) };
}

/**
 * "Erneut verarbeiten" for an ERROR or stuck document: claims it (PROCESSING again, which the
 * database allows only for ERROR or PROCESSING longer than the stuck threshold), downloads the
 * stored PDF and runs extraction and ingestion as after an upload. Rejects with a DocumentError
 * (its `refusal` says why the server said no) only when the claim fails; from then on the document
 * always ends COMPLETED or ERROR: a PDF that cannot be downloaded ends as ERROR with its reason.
 */
export async function reprocessDocument(documentId: string): Promise<void> {
  const done = processingHere.begin(documentId);
  try {
    const { storagePath } = await beginReprocessing(documentId);
    let file: Blob;
    try {
      if (!storagePath) throw new DocumentError(storedFileUnavailableReason, 'the document has no stored file');
      file = await downloadStoredPdf(storagePath);
    } catch (error) {
      console.error('[admin] stored PDF not loaded:', error);
      await markDocumentFailed(documentId, storedFileUnavailableReason).catch((markError: unknown) => {
        console.error('[admin] could not record the failure:', markError);
      });
      return;
    }
    await extractAndIngest(documentId, file);
  } finally {
    done();
  }
}

/**
 * "Neu einlesen" for a COMPLETED document, so that a better extraction reaches documents uploaded
 * before it: downloads the stored PDF, extracts its text and only then swaps the document's text and
 * passages in one step (refresh_document_text). Nothing changes before that step, so a closed tab,
 * a failed download or an unreadable PDF leaves the document as it was. Resolves with the number of
 * passages. Rejects with a DocumentError whose `refusal` is 'unreadable' when the stored PDF has no
 * readable text, the server's reason when it refused, and none when the download failed.
 */
export async function refreshDocument(document: { id: string; storage_path: string | null }): Promise<number> {
  // Not marked as processed here (processingHere): the document stays COMPLETED throughout.
  if (!document.storage_path) throw new DocumentError(refreshFailed, 'the document has no stored file');
  const file = await downloadStoredPdf(document.storage_path);
  const text = await extractPdfText(file).then(
    (extracted) => extracted.text,
    (error: unknown) => {
      if (error instanceof PdfTextError) throw new DocumentError(refreshFailed, error.message, 'unreadable');
      throw error;
    },
  );
  const passages = await refreshDocumentText(document.id, text);
  // In the background, as after an upload: only passages whose text changed wait for an embedding.
  void embedNewPassages();
  return passages;
}

export { DocumentError };
