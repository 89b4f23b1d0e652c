import type { Page } from '@playwright/test';
import { DASHBOARD_PATH, adminFailure, expect, test, text } from './admin';
import { fakeElevenLabsUrl } from './env';

const defaults = { stability: 0.25, similarity_boost: 0.75, style: 0.45, use_speaker_boost: true, pitch: 1, speed: 1 };

/** The dashboard with the saved settings loaded (the controls stay disabled until then). */
async function openVoiceTab(page: Page) {
  await page.goto(DASHBOARD_PATH);
  await expect(page.getByRole('button', { name: text('de', 'admin:voice.save') })).toBeEnabled();
}

const slider = (page: Page, key: 'stability' | 'similarity' | 'style' | 'speed' | 'pitch') =>
  page.getByRole('slider', { name: text('de', `admin:voice.${key}`) });

test.describe('voice settings', () => {
  test.beforeEach(async ({ service, loginAsAdmin, page }) => {
    const { error } = await service.from('voice_configs').update(defaults).eq('is_active', true);
    expect(error).toBeNull();
    await fetch(`${fakeElevenLabsUrl}/__reset`, { method: 'POST' });
    await loginAsAdmin(page);
  });

  test.afterAll(async ({ service }) => {
    await service.from('voice_configs').update(defaults).eq('is_active', true);
  });

  test('the sliders load the active configuration and keep the seed bounds and steps by keyboard', async ({ page, service }) => {
    await service.from('voice_configs').update({ stability: 0.33, pitch: 1.3 }).eq('is_active', true);
    await openVoiceTab(page);
    await expect(page.getByRole('tab', { name: 'Spracheinstellungen' })).toHaveAttribute('aria-selected', 'true');

    const stability = slider(page, 'stability');
    await expect(stability).toHaveAttribute('aria-valuenow', '0.33');
    await expect(stability).toHaveAttribute('aria-valuetext', '0,33');
    await expect(slider(page, 'pitch')).toHaveAttribute('aria-valuenow', '1.3');

    for (const key of ['stability', 'similarity', 'style'] as const) {
      const thumb = slider(page, key);
      await expect(thumb).toHaveAttribute('aria-valuemin', '0');
      await expect(thumb).toHaveAttribute('aria-valuemax', '1');
      await thumb.focus();
      await page.keyboard.press('Home');
      await expect(thumb).toHaveAttribute('aria-valuenow', '0');
      await page.keyboard.press('ArrowRight');
      await expect(thumb).toHaveAttribute('aria-valuenow', '0.01');
      await page.keyboard.press('End');
      await expect(thumb).toHaveAttribute('aria-valuenow', '1');
      await page.keyboard.press('ArrowRight');
      await expect(thumb).toHaveAttribute('aria-valuenow', '1');
    }
    for (const key of ['speed', 'pitch'] as const) {
      const thumb = slider(page, key);
      await expect(thumb).toHaveAttribute('aria-valuemin', '0.5');
      await expect(thumb).toHaveAttribute('aria-valuemax', '2');
      await thumb.focus();
      await page.keyboard.press('Home');
      await expect(thumb).toHaveAttribute('aria-valuenow', '0.5');
      await page.keyboard.press('ArrowRight');
      await expect(thumb).toHaveAttribute('aria-valuenow', '0.6');
      await expect(thumb).toHaveAttribute('aria-valuetext', '0,6');
      await page.keyboard.press('End');
      await expect(thumb).toHaveAttribute('aria-valuenow', '2');
    }
    // Each value is shown next to its label.
    await expect(page.getByText('2,0', { exact: true })).toHaveCount(2);
  });

  test('saving stores the values, a reload shows them, and "Standardwerte" restores the defaults without saving', async ({ page, service }) => {
    await openVoiceTab(page);
    const stability = slider(page, 'stability');
    await expect(stability).toHaveAttribute('aria-valuenow', '0.25');
    await stability.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const speed = slider(page, 'speed');
    await speed.focus();
    await page.keyboard.press('ArrowLeft');
    await page.getByRole('switch', { name: text('de', 'admin:voice.speakerBoost') }).click();

    await page.getByRole('button', { name: text('de', 'admin:voice.save') }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Einstellungen erfolgreich gespeichert' })).toBeVisible();
    const { data } = await service.from('voice_configs').select('stability, speed, use_speaker_boost').eq('is_active', true).single();
    expect(data).toEqual({ stability: 0.27, speed: 0.9, use_speaker_boost: false });

    await page.reload();
    await expect(page.getByRole('button', { name: text('de', 'admin:voice.save') })).toBeEnabled();
    await expect(slider(page, 'stability')).toHaveAttribute('aria-valuenow', '0.27');
    await expect(slider(page, 'speed')).toHaveAttribute('aria-valuenow', '0.9');
    await expect(page.getByRole('switch', { name: text('de', 'admin:voice.speakerBoost') })).toHaveAttribute('aria-checked', 'false');

    await page.getByRole('button', { name: 'Standardwerte' }).click();
    await expect(slider(page, 'stability')).toHaveAttribute('aria-valuenow', '0.25');
    await expect(slider(page, 'speed')).toHaveAttribute('aria-valuenow', '1');
    await expect(page.getByRole('switch', { name: text('de', 'admin:voice.speakerBoost') })).toHaveAttribute('aria-checked', 'true');
    // Not saved: the database and a reload still have the saved values.
    await page.reload();
    await expect(page.getByRole('button', { name: text('de', 'admin:voice.save') })).toBeEnabled();
    await expect(slider(page, 'stability')).toHaveAttribute('aria-valuenow', '0.27');
  });

  test('a save that does not reach the database shows the failure notice and keeps the values', async ({ page, consoleProblems }) => {
    consoleProblems.allow(/Failed to load resource: net::ERR_INTERNET_DISCONNECTED/);
    consoleProblems.allow(adminFailure('voice settings not saved'));
    await openVoiceTab(page);
    const stability = slider(page, 'stability');
    await expect(stability).toHaveAttribute('aria-valuenow', '0.25');
    await stability.focus();
    await page.keyboard.press('End');
    // The connection drops just for the save.
    await page.route('**/rest/v1/voice_configs**', (route) =>
      route.request().method() === 'PATCH' ? route.abort('internetdisconnected') : route.continue(),
    );
    await page.getByRole('button', { name: text('de', 'admin:voice.save') }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Fehler beim Speichern der Einstellungen' })).toBeVisible();
    await expect(stability).toHaveAttribute('aria-valuenow', '1');
  });

  test('"Probehören" plays a sample with the unsaved values through the tts function', async ({ page, service }) => {
    await openVoiceTab(page);
    const pitch = slider(page, 'pitch');
    await expect(pitch).toHaveAttribute('aria-valuenow', '1');
    await slider(page, 'style').focus();
    await page.keyboard.press('Home');
    await pitch.focus();
    await page.keyboard.press('ArrowRight');

    const played = page.waitForResponse(
      (response) => response.url().includes('/functions/v1/tts') && response.request().method() === 'POST' && response.status() === 200,
    );
    await page.getByRole('button', { name: 'Probehören' }).click();
    const response = await played;
    expect(response.headers()['content-type']).toContain('audio/pcm');
    expect(response.headers()['x-pitch']).toBe('1.1');
    await expect(page.getByRole('button', { name: 'Probehören' })).toBeEnabled({ timeout: 15_000 });
    await expect(page.getByRole('alert')).toHaveCount(0);

    const requests = (await (await fetch(`${fakeElevenLabsUrl}/__requests`)).json()) as { body: { text: string; voice_settings: { style: number } } }[];
    const sample = requests.at(-1);
    expect(sample?.body.text).toBe(text('de', 'admin:voice.previewSentence'));
    expect(sample?.body.voice_settings.style).toBe(0);
    // Tried, not saved.
    const { data } = await service.from('voice_configs').select('style, pitch').eq('is_active', true).single();
    expect(data).toEqual({ style: 0.45, pitch: 1 });
  });
});
