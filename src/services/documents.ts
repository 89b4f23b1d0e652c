/**
 * The knowledge base's documents: list, live changes, upload, and (with the browser's one client)
 * the lifecycle steps of documentLifecycle.ts: processing results, processing again, delete.
 * Messages are the seed's catalogue texts. Row level security (admins only) is the real guard;
 * the session check before an upload only spares a pointless request.
 */
import { REALTIME_SUBSCRIBE_STATES, type RealtimePostgresChangesPayload } from '@supabase/supabase-js';
import { env } from '../config/env';
import type { Database } from '../types/database';
import * as lifecycle from './documentLifecycle';
import { BUCKET, DocumentError, documentMessages } from './documentLifecycle';
import { getSupabase } from './supabase';
import { FunctionCallError } from './edgeFunctions';
import { embedPendingPassages } from './embeddings';

export { BUCKET, DocumentError, documentMessages, refreshFailed, reprocessFailed, type DocumentRefusal } from './documentLifecycle';

export type DocumentRow = Database['public']['Tables']['documents']['Row'];
export type DocumentItem = Pick<
  DocumentRow,
  'id' | 'title' | 'url' | 'status' | 'error' | 'file_size' | 'storage_path' | 'created_at' | 'processing_started_at' | 'deleting_since'
>;

/** The bucket's limit (supabase/migrations/…_storage.sql); checked here too for a quick answer. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
export { PROCESSING_STUCK_AFTER_MS } from '../lib/documentProcessing';

const listColumns = 'id, title, url, status, error, file_size, storage_path, created_at, processing_started_at, deleting_since';

export async function listDocuments(): Promise<DocumentItem[]> {
  const { data, error } = await getSupabase()
    .from('documents')
    .select(listColumns)
    .order('created_at', { ascending: false });
  if (error) throw new DocumentError(documentMessages.load, error.message);
  return data;
}

export type DocumentChange =
  | { type: 'INSERT'; document: DocumentItem }
  | { type: 'UPDATE'; document: DocumentItem }
  | { type: 'DELETE'; id: string };

function toItem(row: Partial<DocumentRow>): DocumentItem | null {
  if (typeof row.id !== 'string' || typeof row.title !== 'string' || typeof row.created_at !== 'string') return null;
  return {
    id: row.id,
    title: row.title,
    url: row.url ?? '',
    status: row.status ?? 'PROCESSING',
    error: row.error ?? null,
    file_size: row.file_size ?? null,
    storage_path: row.storage_path ?? null,
    created_at: row.created_at,
    processing_started_at: row.processing_started_at ?? row.created_at,
    deleting_since: row.deleting_since ?? null,
  };
}

/**
 * Follows inserts, updates and deletes of documents live (channel document_changes). `onStatus`
 * hears whether the subscription stands, so the list can reload after a lost connection.
 */
export function subscribeToDocuments(
  onChange: (change: DocumentChange) => void,
  onStatus: (subscribed: boolean) => void = () => undefined,
): () => void {
  const supabase = getSupabase();
  const channel = supabase
    .channel('document_changes')
    .on('postgres_changes', { event: '*', schema: 'public', table: 'documents' }, (payload: RealtimePostgresChangesPayload<DocumentRow>) => {
      if (payload.eventType === 'DELETE') {
        const id = payload.old.id;
        if (typeof id === 'string') onChange({ type: 'DELETE', id });
        return;
      }
      const document = toItem(payload.new);
      if (document) onChange({ type: payload.eventType === 'INSERT' ? 'INSERT' : 'UPDATE', document });
    })
    .subscribe((status) => onStatus(status === REALTIME_SUBSCRIBE_STATES.SUBSCRIBED));
  return () => {
    void supabase.removeChannel(channel);
  };
}

/** `<timestamp>-<name>`: only letters, digits, dot, dash and underscore, at most 120 characters. */
export function storageKeyFor(fileName: string, now: number = Date.now()): string {
  const base = fileName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^[_.]+/, '')
    .slice(-120);
  return `${String(now)}-${base || 'document.pdf'}`;
}

const PDF_MAGIC = '%PDF-';

/** PDF by declared type or name, and by content: the first bytes must be `%PDF-`. */
export async function isPdfFile(file: Blob & { name?: string }): Promise<boolean> {
  const declared = file.type === 'application/pdf' || (file.type === '' && /\.pdf$/i.test(file.name ?? ''));
  if (!declared) return false;
  const head = new Uint8Array(await file.slice(0, PDF_MAGIC.length).arrayBuffer());
  return String.fromCharCode(...head) === PDF_MAGIC;
}

export interface UploadedDocument {
  document: DocumentItem;
  storagePath: string;
}

export interface UploadOptions {
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
}

/**
 * Stores the file with progress (XMLHttpRequest, since fetch reports no upload progress) on the
 * same Storage endpoint supabase-js uses: no upsert, cache control 3600.
 */
