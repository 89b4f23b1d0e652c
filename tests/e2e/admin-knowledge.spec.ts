import { fixtureBytes } from '../fixtures/pdf/write';
import { knowledgePhrases } from '../fixtures/pdf/knowledgeText';
import { KNOWLEDGE_TAB, adminFailure, documentRow as row, expect, fileStored, removeDocuments, test, text, uniqueName as unique, uploadPdfs } from './admin';

const pdfs = fixtureBytes();
test.describe('knowledge base', () => {
  /** Documents a test leaves in the list on purpose (ERROR ones), removed after it. */
  const leftOver: string[] = [];
  test.beforeEach(async ({ loginAsAdmin, page }) => {
    await loginAsAdmin(page);
  });
  test.afterEach(async ({ service }) => {
    await removeDocuments(service, leftOver.splice(0));
  });

  test('a multi-page PDF is uploaded, processed to COMPLETED, searchable, and deleted with row, passages and file', async ({ page, service }, testInfo) => {
    const name = unique('wissen', testInfo.testId);
    await page.goto(KNOWLEDGE_TAB);
    await expect(page.getByRole('heading', { name: 'Dokumente hochladen' })).toBeVisible();
    await expect(page.getByText('Drag & Drop your files or Browse')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Dokumentenverwaltung' })).toBeVisible();

    await uploadPdfs(page, [{ name, bytes: pdfs.knowledge }]);
    const item = row(page, name);
    await expect(item).toHaveAttribute('data-status', 'COMPLETED', { timeout: 20_000 });
    await expect(item.locator('[data-status-icon="COMPLETED"]')).toBeVisible();

    const { data: stored } = await service.from('documents').select('id, created_at, file_size, status, storage_path, url').eq('title', name).single();
    expect(stored?.file_size).toBe(pdfs.knowledge.byteLength);
    // Size in KB, upload time as dd.mm.yyyy, hh:mm in German time.
    await expect(item.locator('[data-field="size"]')).toHaveText(`${String(Math.round(pdfs.knowledge.byteLength / 1024))} KB`);
    const expectedDate = new Intl.DateTimeFormat('de-DE', {
      day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'Europe/Berlin',
    }).format(new Date(stored?.created_at ?? ''));
    await expect(item.locator('[data-field="uploaded"]')).toHaveText(`Hochgeladen am ${expectedDate}`);
    await expect(item.locator('[data-field="uploaded"]')).toHaveText(/^Hochgeladen am \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);

    // Every page's text became passages.
    const { data: passages } = await service.from('document_chunks').select('content').eq('document_id', stored?.id ?? '');
    const allText = (passages ?? []).map((passage) => passage.content).join('\n');
    for (const phrase of Object.values(knowledgePhrases)) expect(allText).toContain(phrase);

    // The search box shows what the coach would get. Sent with Enter: the documents of tests running
    // alongside appear above the search as they are uploaded and move its button, which can take a
    // click meant for it elsewhere; the key goes to the focused box wherever it has moved.
    const searchbox = page.getByRole('searchbox', { name: text('de', 'admin:knowledge.searchLabel') });
    await searchbox.fill('Wie funktioniert die Box-Atmung?');
    await expect(page.getByRole('button', { name: text('de', 'admin:knowledge.searchButton') })).toBeEnabled();
    await searchbox.press('Enter');
    const results = page.getByRole('list', { name: text('de', 'admin:knowledge.searchHeading') });
    const hit = results.getByRole('listitem').filter({ hasText: name }).filter({ hasText: knowledgePhrases.page2 }).first();
    await expect(hit).toBeVisible();
    // Each passage shows its relevance score and the question terms it matched.
    await expect(hit).toContainText(/Relevanz \d{1,3} %/u);
    await expect(hit).toContainText(/Treffer: .*box-atm/u);

    // Delete, with confirmation.
    await item.getByRole('button', { name: text('de', 'admin:knowledge.deleteLabel', { title: name }) }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(name);
    await dialog.getByRole('button', { name: text('de', 'admin:knowledge.deleteConfirmButton') }).click();
    await expect(item).toHaveCount(0);
    const { data: gone } = await service.from('documents').select('id').eq('title', name);
    expect(gone).toEqual([]);
    const { data: orphanPassages } = await service.from('document_chunks').select('id').eq('document_id', stored?.id ?? '');
    expect(orphanPassages).toEqual([]);
    // The row leaves the list with the realtime DELETE, which can come before the app has removed
    // the stored file (the next step of the same delete): wait for that step, not for the row.
    await expect.poll(() => fileStored(service, stored?.storage_path)).toBe(false);
  });

  test('image-only, encrypted and broken PDFs end as ERROR with their reason on hover and focus', async ({ page }, testInfo) => {
    const names = {
      imageOnly: unique('nur-bild', testInfo.testId),
      encrypted: unique('geschuetzt', testInfo.testId),
      broken: unique('kaputt', testInfo.testId),
    };
    leftOver.push(...Object.values(names));
    await page.goto(KNOWLEDGE_TAB);
    await uploadPdfs(page, [
      { name: names.imageOnly, bytes: pdfs.imageOnly },
      { name: names.encrypted, bytes: pdfs.encrypted },
      { name: names.broken, bytes: pdfs.broken },
    ]);
    const reasons = {
      imageOnly: 'Die PDF-Datei enthält keinen lesbaren Text (nur Bilder?).',
      encrypted: 'Die PDF-Datei ist passwortgeschützt und kann nicht gelesen werden.',
      broken: 'Die PDF-Datei ist beschädigt und kann nicht gelesen werden.',
    };
    for (const key of ['imageOnly', 'encrypted', 'broken'] as const) {
      const item = row(page, names[key]);
      await expect(item).toHaveAttribute('data-status', 'ERROR', { timeout: 20_000 });
      await expect(item.locator('[data-status-icon="ERROR"]')).toBeVisible();
      const tooltip = item.getByRole('tooltip');
      await expect(tooltip).toBeHidden();
      await item.getByRole('button', { name: text('de', 'admin:knowledge.status.ERROR') }).focus();
      await expect(tooltip).toBeVisible();
      await expect(tooltip).toHaveText(`Fehler: ${reasons[key]}`);
    }
    await row(page, names.broken).getByRole('button', { name: text('de', 'admin:knowledge.status.ERROR') }).blur();
    await row(page, names.broken).getByRole('button', { name: text('de', 'admin:knowledge.status.ERROR') }).hover();
    await expect(row(page, names.broken).getByRole('tooltip')).toBeVisible();
  });

  test('a text file renamed to .pdf is refused with "Only PDF files are supported" and leaves nothing behind', async ({ page, service, consoleProblems }, testInfo) => {
    // The seed logs a refused upload.
    consoleProblems.allow(adminFailure('upload of .* failed'));
    const name = unique('notizen', testInfo.testId);
    await page.goto(KNOWLEDGE_TAB);
    await uploadPdfs(page, [{ name, bytes: pdfs.textAsPdf }]);
    await expect(page.getByRole('alert').filter({ hasText: `${name}: Only PDF files are supported` })).toBeVisible();
    await expect(page.locator('.filepond--file-status-main', { hasText: 'Only PDF files are supported' })).toBeVisible();
    const { data } = await service.from('documents').select('id').eq('title', name);
    expect(data).toEqual([]);
  });

  test('more than three files at once shows the warning and uploads none of them', async ({ page, service }, testInfo) => {
    await page.goto(KNOWLEDGE_TAB);
    const names = [1, 2, 3, 4].map((n) => unique(`viele-${String(n)}`, testInfo.testId));
    await uploadPdfs(page, names.map((name) => ({ name, bytes: pdfs.knowledge })));
    await expect(page.getByRole('alert').filter({ hasText: text('de', 'admin:knowledge.maxFilesWarning') })).toBeVisible();
    const { data } = await service.from('documents').select('id').in('title', names);
    expect(data).toEqual([]);
  });

  test('undoing an upload in the widget removes the stored file and its document', async ({ page, service }, testInfo) => {
    const name = unique('rueckgaengig', testInfo.testId);
    await page.goto(KNOWLEDGE_TAB);
    await uploadPdfs(page, [{ name, bytes: pdfs.knowledge }]);
    // Processed first: an undo while the text is still being ingested is another case (the ingest
    // then finds no document: admin-knowledge-recovery.spec.ts), and under load the row can appear
    // long before processing ends.
    await expect(row(page, name)).toHaveAttribute('data-status', 'COMPLETED', { timeout: 20_000 });
    const { data: stored } = await service.from('documents').select('storage_path').eq('title', name).single();
    expect(await fileStored(service, stored?.storage_path)).toBe(true);
    // Once uploaded, the widget's remove button undoes the upload (FilePond's revert).
    await page.locator('.filepond--root').getByRole('button', { name: text('de', 'admin:knowledge.pond.remove') }).click();
    await expect(row(page, name)).toHaveCount(0);
    const { data } = await service.from('documents').select('id').eq('title', name);
    expect(data).toEqual([]);
    expect(await fileStored(service, stored?.storage_path)).toBe(false);
  });

  test('a second admin browser sees the upload appear, change status and disappear without reloading', async ({ page, browser, loginAsAdmin }, testInfo) => {
    const name = unique('live', testInfo.testId);
    const watcherContext = await browser.newContext();
    const watcher = await watcherContext.newPage();
    await loginAsAdmin(watcher);
    await watcher.goto(KNOWLEDGE_TAB);
    await expect(watcher.getByRole('heading', { name: 'Dokumentenverwaltung' })).toBeVisible();
    await expect(watcher.getByText(text('de', 'admin:knowledge.reconnecting'))).toHaveCount(0);

    const listedIds = () => watcher.locator('li[data-document-id]').evaluateAll((items) => items.map((item) => item.getAttribute('data-document-id')));
    const earlier = await listedIds();

    await page.goto(KNOWLEDGE_TAB);
    await uploadPdfs(page, [{ name, bytes: pdfs.knowledge }]);
    const seen = row(watcher, name);
    await expect(seen).toHaveCount(1, { timeout: 20_000 });
    await expect(seen).toHaveAttribute('data-status', 'COMPLETED', { timeout: 20_000 });
    // Newest first: the new document comes before every document listed before it (other tests
    // upload at the same time, so it need not be the very first).
    const ids = await listedIds();
    const position = ids.indexOf(await seen.getAttribute('data-document-id'));
    expect(position).toBeGreaterThanOrEqual(0);
    for (const id of earlier) if (ids.includes(id)) expect(position).toBeLessThan(ids.indexOf(id));

    await row(page, name).getByRole('button', { name: text('de', 'admin:knowledge.deleteLabel', { title: name }) }).click();
    await page.getByRole('dialog').getByRole('button', { name: text('de', 'admin:knowledge.deleteConfirmButton') }).click();
    await expect(seen).toHaveCount(0);
    await watcherContext.close();
  });
});
