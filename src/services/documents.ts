/**
 * The knowledge base's documents: list, live changes, upload, processing results, delete.
 * Messages are the seed's catalogue texts. Row level security (admins only) is the real guard;
 * the session check before an upload only spares a pointless request.
 */
import { REALTIME_SUBSCRIBE_STATES, type RealtimePostgresChangesPayload } from '@supabase/supabase-js';
import { env } from '../config/env';
import type { Database } from '../types/database';
import { getSupabase } from './supabase';

export type DocumentRow = Database['public']['Tables']['documents']['Row'];
export type DocumentItem = Pick<
  DocumentRow,
  'id' | 'title' | 'url' | 'status' | 'error' | 'file_size' | 'storage_path' | 'created_at'
>;

export const BUCKET = 'document-uploads';
/** The bucket's limit (supabase/migrations/…_storage.sql); checked here too for a quick answer. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

export const documentMessages = {
  load: 'Failed to load documents',
  upload: 'Failed to upload document',
  delete: 'Failed to delete document',
  search: 'Failed to search documents',
  notAuthenticated: 'User not authenticated',
  notPdf: 'Only PDF files are supported',
  revert: 'Error removing file',
} as const;

/** A failed document operation; `message` is a catalogue text, `detail` says what went wrong. */
export class DocumentError extends Error {
  override readonly name = 'DocumentError';
  constructor(
    message: string,
    readonly detail?: string,
  ) {
    super(message);
  }
}

const listColumns = 'id, title, url, status, error, file_size, storage_path, created_at';

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
  const url = supabase.storage.from(BUCKET).getPublicUrl(storagePath).data.publicUrl;

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

/** Stores the extracted text; the database splits it into passages and sets COMPLETED (or ERROR for no text). */
export async function ingestDocumentText(documentId: string, text: string): Promise<number> {
  const { data, error } = await getSupabase().rpc('ingest_document_text', { document_id: documentId, text });
  if (error) throw new DocumentError(documentMessages.upload, error.message);
  return data;
}

/** Marks a document ERROR with the reason the list shows. */
export async function markDocumentFailed(documentId: string, reason: string): Promise<void> {
  const { error } = await getSupabase()
    .from('documents')
    .update({ status: 'ERROR', error: reason, content: null })
    .eq('id', documentId);
  if (error) throw new DocumentError(documentMessages.upload, error.message);
}

/** Deletes the row (its passages go with it) and then the stored file. */
export async function deleteDocument(document: Pick<DocumentItem, 'id' | 'storage_path'>): Promise<void> {
  const supabase = getSupabase();
  const { data, error } = await supabase.from('documents').delete().eq('id', document.id).select('id');
  if (error) throw new DocumentError(documentMessages.delete, error.message);
  if (data.length === 0) throw new DocumentError(documentMessages.delete, 'no document was deleted');
  if (document.storage_path) {
    const removed = await supabase.storage.from(BUCKET).remove([document.storage_path]);
    if (removed.error) throw new DocumentError(documentMessages.delete, removed.error.message);
  }
}

/**
 * Undoes an upload (FilePond's revert): removes the stored file, then the document recorded for
 * it. When the file cannot be removed, the document stays, so the list still shows what is stored.
 */
export async function revertUpload(storagePath: string): Promise<void> {
  const supabase = getSupabase();
  const removed = await supabase.storage.from(BUCKET).remove([storagePath]);
  if (removed.error) throw new DocumentError(documentMessages.revert, removed.error.message);
  const rows = await supabase.from('documents').delete().eq('storage_path', storagePath);
  if (rows.error) throw new DocumentError(documentMessages.revert, rows.error.message);
}
