/**
 * The starter knowledge base as a visitor meets it after a fresh `npm start` (no language model
 * key): the coach answers a stress question from the starter documents and an unrelated question
 * with the honest reply. It changes the shared knowledge base, so it runs serially and removes
 * the starter documents again.
 */
import { NOT_IN_KNOWLEDGE } from '../../supabase/functions/coach/offline';
import { expect, test } from './admin';
import { lastAssistant, openCoach, textInput, voiceButton } from './coach';
import { controlUrl } from './env';

async function post(path: string, body: unknown = {}): Promise<unknown> {
  const response = await fetch(`${controlUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.ok).toBe(true);
  return response.json();
}

test.afterEach(async () => {
  await post('/starter/remove');
  await post('/env/reset');
});

test('the starter knowledge answers a stress question; an unrelated question gets the honest reply', async ({ page }, testInfo) => {
  expect(await post('/starter')).toEqual({ added: expect.arrayContaining(['Starterwissen – Stress im Job.pdf']) as unknown });
  await post('/env', { unset: ['OPENAI_API_KEY'] });

  await openCoach(page);
  await textInput(page).fill('Ich bin total gestresst bei der Arbeit, was kann ich tun?');
  await textInput(page).press('Enter');
  await expect(lastAssistant(page)).toContainText('hilft eine bewusste Pause von drei Minuten', { timeout: 10_000 });
  await page.getByTestId('coach-messages').screenshot({ path: testInfo.outputPath('starter-answer.png') });

  // A message can be sent again once the answer is no longer being prepared (while it is spoken, too).
  await expect(voiceButton(page)).not.toHaveAttribute('data-state', 'processing', { timeout: 10_000 });
  await textInput(page).fill('Was ist die Hauptstadt von Australien?');
  await textInput(page).press('Enter');
  await expect(lastAssistant(page)).toContainText(NOT_IN_KNOWLEDGE, { timeout: 10_000 });
  // It names what the knowledge base covers: the starter documents are the newest.
  await expect(lastAssistant(page)).toContainText('„Starterwissen – Stress im Job“');
});
