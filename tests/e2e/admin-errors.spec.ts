/**
 * The admin area's catalogue messages for failures. Most are provoked the way they happen in
 * real life: the connection drops for one request (Chromium aborts it), everything else runs
 * against the real local stack.
 */
import type { Page } from '@playwright/test';
import { fixtureBytes } from '../fixtures/pdf/write';
import { ADMIN, KNOWLEDGE_TAB, adminFailure, LOGIN_PATH, documentRow, expect, removeDocuments, test, text, uniqueName as unique, uploadPdfs as upload } from './admin';

const pdfs = fixtureBytes();
const offline = /Failed to load resource: net::ERR_INTERNET_DISCONNECTED/;

/** Drops the connection for requests matching the URL pattern and method. */
function dropConnection(page: Page, url: string | RegExp, method: string) {
  return page.route(url, (route) => (route.request().method() === method ? route.abort('internetdisconnected') : route.continue()));
}

async function signIn(page: Page) {
  await page.goto(LOGIN_PATH);
  await page.getByLabel(text('de', 'admin:login.username')).fill(ADMIN.email);
  await page.getByLabel(text('de', 'admin:login.password')).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

test.describe('sign-in failures', () => {
  test('no connection to the server: "Ein unerwarteter Fehler ist bei der Anmeldung aufgetreten"', async ({ page, consoleProblems }) => {
    consoleProblems.allow(offline);
    // supabase-js logs the failed fetch itself.
    consoleProblems.allow(/TypeError: Failed to fetch/);
    await dropConnection(page, '**/auth/v1/token**', 'POST');
    await signIn(page);
    await expect(page.getByRole('alert')).toHaveText('Ein unerwarteter Fehler ist bei der Anmeldung aufgetreten');
    await expect(page).toHaveURL(LOGIN_PATH);
  });

  test('an answer without a session: "Login failed - no session returned"', async ({ page }) => {
    // No GoTrue answers a password grant with a user but without a session; this stands in for
    // such a server, which is exactly the situation the message is for.
    await page.route('**/auth/v1/token**', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ user: null, session: null }) }),
    );
    await signIn(page);
    await expect(page.getByRole('alert')).toHaveText('Login failed - no session returned');
    await expect(page).toHaveURL(LOGIN_PATH);
  });
});

test.describe('knowledge base failures', () => {
  test.beforeEach(async ({ loginAsAdmin, page }) => {
    await loginAsAdmin(page);
  });

  // The documents a test here leaves behind go, file and row: copies of the same PDF would
  // otherwise pile up and crowd the search results other tests look for their own passage in.
  // By exact title: another run of the same test may be uploading at the same time.
  const uploaded: string[] = [];
  const track = (name: string) => {
    uploaded.push(name);
    return name;
  };
  test.afterEach(async ({ service }) => {
    await removeDocuments(service, uploaded.splice(0));
  });

  test('the list cannot be loaded: "Failed to load documents"', async ({ page, consoleProblems }) => {
    consoleProblems.allow(offline);
    consoleProblems.allow(adminFailure('documents not loaded'));
    await dropConnection(page, /\/rest\/v1\/documents\?/, 'GET');
    await page.goto(KNOWLEDGE_TAB);
    // supabase-js retries a failed read a few times before it gives up.
    await expect(page.getByRole('alert').filter({ hasText: 'Failed to load documents' })).toBeVisible({ timeout: 20_000 });
  });

  test('a failed upload stops that file only: "Failed to upload document"', async ({ page, service, consoleProblems }, testInfo) => {
    consoleProblems.allow(offline);
    consoleProblems.allow(adminFailure('upload of .* failed'));
    const failing = track(unique('abbruch', testInfo.testId));
    const fine = track(unique('geht-durch', testInfo.testId));
    await page.route('**/storage/v1/object/document-uploads/**', (route) =>
      route.request().url().includes('abbruch') ? route.abort('internetdisconnected') : route.continue(),
    );
    await page.goto(KNOWLEDGE_TAB);
    await upload(page, [
      { name: failing, bytes: pdfs.knowledge },
      { name: fine, bytes: pdfs.knowledge },
    ]);
    await expect(page.getByRole('alert').filter({ hasText: `${failing}: Failed to upload document` })).toBeVisible();
    await expect(documentRow(page, fine)).toHaveAttribute('data-status', 'COMPLETED', { timeout: 20_000 });
    const { data } = await service.from('documents').select('title').in('title', [failing, fine]);
    expect(data?.map((row) => row.title)).toEqual([fine]);
  });

  test('undo fails when the file cannot be removed: "Error removing file"', async ({ page, consoleProblems }, testInfo) => {
    consoleProblems.allow(offline);
    consoleProblems.allow(adminFailure('revert failed'));
    const name = track(unique('bleibt', testInfo.testId));
    await page.goto(KNOWLEDGE_TAB);
    await upload(page, [{ name, bytes: pdfs.knowledge }]);
    const item = documentRow(page, name);
    await expect(item).toHaveAttribute('data-status', 'COMPLETED', { timeout: 20_000 });
    await dropConnection(page, '**/storage/v1/object/document-uploads', 'DELETE');
    await page.locator('.filepond--root').getByRole('button', { name: text('de', 'admin:knowledge.pond.remove') }).click();
    await expect(page.getByRole('alert').filter({ hasText: `${name}: Error removing file` })).toBeVisible();
    await expect(item).toHaveCount(1);
  });

  test('a delete that does not go through: "Failed to delete document", and the document stays', async ({ page, consoleProblems }, testInfo) => {
    consoleProblems.allow(offline);
    consoleProblems.allow(adminFailure('delete failed'));
    const name = track(unique('loeschen', testInfo.testId));
    await page.goto(KNOWLEDGE_TAB);
    await upload(page, [{ name, bytes: pdfs.knowledge }]);
    const item = documentRow(page, name);
    await expect(item).toHaveAttribute('data-status', 'COMPLETED', { timeout: 20_000 });
    await dropConnection(page, /\/rest\/v1\/documents\?/, 'DELETE');
    await item.getByRole('button', { name: text('de', 'admin:knowledge.deleteLabel', { title: name }) }).click();
    await page.getByRole('dialog').getByRole('button', { name: text('de', 'admin:knowledge.deleteConfirmButton') }).click();
    await expect(page.getByRole('dialog').getByRole('alert')).toHaveText('Failed to delete document');
    await page.keyboard.press('Escape');
    await expect(item).toHaveCount(1);
    // Passages and file went before the row: the row says that its delete is not finished.
    await expect(item).toHaveAttribute('data-phase', 'deleteIncomplete');
  });

  test('the search does not go through: "Failed to search documents"', async ({ page, consoleProblems }) => {
    consoleProblems.allow(offline);
    consoleProblems.allow(adminFailure('search failed'));
    await dropConnection(page, '**/rest/v1/rpc/search_knowledge', 'POST');
    await page.goto(KNOWLEDGE_TAB);
    // Sent with Enter, as in admin-knowledge.spec: other tests' uploads move the button.
    const searchbox = page.getByRole('searchbox', { name: text('de', 'admin:knowledge.searchLabel') });
    await searchbox.fill('Atemübung');
    await searchbox.press('Enter');
    await expect(page.getByRole('alert').filter({ hasText: 'Failed to search documents' })).toBeVisible();
  });
});
