/**
 * The steps of a document's life after the upload that must never leave anything behind or hang:
 * ingesting the extracted text, recording a failure, processing again ("Erneut verarbeiten") and
 * deleting (also as the undo of an upload). Written against any supabase-js client, so the
 * integration tests run exactly this code over real HTTP with failures injected between the
 * steps; the browser calls it through documents.ts with its one client. Messages are the seed's
 * catalogue texts (the list shows its own German/English text for "Erneut verarbeiten", which the
 * seed does not know). Row level security and the SQL functions' own admin checks are the real guard.
 */
import type { PostgrestError, SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../types/database';
import { catalogue } from '../../supabase/functions/_shared/catalogue';

type Client = SupabaseClient<Database>;

export const BUCKET = 'document-uploads';

export const documentMessages = {
  load: catalogue.documentsLoadFailed,
  upload: catalogue.documentUploadFailed,
  delete: catalogue.documentDeleteFailed,
  search: catalogue.documentSearchFailed,
  notAuthenticated: catalogue.uploadNotAuthenticated,
  notPdf: catalogue.uploadNotPdf,
  revert: catalogue.uploadRevertFailed,
} as const;

/**
 * Why the server refused a document operation, from the SQLSTATEs of the document functions
 * (PT404 → HTTP 404 …): the document is gone (undone or deleted meanwhile), it is being deleted,
 * its state does not allow it (COMPLETED, or still being processed by someone), or a new text of
 * it has nothing readable.
 */
export type DocumentRefusal = 'gone' | 'deleting' | 'conflict' | 'unreadable';

/** A failed document operation; `message` is a catalogue text, `detail` says what went wrong. */
export class DocumentError extends Error {
  override readonly name = 'DocumentError';
  constructor(
    message: string,
    readonly detail?: string,
    readonly refusal?: DocumentRefusal,
  ) {
    super(message);
  }
}

function refusalOf(error: Pick<PostgrestError, 'code'>): DocumentRefusal | undefined {
  if (error.code === 'PT404') return 'gone';
  if (error.code === 'PT410') return 'deleting';
  if (error.code === 'PT409') return 'conflict';
  if (error.code === 'PT422') return 'unreadable';
  return undefined;
}

/**
 * Stores the extracted text; the database splits it into passages and sets COMPLETED (or ERROR for
 * no text). A document that was undone or deleted meanwhile is refused as 'gone' or 'deleting'.
 */
export async function ingestDocumentText(client: Client, documentId: string, text: string): Promise<number> {
  const { data, error } = await client.rpc('ingest_document_text', { document_id: documentId, text });
  if (error) throw new DocumentError(documentMessages.upload, error.message, refusalOf(error));
  return data;
}

/** Marks a document ERROR with the reason the list shows. */
export async function markDocumentFailed(client: Client, documentId: string, reason: string): Promise<void> {
  const { error } = await client
    .from('documents')
    .update({ status: 'ERROR', error: reason, content: null })
    .eq('id', documentId);
  if (error) throw new DocumentError(documentMessages.upload, error.message);
}

/** The message of a refused or failed "Erneut verarbeiten" (no seed text exists for it). */
export const reprocessFailed = 'Failed to process document again';

/**
 * Claims an ERROR or stuck document for another processing run (status PROCESSING, passages
 * dropped, clock restarted) and returns its storage key. The database decides what counts as
 * stuck, so a browser with a wrong clock cannot take a document someone is still processing
 * (refusal 'conflict').
 */
export async function beginReprocessing(client: Client, documentId: string): Promise<{ storagePath: string | null }> {
  const { data, error } = await client.rpc('begin_document_reprocessing', { document_id: documentId });
  if (error) throw new DocumentError(reprocessFailed, error.message, refusalOf(error));
  return { storagePath: data.storage_path };
}

/** The message of a failed "Neu einlesen" of a processed document (no seed text exists for it). */
export const refreshFailed = 'Failed to read document again';

/**
 * "Neu einlesen" of a COMPLETED document: a text extracted anew replaces its text and passages in
 * one step (unchanged passages keep their embeddings); returns the number of passages. Refused as
 * 'unreadable' for a text with nothing readable and as 'conflict' for a document that is not
 * COMPLETED; either way the document keeps what it had.
 */
export async function refreshDocumentText(client: Client, documentId: string, text: string): Promise<number> {
  const { data, error } = await client.rpc('refresh_document_text', { document_id: documentId, text });
  if (error) throw new DocumentError(refreshFailed, error.message, refusalOf(error));
  return data;
}

/** The stored PDF of a document, through the Storage API with the admin's session. */
/**
 * The `url` a document row records for its file: the Storage API's authenticated route. The
 * bucket is private, so the link works only with an admin's token; the admin area opens files
 * through signed URLs (signedPdfUrl).
 */
export function storedPdfUrl(supabaseUrl: string, storagePath: string): string {
  const path = storagePath.split('/').map(encodeURIComponent).join('/');
  return `${supabaseUrl.replace(/\/+$/u, '')}/storage/v1/object/authenticated/${BUCKET}/${path}`;
}

/** How long a link to open a stored PDF works: long enough to open it, too short to pass around. */
export const SIGNED_URL_SECONDS = 60;

/** A link that opens the stored PDF for SIGNED_URL_SECONDS (Storage checks the caller may read it). */
export async function signedPdfUrl(client: Client, storagePath: string): Promise<string> {
  const { data, error } = await client.storage.from(BUCKET).createSignedUrl(storagePath, SIGNED_URL_SECONDS);
  if (error) throw new DocumentError(documentMessages.load, error.message);
  return data.signedUrl;
}

export async function downloadStoredPdf(client: Client, storagePath: string): Promise<Blob> {
  const { data, error } = await client.storage.from(BUCKET).download(storagePath);
  if (error) throw new DocumentError(reprocessFailed, error.message);
  return data;
}

/**
 * Deletes a document in an order that never leaves something behind unnoticed:
 *
 * 1. `begin_document_delete()` marks the row (`deleting_since`) and drops its passages, so the
 *    coach stops using it at once. Failing here changes nothing.
 * 2. The Storage API removes the file. Failing here leaves the marked row with its file; the list
 *    shows "Löschen nicht abgeschlossen" and the same delete tries again.
 * 3. The row goes. Failing here leaves the marked row without its file, which the list shows the
 *    same way; removing a file that is already gone succeeds, so the retry gets through.
 *
 * So there is never a stored file without its row, and a row whose file is gone is always marked.
 * A document that is already gone counts as deleted.
 */
export async function deleteDocument(client: Client, document: { id: string }): Promise<void> {
  const marked = await client.rpc('begin_document_delete', { document_id: document.id });
  if (marked.error) {
    if (refusalOf(marked.error) === 'gone') return;
    throw new DocumentError(documentMessages.delete, marked.error.message);
  }
  const storagePath = marked.data.storage_path;
  if (storagePath) {
    const removed = await client.storage.from(BUCKET).remove([storagePath]);
    if (removed.error) throw new DocumentError(documentMessages.delete, removed.error.message);
  }
  const { error } = await client.from('documents').delete().eq('id', document.id);
  if (error) throw new DocumentError(documentMessages.delete, error.message);
}

/**
 * Undoes an upload (FilePond's revert): the document recorded for the stored file goes the way of
 * deleteDocument (mark, file, row); without a document only the file is removed. Whatever fails,
 * the list still shows what is stored ('Error removing file').
 */
export async function revertUpload(client: Client, storagePath: string): Promise<void> {
  const found = await client.from('documents').select('id').eq('storage_path', storagePath);
  if (found.error) throw new DocumentError(documentMessages.revert, found.error.message);
  try {
    for (const document of found.data) await deleteDocument(client, document);
  } catch (error) {
    throw new DocumentError(documentMessages.revert, error instanceof DocumentError ? error.detail : String(error));
  }
  if (found.data.length === 0) {
    const removed = await client.storage.from(BUCKET).remove([storagePath]);
    if (removed.error) throw new DocumentError(documentMessages.revert, removed.error.message);
  }
}
