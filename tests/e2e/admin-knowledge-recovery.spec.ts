/**
 * Documents never hang: a document left in PROCESSING (the tab closed mid-way) shows as stuck and
 * "Erneut verarbeiten" recovers it from the stored PDF; a delete that breaks off half-way says so
 * and the same delete finishes it; undoing an upload while its text is processed leaves no error.
 * The stuck document is arranged as a closed tab leaves it: a real stored PDF and its row in
 * PROCESSING since ten minutes ago.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type { SupabaseClient } from '@supabase/supabase-js';
import { storedPdfUrl } from '../../src/services/documentLifecycle';
import type { Database } from '../../src/types/database';
import { knowledgePhrases } from '../fixtures/pdf/knowledgeText';
import { fixtureBytes } from '../fixtures/pdf/write';
import { KNOWLEDGE_TAB, adminFailure, documentRow as row, expect, fileStored, removeDocuments, test, text, uniqueName as unique, uploadPdfs } from './admin';
import { stackUrl } from './env';

const pdfs = fixtureBytes();
const BUCKET = 'document-uploads';
const offline = /Failed to load resource: net::ERR_INTERNET_DISCONNECTED/;

/** A stored PDF and its row, as an upload whose tab was closed before processing ended leaves them. */
async function leftBehind(
  service: SupabaseClient<Database>,
  title: string,
  fields: { minutesAgo: number; status?: 'PROCESSING' | 'ERROR'; bytes?: Uint8Array },
): Promise<{ id: string; url: string; storagePath: string }> {
  const storagePath = `${String(Date.now())}-${title}`;
  const bytes = fields.bytes ?? pdfs.knowledge;
  const stored = await service.storage.from(BUCKET).upload(storagePath, new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), {
    contentType: 'application/pdf',
  });
  if (stored.error) throw stored.error;
  const url = storedPdfUrl(stackUrl, storagePath);
  const status = fields.status ?? 'PROCESSING';
  const { data, error } = await service
    .from('documents')
    .insert({
      title,
      url,
      status,
      error: status === 'ERROR' ? 'Die PDF-Datei konnte nicht verarbeitet werden.' : null,
      file_size: bytes.byteLength,
      storage_path: storagePath,
      created_at: new Date(Date.now() - fields.minutesAgo * 60_000).toISOString(),
      processing_started_at: new Date(Date.now() - fields.minutesAgo * 60_000).toISOString(),
    })
    .select('id')
    .single();
  if (error) throw error;
  return { id: data.id, url, storagePath };
}

async function useLanguage(page: Page, lang: 'de' | 'en') {
  await page.addInitScript((choice) => {
    try {
      window.localStorage.setItem('language', choice);
    } catch {
      // a sandboxed frame without storage
    }
  }, lang);
}