function putObject(key: string, file: Blob, accessToken: string, options: UploadOptions): Promise<void> {
  const base = env.VITE_SUPABASE_URL.replace(/\/+$/, '');
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `${base}/storage/v1/object/${BUCKET}/${encodeURIComponent(key)}`);
    request.setRequestHeader('authorization', `Bearer ${accessToken}`);
    request.setRequestHeader('apikey', env.VITE_SUPABASE_ANON_KEY);
    request.setRequestHeader('x-upsert', 'false');
    request.setRequestHeader('cache-control', 'max-age=3600');
    request.setRequestHeader('content-type', 'application/pdf');
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.(event.loaded, event.total);
    };
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) resolve();
      else reject(new DocumentError(documentMessages.upload, storageErrorDetail(request)));
    };
    request.onerror = () => reject(new DocumentError(documentMessages.upload, 'network error'));
    request.onabort = () => reject(new DOMException('Upload aborted', 'AbortError'));
    options.signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(file);
  });
}

function storageErrorDetail(request: XMLHttpRequest): string {
  try {
    const body = JSON.parse(request.responseText) as { message?: unknown; error?: unknown };
    if (typeof body.message === 'string') return body.message;
  } catch {
    // not JSON: fall through to the status
  }
  return `HTTP ${String(request.status)}`;
}

/**
 * Upload step of the knowledge base: checks session and type, stores the file and records the
 * document as PROCESSING. Text extraction and ingestion follow (see completeDocument/failDocument).
 */
export async function uploadDocument(file: File, options: UploadOptions = {}): Promise<UploadedDocument> {
  const supabase = getSupabase();
  const { data: sessionData } = await supabase.auth.getSession();
  const session = sessionData.session;
  if (!session) throw new DocumentError(documentMessages.notAuthenticated);
  if (!(await isPdfFile(file))) throw new DocumentError(documentMessages.notPdf);
  if (file.size > MAX_UPLOAD_BYTES) throw new DocumentError(documentMessages.upload, 'file too large');

  const storagePath = storageKeyFor(file.name);
  await putObject(storagePath, file, session.access_token, options);
  const url = lifecycle.storedPdfUrl(env.VITE_SUPABASE_URL, storagePath);

  const { data, error } = await supabase
    .from('documents')
    .insert({
      title: file.name.slice(0, 500) || storagePath,
      type: 'PDF',
      url,
      status: 'PROCESSING',
      created_by: session.user.id,
      content: null,
      file_size: file.size,
      storage_path: storagePath,
    })
    .select(listColumns)
    .single();
  if (error) {
    // Nothing may stay behind half done: without its row the stored file would be an orphan.
    await supabase.storage.from(BUCKET).remove([storagePath]);
    throw new DocumentError(documentMessages.upload, error.message);
  }
  return { document: data, storagePath };
}


// The lifecycle steps (documentLifecycle.ts) with the browser's one client.

/** See documentLifecycle.ingestDocumentText. */
export const ingestDocumentText = (documentId: string, text: string) => lifecycle.ingestDocumentText(getSupabase(), documentId, text);

/**
 * After a document's text is processed: embeds the new passages for the hybrid search (the `embed`
 * function does nothing without a language model key). A refusal or failure of the function is
 * logged; a request that never got an answer (the admin left the page, the connection dropped) is
 * not an error: the passages wait, and the next upload or "Einbettungen erstellen" embeds them.
 */
export async function embedNewPassages(): Promise<void> {
  const { data } = await getSupabase().auth.getSession();
  const token = data.session?.access_token;
  if (!token) return;
  try {
    await embedPendingPassages(token);
  } catch (error) {
    if (error instanceof FunctionCallError && error.status !== null) console.error('[admin] embeddings not created:', error);
  }
}
/** See documentLifecycle.markDocumentFailed. */
export const markDocumentFailed = (documentId: string, reason: string) => lifecycle.markDocumentFailed(getSupabase(), documentId, reason);
/** See documentLifecycle.refreshDocumentText. */
export const refreshDocumentText = (documentId: string, text: string) => lifecycle.refreshDocumentText(getSupabase(), documentId, text);
/** See documentLifecycle.beginReprocessing. */
export const beginReprocessing = (documentId: string) => lifecycle.beginReprocessing(getSupabase(), documentId);
/** See documentLifecycle.signedPdfUrl. */
export const signedPdfUrl = (storagePath: string) => lifecycle.signedPdfUrl(getSupabase(), storagePath);
/** See documentLifecycle.downloadStoredPdf. */
export const downloadStoredPdf = (storagePath: string) => lifecycle.downloadStoredPdf(getSupabase(), storagePath);
/** See documentLifecycle.deleteDocument: mark, file, row, in an order that leaves nothing unnoticed. */
export const deleteDocument = (document: Pick<DocumentItem, 'id'>) => lifecycle.deleteDocument(getSupabase(), document);
/** See documentLifecycle.revertUpload. */
export const revertUpload = (storagePath: string) => lifecycle.revertUpload(getSupabase(), storagePath);
