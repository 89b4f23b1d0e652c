/**
 * Hands-free with a (fake) microphone that hears only silence, in real Chromium: a whole round
 * without a click, the coach's own voice never interrupting it, and the microphone given back.
 */
import { silentWav } from '../fixtures/audio/fakeMicrophone';
import {
  audioEvents,
  expectState,
  handsFreeOn,
  lastAssistant,
  microphoneStreams,
  openCoach,
  persona,
  speech,
  watchAudio,
  watchMicrophone,
  withMicrophone,
} from './coach';
import { expect, test } from './fixtures';

test.use(withMicrophone(silentWav()));

/** The greeting takes several seconds to say; an answer of three sentences too. */
const spoken = { timeout: 20_000 };

test('a whole round without a click: greeting, listening by itself, answer, listening again; the coach’s own voice never interrupts it', async ({
  page,
}) => {
  await handsFreeOn(page);
  await watchAudio(page);
  await watchMicrophone(page);
  await openCoach(page);
  await expect(page.getByRole('switch', { name: 'Freihändig sprechen' })).toHaveAttribute('aria-checked', 'true');
  await expectState(page, 'listening', spoken);
  expect(await microphoneStreams(page)).toContain('live');
  await speech(page).final('Was hilft mir bei Stress?');
  await expectState(page, 'speaking', { timeout: 10_000 });
  await expectState(page, 'listening', spoken);
  await expect(lastAssistant(page)).not.toHaveText('');
  const events = await audioEvents(page);
  expect(events).toContain('ended');
  expect(events).not.toContain('stop');
  expect(events).not.toContain('hold');
  expect(await speech(page).instances()).toHaveLength(2);
});

test('the microphone is given back when the conversation ends and when the visitor leaves the page', async ({ page }) => {
  await handsFreeOn(page);
  await watchMicrophone(page);
  await openCoach(page);
  await expectState(page, 'listening', spoken);
  await speech(page).final('Hallo Mia');
  await page.getByRole('button', { name: 'Gespräch beenden' }).click();
  await expect.poll(() => microphoneStreams(page)).toEqual(['ended']);

  // A new conversation opens it again; leaving the page (client-side navigation) gives it back.
  const input = page.getByRole('textbox', { name: `Nachricht an ${persona.name}` });
  await input.fill('Noch eine Frage');
  await input.press('Enter');
  await expect.poll(() => microphoneStreams(page), spoken).toEqual(['ended', 'live']);
  await page.getByRole('banner').getByRole('link', { name: 'AI Hotlines' }).click();
  await expect(page).toHaveURL(/ai-hotlines/);
  await expect.poll(() => microphoneStreams(page)).toEqual(['ended', 'ended']);
});