test.describe('documents never hang', () => {
  const titles: string[] = [];
  const track = (name: string) => {
    titles.push(name);
    return name;
  };
  test.afterEach(async ({ service }) => {
    await removeDocuments(service, titles.splice(0));
  });

  test.beforeEach(async ({ loginAsAdmin, page }) => {
    await loginAsAdmin(page);
  });

  test('a stuck document recovered by Erneut verarbeiten', async ({ page, service }, testInfo) => {
    const stuckName = track(unique('haengt', testInfo.testId));
    const freshName = track(unique('laeuft', testInfo.testId));
    const stuck = await leftBehind(service, stuckName, { minutesAgo: 10 });
    // Another browser is still processing this one (started a minute ago): not stuck, nothing offered.
    await leftBehind(service, freshName, { minutesAgo: 1 });

    await page.goto(KNOWLEDGE_TAB);
    const item = row(page, stuckName);
    await expect(item).toHaveAttribute('data-phase', 'stuck');
    await expect(item).toHaveAttribute('data-status', 'PROCESSING');
    await expect(item).toContainText(text('de', 'admin:knowledge.phase.stuck'));
    await expect(item).toContainText(text('de', 'admin:knowledge.stuckHint', { minutes: '5' }));
    await expect(item.locator('[data-status-icon="STUCK"]')).toBeVisible();
    const fresh = row(page, freshName);
    await expect(fresh).toHaveAttribute('data-phase', 'processing');
    await expect(fresh.locator('[data-status-icon="PROCESSING"]')).toBeVisible();
    await expect(fresh.getByRole('button', { name: text('de', 'admin:knowledge.reprocessLabel', { title: freshName }) })).toHaveCount(0);

    await page.screenshot({ path: testInfo.outputPath('stuck-document.png'), fullPage: true });
    const axe = await new AxeBuilder({ page }).include('li[data-document-id]').analyze();
    expect(axe.violations.map((violation) => violation.id)).toEqual([]);

    const reprocess = item.getByRole('button', { name: text('de', 'admin:knowledge.reprocessLabel', { title: stuckName }) });
    await expect(reprocess).toHaveText(text('de', 'admin:knowledge.reprocess'));
    await reprocess.click();
    await expect(item).toHaveAttribute('data-status', 'COMPLETED', { timeout: 20_000 });
    await expect(item.locator('[data-status-icon="COMPLETED"]')).toBeVisible();
    await expect(reprocess).toHaveCount(0);

    // The stored PDF's text is now the document's passages.
    const { data: passages } = await service.from('document_chunks').select('content').eq('document_id', stuck.id);
    const allText = (passages ?? []).map((passage) => passage.content).join('\n');
    for (const phrase of Object.values(knowledgePhrases)) expect(allText).toContain(phrase);
    // The fresh one was left alone.
    const { data: untouched } = await service.from('documents').select('status').eq('title', freshName).single();
    expect(untouched?.status).toBe('PROCESSING');
  });

  test('in English: "Processing stuck", and "Process again" also for an ERROR document', async ({ page, service }, testInfo) => {
    const stuckName = track(unique('stuck', testInfo.testId));
    const failedName = track(unique('failed', testInfo.testId));
    await leftBehind(service, stuckName, { minutesAgo: 30 });
    await leftBehind(service, failedName, { minutesAgo: 2, status: 'ERROR' });
    await useLanguage(page, 'en');
    await page.goto(KNOWLEDGE_TAB);

    const stuck = row(page, stuckName);
    await expect(stuck).toContainText('Processing stuck');
    await expect(stuck).toContainText(text('en', 'admin:knowledge.stuckHint', { minutes: '5' }));
    const failed = row(page, failedName);
    await expect(failed).toHaveAttribute('data-phase', 'error');
    await failed.getByRole('button', { name: text('en', 'admin:knowledge.reprocessLabel', { title: failedName }) }).click();
    await expect(failed).toHaveAttribute('data-status', 'COMPLETED', { timeout: 20_000 });
    await expect(stuck).toHaveAttribute('data-phase', 'stuck');
  });

  test('a processed document read again ("Neu einlesen"): its stored PDF\'s text replaces an older extraction', async ({ page, service }, testInfo) => {
    const name = track(unique('neu-lesen', testInfo.testId));
    const document = await leftBehind(service, name, { minutesAgo: 3 });
    // Processed by an older extraction: a passage the stored PDF does not hold.
    const stale = 'Dieser Absatz stammt aus einer älteren Textextraktion.';
    const ingested = await service.rpc('ingest_document_text', { document_id: document.id, text: `Alte Fassung\n\n${stale}` });
    expect(ingested.error).toBeNull();

    await page.goto(KNOWLEDGE_TAB);
    const item = row(page, name);
    await expect(item).toHaveAttribute('data-phase', 'completed');
    await expect(item.getByRole('button', { name: text('de', 'admin:knowledge.reprocessLabel', { title: name }) })).toHaveCount(0);
    const refresh = item.getByRole('button', { name: text('de', 'admin:knowledge.refreshLabel', { title: name }) });
    await expect(refresh).toHaveText(text('de', 'admin:knowledge.refresh'));
    await refresh.click();
    const outcome = item.getByRole('status');
    await expect(outcome).toHaveText(/^Neu eingelesen: \d+ Abschnitte?\.$/u, { timeout: 20_000 });
    await expect(refresh).toBeEnabled();
    await expect(item).toHaveAttribute('data-status', 'COMPLETED');
    await page.screenshot({ path: testInfo.outputPath('document-read-again.png'), fullPage: true });

    const { data: passages } = await service.from('document_chunks').select('content').eq('document_id', document.id);
    const contents = (passages ?? []).map((passage) => passage.content);
    await expect(outcome).toHaveText(text('de', `admin:knowledge.refreshed_${contents.length === 1 ? 'one' : 'other'}`, { count: String(contents.length) }));
    for (const phrase of Object.values(knowledgePhrases)) expect(contents.join('\n')).toContain(phrase);
    expect(contents.join('\n')).not.toContain(stale);
  });

  test('reading a processed document again when its PDF cannot be downloaded keeps its passages and says so', async ({ page, service, consoleProblems }, testInfo) => {
    consoleProblems.allow(offline);
    consoleProblems.allow(adminFailure('reading again failed'));
    const name = track(unique('bleibt', testInfo.testId));
    const document = await leftBehind(service, name, { minutesAgo: 3 });
    const kept = 'Dieser Absatz bleibt, wenn das Neueinlesen scheitert.';
    expect((await service.rpc('ingest_document_text', { document_id: document.id, text: kept })).error).toBeNull();
    await useLanguage(page, 'en');
    await page.goto(KNOWLEDGE_TAB);
    const item = row(page, name);
    await page.route(`**/storage/v1/object/**/${BUCKET}/${document.storagePath}`, (route) => route.abort('internetdisconnected'));
    await item.getByRole('button', { name: text('en', 'admin:knowledge.refreshLabel', { title: name }) }).click();
    await expect(item.getByRole('alert')).toHaveText(text('en', 'admin:knowledge.refreshFailed'));
    await expect(item).toHaveAttribute('data-phase', 'completed');
    const { data: passages } = await service.from('document_chunks').select('content').eq('document_id', document.id);
    expect((passages ?? []).map((passage) => passage.content)).toEqual([kept]);
  });

  test('reading a processed document again whose stored PDF has no readable text keeps its passages and says so', async ({ page, service, consoleProblems }, testInfo) => {
    // pdf.js finds no text: nothing is sent to the server (which would refuse it with 422 too).
    consoleProblems.allow(adminFailure('reading again failed'));
    const name = track(unique('bild', testInfo.testId));
    const document = await leftBehind(service, name, { minutesAgo: 3, bytes: pdfs.imageOnly });
    const kept = 'Dieser Absatz stammt aus einer Fassung mit Text.';
    expect((await service.rpc('ingest_document_text', { document_id: document.id, text: kept })).error).toBeNull();
    await page.goto(KNOWLEDGE_TAB);
    const item = row(page, name);
    await item.getByRole('button', { name: text('de', 'admin:knowledge.refreshLabel', { title: name }) }).click();
    await expect(item.getByRole('alert')).toHaveText(text('de', 'admin:knowledge.refreshUnreadable'));
    await expect(item).toHaveAttribute('data-phase', 'completed');
    const { data: passages } = await service.from('document_chunks').select('content').eq('document_id', document.id);
    expect((passages ?? []).map((passage) => passage.content)).toEqual([kept]);
  });

  test('a delete that breaks off after its first step shows "Löschen nicht abgeschlossen", and deleting again finishes it', async ({ page, service, consoleProblems }, testInfo) => {
    consoleProblems.allow(offline);
    consoleProblems.allow(adminFailure('delete failed'));
    const name = track(unique('halb', testInfo.testId));
    const document = await leftBehind(service, name, { minutesAgo: 0, status: 'ERROR' });
    await page.goto(KNOWLEDGE_TAB);
    const item = row(page, name);
    await expect(item).toHaveAttribute('data-phase', 'error');

    // The connection drops for the file removal only.
    await page.route('**/storage/v1/object/document-uploads', (route) =>
      route.request().method() === 'DELETE' ? route.abort('internetdisconnected') : route.continue(),
    );
    const deleteButton = item.getByRole('button', { name: text('de', 'admin:knowledge.deleteLabel', { title: name }) });
    await deleteButton.click();
    await page.getByRole('dialog').getByRole('button', { name: text('de', 'admin:knowledge.deleteConfirmButton') }).click();
    await expect(page.getByRole('dialog').getByRole('alert')).toHaveText('Failed to delete document');
    await page.keyboard.press('Escape');
    await expect(item).toHaveAttribute('data-phase', 'deleteIncomplete');
    await expect(item).toContainText(text('de', 'admin:knowledge.phase.deleteIncomplete'));
    await expect(item.getByRole('button', { name: text('de', 'admin:knowledge.reprocessLabel', { title: name }) })).toHaveCount(0);
    // Nothing is lost or orphaned: the row is marked and its file is still there.
    const { data: marked } = await service.from('documents').select('deleting_since').eq('id', document.id).single();
    expect(marked?.deleting_since).not.toBeNull();
    expect(await fileStored(service, document.storagePath)).toBe(true);

    await page.unroute('**/storage/v1/object/document-uploads');
    await deleteButton.click();
    await page.getByRole('dialog').getByRole('button', { name: text('de', 'admin:knowledge.deleteConfirmButton') }).click();
    await expect(item).toHaveCount(0);
    const { data: gone } = await service.from('documents').select('id').eq('id', document.id);
    expect(gone).toEqual([]);
    expect(await fileStored(service, document.storagePath)).toBe(false);
  });

  test('undoing an upload while its text is being processed leaves no error and no document', async ({ page, service, consoleProblems }, testInfo) => {
    // The browser's own line for the ingest that finds its document gone (404, not a server error).
    consoleProblems.allow(/Failed to load resource: the server responded with a status of 404/);
    const name = track(unique('mittendrin', testInfo.testId));
    // Hold the ingest of the extracted text until the upload has been undone.
    let release: () => void = () => undefined;
    const undone = new Promise<void>((resolve) => {
      release = resolve;
    });
    let ingestHeld = false;
    await page.route('**/rest/v1/rpc/ingest_document_text', async (route) => {
      ingestHeld = true;
      await undone;
      await route.continue();
    });
    await page.goto(KNOWLEDGE_TAB);
    await uploadPdfs(page, [{ name, bytes: pdfs.knowledge }]);
    const item = row(page, name);
    await expect(item).toHaveAttribute('data-status', 'PROCESSING');
    await expect.poll(() => ingestHeld).toBe(true);
    const { data: stored } = await service.from('documents').select('storage_path').eq('title', name).single();

    await page.locator('.filepond--root').getByRole('button', { name: text('de', 'admin:knowledge.pond.remove') }).click();
    await expect(item).toHaveCount(0);
    const ingested = page.waitForResponse('**/rest/v1/rpc/ingest_document_text');
    release();
    expect((await ingested).status()).toBe(404);

    const { data } = await service.from('documents').select('id').eq('title', name);
    expect(data).toEqual([]);
    expect(await fileStored(service, stored?.storage_path)).toBe(false);
    await expect(item).toHaveCount(0);
  });

  test("a document's title opens its PDF through a signed URL; the public route serves nothing of it", async ({ page, service }, testInfo) => {
    const name = track(unique('oeffnen', testInfo.testId));
    const document = await leftBehind(service, name, { minutesAgo: 1 });
    const publicUrl = document.url.replace('/object/authenticated/', '/object/public/');
    expect((await fetch(publicUrl)).status).toBe(400);
    expect((await fetch(document.url)).ok).toBe(false);

    // The PDF's tab asks the storage host for a favicon, which the Storage API does not have.
    await page.context().route(`${stackUrl}/favicon.ico`, (route) => route.fulfill({ status: 204 }));
    await page.goto(KNOWLEDGE_TAB);
    const item = row(page, name);
    const signed = page.context().waitForEvent('request', (request) => request.method() === 'GET' && request.url().includes('/storage/v1/object/sign/document-uploads/'));
    const popup = page.waitForEvent('popup');
    await item.getByRole('link', { name }).click();
    const opened = await signed;
    expect(opened.url()).toMatch(new RegExp(`/storage/v1/object/sign/document-uploads/${document.storagePath}\\?token=`, 'u'));
    // The link works without any token of the admin's, for whoever holds it, until it expires.
    const file = await fetch(opened.url());
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(new Uint8Array(pdfs.knowledge));
    await (await popup).close();
    await page.screenshot({ path: testInfo.outputPath('document-list.png'), fullPage: true });
  });

  test('a PDF that cannot be signed says so in its row and closes the empty tab', async ({ page, service, consoleProblems }, testInfo) => {
    const name = track(unique('signieren', testInfo.testId));
    await leftBehind(service, name, { minutesAgo: 1 });
    await page.goto(KNOWLEDGE_TAB);
    const item = row(page, name);
    consoleProblems.allow(/Failed to load resource: the server responded with a status of 400/);
    consoleProblems.allow(adminFailure('opening the file failed'));
    await page.route('**/storage/v1/object/sign/document-uploads/**', (route) =>
      route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ statusCode: '404', error: 'not_found', message: 'Object not found' }) }),
    );
    const failedTab = page.waitForEvent('popup');
    await item.getByRole('link', { name }).click();
    await expect(item).toContainText(text('de', 'admin:knowledge.openFailed'));
    await expect.poll(async () => (await failedTab).isClosed()).toBe(true);
    await item.screenshot({ path: testInfo.outputPath('document-open-failed.png') });
  });
});
