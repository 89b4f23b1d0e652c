/**
 * The daily spend cap as visitor and admin see it: once the cap is reached the coach answers that
 * the live test is paused for today (without asking the model), and the dashboard shows today's
 * usage against each cap. Serial: it changes the functions' environment and today's spend.
 */
import { LOCAL_SERVICE_ROLE_KEY } from '../../supabase/local/config';
import { DASHBOARD_PATH, expect, test, text } from './admin';
import { lastAssistant, modelRequests, openCoach, textInput } from './coach';
import { controlUrl, stackUrl } from './env';

const PAUSED = 'Der Live-Test ist für heute pausiert. Bitte versuche es morgen wieder.';

async function setEnv(set: Record<string, string>) {
  await fetch(`${controlUrl}/env`, { method: 'POST', body: JSON.stringify({ set }) });
}

/** Adds to today's spend as the functions do (service role). */
async function spend(kind: 'model_tokens' | 'tts_characters' | 'stt_seconds', amount: number) {
  const response = await fetch(`${stackUrl}/rest/v1/rpc/record_spend`, {
    method: 'POST',
    headers: { apikey: LOCAL_SERVICE_ROLE_KEY, authorization: `Bearer ${LOCAL_SERVICE_ROLE_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ p_kind: kind, p_amount: amount }),
  });
  expect(response.ok).toBe(true);
  return (await response.json()) as number;
}

/**
 * Visitors' requests still under way hold reservations in today's spend until they settle
 * (security.md): each as "kind amount since". The admins' embeddings (a cap of their own, not
 * read below) are left out.
 */
async function openReservations(): Promise<string[]> {
  const response = await fetch(`${stackUrl}/rest/v1/spend_reservations?select=kind,amount,created_at&kind=neq.embedding_tokens`, {
    headers: { apikey: LOCAL_SERVICE_ROLE_KEY, authorization: `Bearer ${LOCAL_SERVICE_ROLE_KEY}` },
  });
  expect(response.ok).toBe(true);
  return ((await response.json()) as { kind: string; amount: number; created_at: string }[]).map((row) => `${row.kind} ${String(row.amount)} since ${row.created_at}`);
}

test.describe('daily spend cap', () => {
  test.afterEach(async () => {
    await fetch(`${controlUrl}/env/reset`, { method: 'POST' });
  });

  test('the coach says in German that the live test is paused for today, and the model is not asked', async ({ page }) => {
    const spent = await spend('model_tokens', 1);
    await setEnv({ SPEND_CAP_MODEL_TOKENS: String(spent) });
    await openCoach(page);
    const before = (await modelRequests()).length;
    await textInput(page).fill('Was hilft gegen Stress?');
    await textInput(page).press('Enter');
    await expect(lastAssistant(page)).toHaveText(PAUSED, { timeout: 10_000 });
    expect((await modelRequests()).length).toBe(before);
  });

  test("the dashboard shows today's usage against each cap", async ({ page, loginAsAdmin }) => {
    // A greeting an earlier test's page asked for may still be read to its end (for the cache) and
    // then settle, lowering today's spend: the totals below are read once everything has settled,
    // which on a busy machine can take a while.
    test.setTimeout(90_000);
    await expect.poll(openReservations, { timeout: 60_000 }).toEqual([]);
    const tokens = await spend('model_tokens', 5);
    const characters = await spend('tts_characters', 1);
    // The speech-to-text tests before this one spent some seconds today already.
    const seconds = await spend('stt_seconds', 0);
    await setEnv({ SPEND_CAP_MODEL_TOKENS: '1234567', SPEND_CAP_TTS_CHARACTERS: String(characters), SPEND_CAP_STT_SECONDS: '3600' });
    await loginAsAdmin(page);
    await page.goto(`${DASHBOARD_PATH}?tab=settings`);
    const section = page.getByRole('region', { name: text('de', 'admin:usage.heading') });
    const de = (value: number) => value.toLocaleString('de-DE');
    await expect(section.locator('[data-usage="modelTokens"]')).toContainText(`${de(tokens)} / 1.234.567`);
    await expect(section.locator('[data-usage="ttsCharacters"]')).toContainText(`${de(characters)} / ${de(characters)}`);
    await expect(section.locator('[data-usage="ttsCharacters"]')).toContainText(text('de', 'admin:usage.reached'));
    await expect(section.locator('[data-usage="sttSeconds"]')).toContainText(`${de(seconds)} / 3.600`);
    await page.screenshot({ path: 'test-results/usage-dashboard.png', fullPage: true });
  });
});
