/**
 * The speech-to-text paths' failure modes in real Chromium with a (fake) microphone: the streaming
 * transcriber fails, and the turn is uploaded to the `stt` function instead; the uploaded
 * transcription fails too, or hears nothing. They change the fake providers' behaviour, so they
 * run one at a time after the other tests and put it back.
 */
import { spokenWav } from '../fixtures/audio/fakeMicrophone';
import { coachTexts, expectState, lastAssistant, messages, notice, openCoach, voiceButton, watchUploads, withMicrophone } from './coach';
import { fakeElevenLabsUrl, fakeOpenAIUrl } from './env';
import { expect, test } from './fixtures';

test.use(withMicrophone(spokenWav('question', 'Ich bin gestresst was kann ich tun', 1).path));

async function control(fake: string, body: unknown) {
  const response = await fetch(`${fake}/${body === null ? '__reset' : '__control'}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  expect(response.ok).toBe(true);
}

test.beforeEach(async () => {
  // The streaming transcriber fails as a session starts: the page uploads the turn instead.
  await control(fakeElevenLabsUrl, { streamFailure: 'transcriber_error' });
});

test.afterEach(async () => {
  await control(fakeOpenAIUrl, null);
  await control(fakeElevenLabsUrl, null);
});

test('the streaming transcriber fails: the turn is uploaded to the stt function and answered', async ({ page }) => {
  const uploads = watchUploads(page);
  await openCoach(page, { supported: false });
  await voiceButton(page).click();
  await expectState(page, 'listening');
  await expect(messages(page).filter({ hasText: 'Ich bin gestresst, was kann ich tun?' })).toHaveCount(1, { timeout: 15_000 });
  await expect(lastAssistant(page)).not.toHaveText('', { timeout: 10_000 });
  expect(uploads.length).toBeGreaterThan(0);
  expect(uploads.every((upload) => upload.type === 'audio/wav')).toBe(true);
  await expect(notice(page)).toHaveText('');
});

for (const [failure, message] of [
  ['http500', coachTexts.errors.processing],
  ['empty', coachTexts.errors.noSpeech],
] as const) {
  test(`the stream fails and the uploaded transcription answers ${failure}: "${message}"`, async ({ page, consoleProblems }) => {
    // The browser logs the function's refusal itself.
    consoleProblems.allow(/Failed to load resource: .*502/);
    await control(fakeOpenAIUrl, { transcriptionFailure: failure });
    await openCoach(page, { supported: false });
    // A click while the greeting plays listens at once.
    await voiceButton(page).click();
    await expectState(page, 'listening');
    await expect(notice(page)).toHaveText(message, { timeout: 15_000 });
    await expectState(page, 'ready');
  });
}
