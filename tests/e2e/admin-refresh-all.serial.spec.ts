/**
 * "Alle neu einlesen": every processed document read again from its stored PDF, one after the
 * other. Serial, because it reads again whatever documents the stack holds at that moment: beside
 * the parallel specs it would rewrite their documents' passages under them.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { storedPdfUrl } from '../../src/services/documentLifecycle';
import type { Database } from '../../src/types/database';
import { knowledgePhrases } from '../fixtures/pdf/knowledgeText';
import { fixtureBytes } from '../fixtures/pdf/write';
import { KNOWLEDGE_TAB, documentRow, expect, removeDocuments, test, text, uniqueName } from './admin';
import { stackUrl } from './env';

const pdfs = fixtureBytes();

/** A stored PDF with its row, processed by an older extraction: one passage the PDF does not hold. */
async function processedLongAgo(service: SupabaseClient<Database>, title: string, stale: string): Promise<string> {
  const storagePath = `${String(Date.now())}-${title}`;
  const stored = await service.storage
    .from('document-uploads')
    .upload(storagePath, new Blob([new Uint8Array(pdfs.knowledge)], { type: 'application/pdf' }), { contentType: 'application/pdf' });
  if (stored.error) throw stored.error;
  const { data, error } = await service
    .from('documents')
    .insert({ title, url: storedPdfUrl(stackUrl, storagePath), status: 'PROCESSING', file_size: pdfs.knowledge.byteLength, storage_path: storagePath })
    .select('id')
    .single();
  if (error) throw error;
  const ingested = await service.rpc('ingest_document_text', { document_id: data.id, text: stale });
  if (ingested.error) throw ingested.error;
  return data.id;
}

test.describe('reading every processed document again', () => {
  const titles: string[] = [];
  test.afterEach(async ({ service }) => {
    await removeDocuments(service, titles.splice(0));
  });

  test('"Alle neu einlesen" replaces each older extraction and says how many were read', async ({ page, service, loginAsAdmin }, testInfo) => {
    const documents = await Promise.all(
      ['erste', 'zweite'].map(async (name, index) => {
        const title = uniqueName(`alle-${name}`, testInfo.testId);
        titles.push(title);
        const stale = `Veraltete Fassung ${String(index + 1)}: dieser Absatz stammt aus einer älteren Textextraktion.`;
        return { title, stale, id: await processedLongAgo(service, title, stale) };
      }),
    );
    const { count: processed } = await service.from('documents').select('id', { count: 'exact', head: true }).eq('status', 'COMPLETED').is('deleting_since', null);

    await loginAsAdmin(page);
    await page.goto(KNOWLEDGE_TAB);
    for (const { title } of documents) await expect(documentRow(page, title)).toHaveAttribute('data-phase', 'completed');
    // The first swap waits until the progress has been seen.
    let release: () => void = () => undefined;
    const seen = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/rest/v1/rpc/refresh_document_text', async (route) => {
      await seen;
      await route.continue();
    });
    const all = page.getByRole('button', { name: text('de', 'admin:knowledge.refreshAll') });
    await all.click();
    await expect(all).toBeDisabled();
    await expect(page.getByRole('status').filter({ hasText: 'Wird neu eingelesen' })).toHaveText(text('de', 'admin:knowledge.refreshAllProgress', { done: '0', total: String(processed ?? 0) }));
    release();
    await expect(page.getByRole('status').filter({ hasText: 'Dokumente neu eingelesen.' })).toHaveText(
      text('de', 'admin:knowledge.refreshAllDone_other', { count: String(processed ?? 0) }),
      { timeout: 60_000 },
    );
    await expect(all).toBeEnabled();
    await page.screenshot({ path: testInfo.outputPath('read-all-again.png'), fullPage: true });

    for (const { id, stale } of documents) {
      const { data: passages } = await service.from('document_chunks').select('content').eq('document_id', id);
      const contents = (passages ?? []).map((passage) => passage.content).join('\n');
      for (const phrase of Object.values(knowledgePhrases)) expect(contents).toContain(phrase);
      expect(contents).not.toContain(stale);
    }
  });
});
