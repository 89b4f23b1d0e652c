/**
 * The speech-to-text path's failure modes in real Chromium with a (fake) microphone: the provider
 * fails, or hears nothing. They change the fake provider's behaviour, so they run one at a time
 * after the other tests and put it back.
 */
import { spokenWav } from '../fixtures/audio/fakeMicrophone';
import { coachTexts, expectState, notice, openCoach, voiceButton, withMicrophone } from './coach';
import { fakeOpenAIUrl } from './env';
import { expect, test } from './fixtures';

test.use(withMicrophone(spokenWav('question', 'Ich bin gestresst was kann ich tun', 1).path));

async function control(body: unknown) {
  const response = await fetch(`${fakeOpenAIUrl}/${body === null ? '__reset' : '__control'}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  expect(response.ok).toBe(true);
}

test.afterEach(async () => {
  await control(null);
});

for (const [failure, message] of [
  ['http500', coachTexts.errors.processing],
  ['empty', coachTexts.errors.noSpeech],
] as const) {
  test(`the speech-to-text provider answers ${failure}: "${message}"`, async ({ page, consoleProblems }) => {
    // The browser logs the function's refusal itself.
    consoleProblems.allow(/Failed to load resource: .*502/);
    await control({ transcriptionFailure: failure });
    await openCoach(page, { supported: false });
    // A click while the greeting plays listens at once.
    await voiceButton(page).click();
    await expectState(page, 'listening');
    await expect(notice(page)).toHaveText(message, { timeout: 15_000 });
    await expectState(page, 'ready');
  });
}
