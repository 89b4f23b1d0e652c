/**
 * The local stack's starter knowledge base: four short German coaching documents (stress, breathing,
 * sleep, difficult conversations) in `supabase/starter/`, real PDFs rendered by groff and
 * ghostscript from the `.ms` sources beside them (`npm run starter:pdf` renders them again).
 *
 * `npm start` and `npm run dev` add them on the local stack's first start, so the coach can coach
 * right away: each goes the way an admin's upload goes (file into the document-uploads bucket, a
 * PROCESSING row, the text extracted with pdfjs and ingested), so the admin sees and deletes them
 * like any document. A marker file in the data folder records that it happened, so a deleted
 * starter document stays deleted; `npm run reset` wipes both. STARTER_KNOWLEDGE=off skips it. It
 * talks to the local stack only: nothing here ever touches a real Supabase project.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';

import { configFromEnv, loadEnvFiles, LOCAL_SERVICE_ROLE_KEY, repoRoot, type LocalStackConfig } from '../supabase/local/config';
import { BUCKET, storedPdfUrl } from '../src/services/documentLifecycle';
import { extractTextWith } from '../src/services/pdfTextExtraction';
import type { Database } from '../src/types/database';

export const starterDir = join(repoRoot, 'supabase', 'starter');
export const MARKER_FILE = 'starter-knowledge-added';

/** Where a starter document's PDF is stored in the admin's uploads bucket. */
export const starterStoragePath = (file: string): string => `starter/${file}.pdf`;

/** A service-role client for the local stack at `url` (bypasses row level security). */
export function localServiceClient(url: string): SupabaseClient<Database> {
  return createClient<Database>(url, LOCAL_SERVICE_ROLE_KEY, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  });
}

/** The starter documents: the PDF in supabase/starter and the title the admin sees. */
export const starterDocuments = [
  { file: 'stress-im-job', title: 'Starterwissen – Stress im Job.pdf' },
  { file: 'atemuebungen', title: 'Starterwissen – Atemübungen.pdf' },
  { file: 'besser-schlafen', title: 'Starterwissen – Besser schlafen.pdf' },
  { file: 'schwierige-gespraeche', title: 'Starterwissen – Schwierige Gespräche.pdf' },
] as const;

/**
 * A PDF to add to the knowledge base: its bytes, the title the admin sees, its key in the bucket,
 * and the stack's URL its stored link starts with.
 */
export interface KnowledgeUpload {
  url: string;
  bytes: Uint8Array;
  title: string;
  storagePath: string;
}

/**
 * Adds one PDF the way an admin's upload goes: the file into the document-uploads bucket, a
 * PROCESSING row, the text extracted with pdfjs and ingested (passages written, COMPLETED or
 * ERROR). Returns the document's id and how many passages it got.
 */
export async function addKnowledgeDocument(
  supabase: SupabaseClient<Database>,
  { url, bytes, title, storagePath }: KnowledgeUpload,
): Promise<{ id: string; passages: number; pages: number }> {
  const stored = await supabase.storage.from(BUCKET).upload(storagePath, bytes, { contentType: 'application/pdf' });
  if (stored.error) throw new Error(`Storing ${storagePath} failed: ${stored.error.message}`);
  const row = await supabase
    .from('documents')
    .insert({
      title,
      type: 'PDF',
      url: storedPdfUrl(url, storagePath),
      status: 'PROCESSING',
      file_size: bytes.byteLength,
      storage_path: storagePath,
    })
    .select('id')
    .single();
  if (row.error) {
    await supabase.storage.from(BUCKET).remove([storagePath]);
    throw new Error(`Recording ${storagePath} failed: ${row.error.message}`);
  }
  // pdfjs takes over the buffer it is given; the caller's bytes stay usable.
  const { text, pages } = await extractTextWith(pdfjs, bytes.slice());
  const ingested = await supabase.rpc('ingest_document_text', { document_id: row.data.id, text });
  if (ingested.error) throw new Error(`Processing ${storagePath} failed: ${ingested.error.message}`);
  return { id: row.data.id, passages: ingested.data, pages };
}

export type StarterResult = { added: string[] } | { skipped: 'disabled' | 'already added' };

/**
 * Adds the starter documents to the local stack at `url` unless STARTER_KNOWLEDGE is "off" or the
 * data folder's marker says they were added before. In memory (no data folder) every start is a
 * first start.
 */
export async function addStarterKnowledge(
  url: string,
  config: Pick<LocalStackConfig, 'dataDir'>,
  env: Record<string, string | undefined> = process.env,
): Promise<StarterResult> {
  if (env.STARTER_KNOWLEDGE === 'off') return { skipped: 'disabled' };
  const marker = config.dataDir === null ? null : join(config.dataDir, MARKER_FILE);
  if (marker !== null && existsSync(marker)) return { skipped: 'already added' };

  const supabase = localServiceClient(url);
  const added: string[] = [];
  for (const document of starterDocuments) {
    const bytes = new Uint8Array(readFileSync(join(starterDir, `${document.file}.pdf`)));
    await addKnowledgeDocument(supabase, { url, bytes, title: document.title, storagePath: starterStoragePath(document.file) });
    added.push(document.title);
  }
  if (marker !== null) writeFileSync(marker, `${new Date().toISOString()}\n${added.join('\n')}\n`);
  return { added };
}

/** Removes the starter documents again: rows through the Data API, files through the Storage API. */
export async function removeStarterKnowledge(url: string): Promise<void> {
  const supabase = localServiceClient(url);
  const paths = starterDocuments.map((document) => starterStoragePath(document.file));
  const { error } = await supabase.from('documents').delete().in('storage_path', paths);
  if (error) throw new Error(error.message);
  const removed = await supabase.storage.from(BUCKET).remove(paths);
  if (removed.error) throw new Error(removed.error.message);
}

/** For `npm start` and `npm run dev`: adds the starter knowledge after the stack started, and says so. */
export async function offerStarterKnowledge(): Promise<void> {
  const env = loadEnvFiles();
  const config = configFromEnv(env);
  try {
    const result = await addStarterKnowledge(`http://${config.host}:${String(config.port)}`, config, env);
    if ('added' in result) {
      console.log(`Starter knowledge: ${String(result.added.length)} coaching documents added to the knowledge base (STARTER_KNOWLEDGE=off skips this).`);
    }
  } catch (error) {
    // The site works without them; the admin can upload documents as usual.
    console.error(`Starter knowledge not added: ${error instanceof Error ? error.message : String(error)}`);
  }
}
