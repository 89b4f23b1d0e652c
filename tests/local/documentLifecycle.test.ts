/**
 * Documents never hang, over real HTTP: the app's own lifecycle code (src/services/documentLifecycle.ts)
 * against the local stack, with failures injected between its steps by a fetch that drops one
 * request, either before it is sent or after the server has done it (the answer is lost). After
 * every failure the same invariant holds: no stored file without its row, and a row whose file is
 * gone is marked (deleting_since), so the list can say so and the same delete finishes the job.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  BUCKET,
  beginReprocessing,
  deleteDocument,
  DocumentError,
  documentMessages,
  downloadStoredPdf,
  ingestDocumentText,
  refreshDocumentText,
  revertUpload,
  storedPdfUrl,
} from '../../src/services/documentLifecycle';
import { extractTextWith } from '../../src/services/pdfTextExtraction';
import type { Database } from '../../src/types/database';
import { LOCAL_ANON_KEY } from '../../supabase/local/config';
import { knowledgePhrases } from '../fixtures/pdf/knowledgeText';
import { fixtureBytes } from '../fixtures/pdf/write';
import { ADMIN, startHarness, type Harness } from './harness';

type Client = SupabaseClient<Database>;

const pdfs = fixtureBytes();
let harness: Harness;
let admin: Client;
let service: Client;
let count = 0;

beforeAll(async () => {
  harness = await startHarness();
  admin = await harness.signedIn(ADMIN.email, ADMIN.password);
  service = harness.service();
});

afterAll(async () => {
  await harness.close();
});

/** Where a request fails: 'before' it reaches the server, or 'after' the server did it (answer lost). */
type When = 'before' | 'after';

/**
 * The admin, signed in on a client whose fetch drops the first request that `matches`, as a
 * broken connection does. Everything else goes through unchanged.
 */
async function adminWithFailure(matches: (url: string, method: string) => boolean, when: When): Promise<Client> {
  let armed = true;
  const flaky: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    if (armed && matches(url, method)) {
      armed = false;
      if (when === 'after') await fetch(input, init);
      throw new TypeError('fetch failed: connection dropped (injected)');
    }
    return fetch(input, init);
  };
  const client = createClient<Database>(harness.url, LOCAL_ANON_KEY, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { fetch: flaky },
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  });
  const { error } = await client.auth.signInWithPassword(ADMIN);
  if (error) throw error;
  return client;
}

const storageRemove = (url: string, method: string) => method === 'DELETE' && url.includes(`/storage/v1/object/${BUCKET}`);
const rowDelete = (url: string, method: string) => method === 'DELETE' && url.includes('/rest/v1/documents?');
const beginDelete = (url: string, method: string) => method === 'POST' && url.endsWith('/rest/v1/rpc/begin_document_delete');

/** A stored PDF with its document row, as an upload leaves them (status PROCESSING unless given). */
async function storedDocument(
  fields: { status?: 'PROCESSING' | 'ERROR'; processingMinutesAgo?: number; bytes?: Uint8Array } = {},
): Promise<{ id: string; storagePath: string; url: string }> {
  count += 1;
  const storagePath = `${String(Date.now())}-lebenszyklus-${String(count)}.pdf`;
  const bytes = fields.bytes ?? pdfs.knowledge;
  const uploaded = await admin.storage.from(BUCKET).upload(storagePath, new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), {
    contentType: 'application/pdf',
    upsert: false,
  });
  if (uploaded.error) throw uploaded.error;
  const url = storedPdfUrl(harness.url, storagePath);
  const startedAt = new Date(Date.now() - (fields.processingMinutesAgo ?? 0) * 60_000).toISOString();
  const status = fields.status ?? 'PROCESSING';
  const { data, error } = await service
    .from('documents')
    .insert({
      title: storagePath,
      url,
      status,
      error: status === 'ERROR' ? 'Die PDF-Datei konnte nicht verarbeitet werden.' : null,
      file_size: bytes.byteLength,
      storage_path: storagePath,
      processing_started_at: startedAt,
    })
    .select('id')
    .single();
  if (error) throw error;
  return { id: data.id, storagePath, url };
}

async function completedDocument() {
  const document = await storedDocument();
  await ingestDocumentText(admin, document.id, 'Ein Absatz über Ruhe und Atmung im Alltag.');
  return document;
}

