import { persona } from '../../src/config/persona';
import { LOCAL_ANON_KEY } from '../../supabase/local/config';
import { fixtureBytes } from '../fixtures/pdf/write';
import { DASHBOARD_PATH, documentRow, expect, removeDocuments, test, text, uploadPdfs } from './admin';
import { encodeWav } from '../../src/lib/wav';
import { controlUrl, e2eEnv, stackUrl } from './env';

const functions = `${stackUrl}/functions/v1`;
const anonHeaders = { authorization: `Bearer ${LOCAL_ANON_KEY}`, 'content-type': 'application/json' };

test.describe('system settings and counters', () => {
  test.beforeEach(async ({ loginAsAdmin, page }) => {
    await loginAsAdmin(page);
  });

  test.afterEach(async () => {
    await fetch(`${controlUrl}/env/reset`, { method: 'POST' });
  });

  test('the key fields are disabled and masked, and never show the key', async ({ page }) => {
    const bodies: string[] = [];
    page.on('response', async (response) => {
      if (response.url().startsWith(stackUrl)) bodies.push(await response.text().catch(() => ''));
    });
    await page.goto(`${DASHBOARD_PATH}?tab=settings`);
    const model = page.getByLabel(text('de', 'admin:settings.languageModelKey'));
    const voice = page.getByLabel(text('de', 'admin:settings.voiceKey'));
    await expect(model).toBeDisabled();
    await expect(voice).toBeDisabled();
    await expect(model).toHaveValue(`sk-…${e2eEnv.openaiKey.slice(-4)}`);
    await expect(voice).toHaveValue(`sk_…${e2eEnv.elevenLabsKey.slice(-4)}`);
    const html = await page.content();
    for (const key of [e2eEnv.openaiKey, e2eEnv.elevenLabsKey]) {
      expect(html).not.toContain(key);
      for (const body of bodies) expect(body).not.toContain(key);
    }

    // "Every browser through the speech-to-text service": saved at once, and what the page learns.
    const everyBrowser = async () => ((await (await fetch(`${functions}/stt-stream`)).json()) as { everyBrowser: boolean }).everyBrowser;
    const voiceInput = page.getByRole('switch', { name: text('de', 'admin:voiceInput.switchLabel') });
    await expect(voiceInput).toHaveAttribute('aria-checked', 'false');
    expect(await everyBrowser()).toBe(false);
    await voiceInput.click();
    await expect(page.getByText(text('de', 'admin:voiceInput.switchedOn'))).toBeVisible();
    expect(await everyBrowser()).toBe(true);
    await voiceInput.click();
    await expect(page.getByText(text('de', 'admin:voiceInput.switchedOff'))).toBeVisible();
    await expect(voiceInput).toHaveAttribute('aria-checked', 'false');
    expect(await everyBrowser()).toBe(false);
  });

  test('a key that is not set reads "nicht konfiguriert"', async ({ page }) => {
    await fetch(`${controlUrl}/env`, { method: 'POST', body: JSON.stringify({ unset: ['OPENAI_API_KEY'] }) });
    await page.goto(`${DASHBOARD_PATH}?tab=settings`);
    await expect(page.getByLabel(text('de', 'admin:settings.languageModelKey'))).toHaveValue('nicht konfiguriert');
    await expect(page.getByLabel(text('de', 'admin:settings.voiceKey'))).toHaveValue(`sk_…${e2eEnv.elevenLabsKey.slice(-4)}`);
  });

  test('"Cache leeren" asks first, then empties the voice cache so the next greeting is synthesised anew', async ({ page }) => {
    // Only the greeting is ever cached (supabase/functions/_shared/ttsCachePolicy.ts).
    const probe = JSON.stringify({ text: persona.greeting, cache: true });
    const first = await fetch(`${functions}/tts`, { method: 'POST', headers: anonHeaders, body: probe });
    await first.arrayBuffer();
    const second = await fetch(`${functions}/tts`, { method: 'POST', headers: anonHeaders, body: probe });
    await second.arrayBuffer();
    expect(second.headers.get('x-tts-cache')).toBe('hit');

    await page.goto(`${DASHBOARD_PATH}?tab=settings`);
    await page.getByRole('button', { name: 'Cache leeren' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(text('de', 'admin:settings.clearCacheConfirm'));
    // Cancelling keeps the cache.
    await dialog.getByRole('button', { name: text('de', 'admin:knowledge.cancel') }).click();
    const kept = await fetch(`${functions}/tts`, { method: 'POST', headers: anonHeaders, body: probe });
    await kept.arrayBuffer();
    expect(kept.headers.get('x-tts-cache')).toBe('hit');

    await page.getByRole('button', { name: 'Cache leeren' }).click();
    await page.getByRole('dialog').getByRole('button', { name: text('de', 'admin:settings.clearCacheConfirmButton') }).click();
    await expect(page.getByRole('status').filter({ hasText: /^Cache geleert: \d+ Aufnahmen? entfernt\.$/ })).toBeVisible();
    const after = await fetch(`${functions}/tts`, { method: 'POST', headers: anonHeaders, body: probe });
    await after.arrayBuffer();
    expect(after.headers.get('x-tts-cache')).toBe('miss');
  });

  test('the counters follow the data: a completed document, a rating, the computed growth note', async ({ page, service }, testInfo) => {
    // A known starting point: no rating yet, two conversations last month.
    await service.from('conversations').update({ rating: null }).not('rating', 'is', null);
    const lastMonth = new Date();
    lastMonth.setUTCDate(1);
    lastMonth.setUTCMonth(lastMonth.getUTCMonth() - 1);
    lastMonth.setUTCDate(15);
    await service.from('conversations').insert([
      { started_at: lastMonth.toISOString(), last_message_at: lastMonth.toISOString() },
      { started_at: lastMonth.toISOString(), last_message_at: lastMonth.toISOString() },
    ]);

    await page.goto(`${DASHBOARD_PATH}?tab=knowledge`);
    const counters = page.getByRole('region', { name: text('de', 'admin:stats.heading') });
    const card = (label: string) =>
      counters.locator('div', { has: page.getByRole('heading', { name: text('de', `admin:stats.${label}`) }) }).last();
    await expect(card('averageRating')).toContainText('–');
    await expect(card('averageRating')).toContainText(text('de', 'admin:stats.noRatingNote'));

    const stats = async () => (await service.rpc('admin_stats')).data as { documentsProcessed: number; conversationGrowth: number | null; activeConversations: number };
    const before = await stats();
    await expect(card('documentsProcessed')).toContainText(String(before.documentsProcessed));
    const growth = before.conversationGrowth ?? 0;
    const growthText = text('de', growth > 0 ? 'admin:stats.growthUp' : growth < 0 ? 'admin:stats.growthDown' : 'admin:stats.growthFlat', {
      percent: new Intl.NumberFormat('de-DE', { maximumFractionDigits: 1 }).format(Math.abs(growth)),
    });
    await expect(card('activeConversations')).toContainText(growthText);

    // A document completes: the counter moves without a reload.
    const name = `zaehler-${testInfo.testId.slice(0, 8)}.pdf`;
    await uploadPdfs(page, [{ name, bytes: fixtureBytes().knowledge }]);
    await expect(documentRow(page, name)).toHaveAttribute('data-status', 'COMPLETED', { timeout: 20_000 });
    await expect(card('documentsProcessed')).toContainText(String(before.documentsProcessed + 1));

    // A visitor's conversation and rating (through the coach function, as the coach page sends them).
    const chat = await fetch(`${functions}/coach/chat/completions`, {
      method: 'POST',
      headers: anonHeaders,
      body: JSON.stringify({ model: 'x', messages: [{ role: 'user', content: 'Hallo!' }] }),
    });
    await chat.text();
    const conversationId = chat.headers.get('x-conversation-id') ?? '';
    const rated = await fetch(`${functions}/coach/rating`, { method: 'POST', headers: anonHeaders, body: JSON.stringify({ conversationId, rating: 4 }) });
    expect(rated.status).toBe(204);
    await page.reload();
    await expect(card('averageRating')).toContainText('4,0 / 5,0');
    const after = await stats();
    await expect(card('activeConversations')).toContainText(String(after.activeConversations));
  });

  test('semantic search: off without a key; with it an upload is embedded by itself, and "Einbettungen erstellen" embeds what waits', async ({ page, service }, testInfo) => {
    const section = page.getByRole('region', { name: text('de', 'admin:semantic.heading') });
    const status = page.getByTestId('semantic-status');
    await fetch(`${controlUrl}/env`, { method: 'POST', body: JSON.stringify({ unset: ['OPENAI_API_KEY'] }) });
    await page.goto(`${DASHBOARD_PATH}?tab=settings`);
    await expect(status).toHaveText(text('de', 'admin:semantic.off'));
    await expect(section.getByRole('button')).toHaveCount(0);

    // Processed while there was no key: its passages wait for their embedding.
    const waiting = `ohne-schluessel-${testInfo.testId.slice(0, 8)}.pdf`;
    await page.goto(`${DASHBOARD_PATH}?tab=knowledge`);
    await uploadPdfs(page, [{ name: waiting, bytes: fixtureBytes().knowledge }]);
    await expect(documentRow(page, waiting)).toHaveAttribute('data-status', 'COMPLETED', { timeout: 20_000 });
    const pending = async () => (await service.from('document_chunks').select('id', { count: 'exact', head: true }).is('embedding', null)).count ?? 0;
    await expect.poll(pending).toBeGreaterThan(0);

    await fetch(`${controlUrl}/env/reset`, { method: 'POST' });
    await page.goto(`${DASHBOARD_PATH}?tab=settings`);
    await expect(status).toHaveText(new RegExp(`^Aktiv: ${String(await pending())} Abschnitte? warte`));
    await section.screenshot({ path: testInfo.outputPath('semantic-search.png') });
    await section.getByRole('button', { name: text('de', 'admin:semantic.embed') }).click();
    await expect(section.getByRole('status')).toHaveText(/^\d+ Abschnitte? eingebettet\.$/);
    await expect(status).toHaveText(text('de', 'admin:semantic.ready'));
    expect(await pending()).toBe(0);

    // With the key, an upload is embedded right after its processing.
    const embedded = `mit-schluessel-${testInfo.testId.slice(0, 8)}.pdf`;
    await page.goto(`${DASHBOARD_PATH}?tab=knowledge`);
    await uploadPdfs(page, [{ name: embedded, bytes: fixtureBytes().knowledge }]);
    await expect(documentRow(page, embedded)).toHaveAttribute('data-status', 'COMPLETED', { timeout: 20_000 });
    await expect.poll(pending).toBe(0);
    await removeDocuments(service, [waiting, embedded]);
  });

  test('a daily cap at 80 % and reached: the dashboard warns with what was spent and by how many clients', async ({ page, service }, testInfo) => {
    // Today's transcribed seconds so far (this lane's earlier tests), and a cap 100 s above them.
    const { data: usage } = await service.rpc('usage_today');
    const spent = (usage as { sttSeconds?: number } | null)?.sttSeconds ?? 0;
    const cap = String(spent + 100);
    await fetch(`${controlUrl}/env`, {
      method: 'POST',
      body: JSON.stringify({ set: { SPEND_CAP_STT_SECONDS: cap, CLIENT_BUDGET_STT_SECONDS: cap, NETWORK_BUDGET_STT_SECONDS: cap } }),
    });
    const segment = encodeWav(new Float32Array(16_000 * 45), 16_000);
    const transcribe = () =>
      fetch(`${functions}/stt`, { method: 'POST', headers: { ...anonHeaders, 'content-type': 'audio/wav' }, body: segment }).then((response) => response.status);
    const alert = page.locator('[data-cap-alert="sttSeconds"]');
    try {
      expect(await transcribe()).toBe(200);
      expect(await transcribe()).toBe(200);
      // 90 of 100 s: the warning, with what was spent and by how many clients.
      await page.goto(DASHBOARD_PATH);
      await expect(alert).toHaveAttribute('data-level', '80');
      await expect(alert).toHaveAttribute('role', 'status');
      await expect(alert).toContainText(/Spracherkennung-Sekunden: \d+ % des Tageslimits verbraucht/);
      await expect(alert).toContainText(/verbraucht, von einem Client\./);
      await page.screenshot({ path: testInfo.outputPath('cap-80-1280.png') });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: testInfo.outputPath('cap-80-390.png'), fullPage: true });

      // The next segment does not fit: refused, and the cap reads as reached.
      expect(await transcribe()).toBe(503);
      await page.reload();
      await expect(alert).toHaveAttribute('data-level', '100');
      await expect(alert).toHaveAttribute('role', 'alert');
      await expect(alert).toContainText('Spracherkennung-Sekunden: Tageslimit erreicht');
      await expect(alert).toContainText(text('de', 'admin:capAlerts.paused.sttSeconds'));
      await page.screenshot({ path: testInfo.outputPath('cap-100-390.png'), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.screenshot({ path: testInfo.outputPath('cap-100-1280.png') });
    } finally {
      // The day's alerts stay in this lane's database; later tests start without them.
      await service.from('spend_alerts').delete().eq('kind', 'stt_seconds');
    }
  });
});
