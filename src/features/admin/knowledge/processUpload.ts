import {
  DocumentError,
  ingestDocumentText,
  markDocumentFailed,
  uploadDocument,
  type UploadOptions,
} from '../../../services/documents';
import { extractPdfText, PdfTextError } from '../../../services/pdfText';

/** Stored when extraction fails in a way pdf.js does not classify (German: operators read it). */
export const unexpectedProcessingReason = 'Die PDF-Datei konnte nicht verarbeitet werden.';

/**
 * The text step after an upload: pdf.js reads the text in its worker, the database splits it into
 * passages and sets COMPLETED; an encrypted, image-only or broken file ends as ERROR with its reason.
 * Never throws: whatever happens, the document leaves PROCESSING.
 */
export async function extractAndIngest(documentId: string, file: Blob): Promise<void> {
  try {
    const { text } = await extractPdfText(file);
    await ingestDocumentText(documentId, text);
  } catch (error) {
    const reason = error instanceof PdfTextError ? error.message : unexpectedProcessingReason;
    if (!(error instanceof PdfTextError)) console.error('[admin] processing failed:', error);
    try {
      await markDocumentFailed(documentId, reason);
    } catch (markError) {
      console.error('[admin] could not record the failure:', markError);
    }
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

export { DocumentError };