/** What is left of a document: its row (with the delete mark), passages and stored file. */
async function leftOf(document: { id: string; storagePath: string }) {
  const row = await service.from('documents').select('status, deleting_since').eq('id', document.id).maybeSingle();
  const passages = await service.from('document_chunks').select('id', { count: 'exact', head: true }).eq('document_id', document.id);
  // The bucket is private: the service role looks for the file.
  const file = await service.storage.from(BUCKET).download(document.storagePath);
  return {
    row: row.data === null ? null : { status: row.data.status, marked: row.data.deleting_since !== null },
    passages: passages.count ?? -1,
    file: file.data !== null,
  };
}

async function rejection(promise: Promise<unknown>): Promise<DocumentError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof DocumentError)) throw new Error(`expected a DocumentError, got ${String(error)}`);
  return error;
}

describe('deleting a document', () => {
  it('removes passages, file and row', async () => {
    const document = await completedDocument();
    expect(await leftOf(document)).toEqual({ row: { status: 'COMPLETED', marked: false }, passages: 1, file: true });
    await deleteDocument(admin, document);
    expect(await leftOf(document)).toEqual({ row: null, passages: 0, file: false });
  });

  it('changes nothing when the first step does not go through', async () => {
    const document = await completedDocument();
    const flaky = await adminWithFailure(beginDelete, 'before');
    expect((await rejection(deleteDocument(flaky, document))).message).toBe(documentMessages.delete);
    expect(await leftOf(document)).toEqual({ row: { status: 'COMPLETED', marked: false }, passages: 1, file: true });
  });

  for (const when of ['before', 'after'] as const) {
    it(`keeps a marked row when the file removal fails (${when} the server removed it), and the same delete finishes`, async () => {
      const document = await completedDocument();
      const flaky = await adminWithFailure(storageRemove, when);
      expect((await rejection(deleteDocument(flaky, document))).message).toBe(documentMessages.delete);
      // The passages are out of the knowledge already; the row stays, marked, whether or not the file is.
      expect(await leftOf(document)).toEqual({ row: { status: 'COMPLETED', marked: true }, passages: 0, file: when === 'before' });
      await deleteDocument(flaky, document);
      expect(await leftOf(document)).toEqual({ row: null, passages: 0, file: false });
    });

    it(`keeps a marked row without its file when the row delete fails (${when} the server ran it)`, async () => {
      const document = await completedDocument();
      const flaky = await adminWithFailure(rowDelete, when);
      expect((await rejection(deleteDocument(flaky, document))).message).toBe(documentMessages.delete);
      expect(await leftOf(document)).toEqual({
        row: when === 'before' ? { status: 'COMPLETED', marked: true } : null,
        passages: 0,
        file: false,
      });
      // A retry (e.g. from a list that still shows the row) counts a document already gone as deleted.
      await deleteDocument(flaky, document);
      expect(await leftOf(document)).toEqual({ row: null, passages: 0, file: false });
    });
  }

  it('is refused to a signed-in non-admin: nothing is marked, removed or deleted', async () => {
    const document = await completedDocument();
    const member = await harness.user(`leser-${String(Date.now())}@example.com`);
    expect((await rejection(deleteDocument(member, document))).message).toBe(documentMessages.delete);
    expect(await leftOf(document)).toEqual({ row: { status: 'COMPLETED', marked: false }, passages: 1, file: true });
  });
});

describe('undoing an upload', () => {
  it('removes file and row; an ingest arriving afterwards is told 404 (gone), not a server error', async () => {
    const document = await storedDocument();
    await revertUpload(admin, document.storagePath);
    expect(await leftOf(document)).toEqual({ row: null, passages: 0, file: false });

    const raw = await admin.rpc('ingest_document_text', { document_id: document.id, text: 'Zu spät gekommener Text.' });
    expect(raw.status).toBe(404);
    expect((await rejection(ingestDocumentText(admin, document.id, 'Zu spät gekommener Text.'))).refusal).toBe('gone');
  });

  it('keeps what is stored, marked, when the file cannot be removed: "Error removing file"', async () => {
    const document = await storedDocument();
    const flaky = await adminWithFailure(storageRemove, 'before');
    expect((await rejection(revertUpload(flaky, document.storagePath))).message).toBe('Error removing file');
    expect(await leftOf(document)).toEqual({ row: { status: 'PROCESSING', marked: true }, passages: 0, file: true });
    // The text extraction still under way is told that the document is being deleted (410).
    const raw = await admin.rpc('ingest_document_text', { document_id: document.id, text: 'Text.' });
    expect(raw.status).toBe(410);
    await deleteDocument(admin, document);
    expect(await leftOf(document)).toEqual({ row: null, passages: 0, file: false });
  });
});

describe('"Erneut verarbeiten"', () => {
  it('recovers a stuck document from its stored PDF: claimed, downloaded, extracted, ingested', async () => {
    const document = await storedDocument({ processingMinutesAgo: 6 });
    const { storagePath } = await beginReprocessing(admin, document.id);
    expect(storagePath).toBe(document.storagePath);
    const stored = new Uint8Array(await (await downloadStoredPdf(admin, document.storagePath)).arrayBuffer());
    expect(stored).toEqual(pdfs.knowledge);
    const { text } = await extractTextWith(pdfjs, stored);
    expect(await ingestDocumentText(admin, document.id, text)).toBeGreaterThan(0);

    const { data } = await service.from('document_chunks').select('content').eq('document_id', document.id);
    const all = (data ?? []).map((passage) => passage.content).join('\n');
    for (const phrase of Object.values(knowledgePhrases)) expect(all).toContain(phrase);
    expect((await leftOf(document)).row).toEqual({ status: 'COMPLETED', marked: false });
    await deleteDocument(admin, document);
  });

  it('claims an ERROR document too', async () => {
    const document = await storedDocument({ status: 'ERROR' });
    await beginReprocessing(admin, document.id);
    const { data } = await service.from('documents').select('status, error').eq('id', document.id).single();
    expect(data).toEqual({ status: 'PROCESSING', error: null });
    await deleteDocument(admin, document);
  });

  it('is refused with 409 (conflict) while the document is still within its processing time', async () => {
    const document = await storedDocument({ processingMinutesAgo: 1 });
    const raw = await admin.rpc('begin_document_reprocessing', { document_id: document.id });
    expect(raw.status).toBe(409);
    expect((await rejection(beginReprocessing(admin, document.id))).refusal).toBe('conflict');
    await deleteDocument(admin, document);
  });

  it('is refused to a signed-in non-admin', async () => {
    const document = await storedDocument({ processingMinutesAgo: 10 });
    const member = await harness.user(`gast-${String(Date.now())}@example.com`);
    const raw = await member.rpc('begin_document_reprocessing', { document_id: document.id });
    expect(raw.status).toBe(403);
    const { data } = await service.from('documents').select('status').eq('id', document.id).single();
    expect(data?.status).toBe('PROCESSING');
    await deleteDocument(admin, document);
  });
});

describe('"Neu einlesen" of a processed document', () => {
  const contents = async (id: string) =>
    ((await service.from('document_chunks').select('content').eq('document_id', id).order('ordinal')).data ?? []).map((passage) => passage.content);

  it('replaces an old extraction with the stored PDF\'s text; the document stays COMPLETED', async () => {
    const document = await completedDocument();
    const { text } = await extractTextWith(pdfjs, new Uint8Array(await (await downloadStoredPdf(admin, document.storagePath)).arrayBuffer()));
    const passages = await refreshDocumentText(admin, document.id, text);
    const all = await contents(document.id);
    expect(all).toHaveLength(passages);
    for (const phrase of Object.values(knowledgePhrases)) expect(all.join('\n')).toContain(phrase);
    expect(all.join('\n')).not.toContain('Ein Absatz über Ruhe und Atmung im Alltag.');
    expect((await leftOf(document)).row).toEqual({ status: 'COMPLETED', marked: false });
    await deleteDocument(admin, document);
  });

  it('is refused with 422 (unreadable) for a text with nothing readable, and the passages stay', async () => {
    const document = await completedDocument();
    const raw = await admin.rpc('refresh_document_text', { document_id: document.id, text: ' \n ' });
    expect(raw.status).toBe(422);
    expect((await rejection(refreshDocumentText(admin, document.id, ' '))).refusal).toBe('unreadable');
    expect(await contents(document.id)).toEqual(['Ein Absatz über Ruhe und Atmung im Alltag.']);
    await deleteDocument(admin, document);
  });

  it('is refused with 409 (conflict) for a document that is not COMPLETED, and to a signed-in non-admin', async () => {
    const stuck = await storedDocument({ processingMinutesAgo: 10 });
    expect((await rejection(refreshDocumentText(admin, stuck.id, 'Ein Absatz.'))).refusal).toBe('conflict');
    const document = await completedDocument();
    const member = await harness.user(`leser-${String(Date.now())}@example.com`);
    expect((await member.rpc('refresh_document_text', { document_id: document.id, text: 'Ein fremder Absatz.' })).status).toBe(403);
    expect(await contents(document.id)).toEqual(['Ein Absatz über Ruhe und Atmung im Alltag.']);
    await deleteDocument(admin, stuck);
    await deleteDocument(admin, document);
  });
});
