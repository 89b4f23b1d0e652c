/**
 * Voice input without the browser's recogniser (as in Firefox), with a (fake) microphone in real
 * Chromium: recorded, ended by the voice detector, transcribed by the stt function (the fake
 * provider), answered; and a recogniser whose service fails is replaced by recording. Chromium
 * plays a WAV of German speech made by espeak-ng, starting 1 s after the microphone opens, spoken
 * without a pause long enough to be sent in two segments (the fake provider hears one sentence).
 */
import { spokenWav } from '../fixtures/audio/fakeMicrophone';
import {
  coachPath,
  expectState,
  installFakeRecognition,
  lastAssistant,
  messages,
  microphoneStreams,
  notice,
  openCoach,
  speech,
  voiceButton,
  watchMicrophone,
  withMicrophone,
} from './coach';
import { fakeOpenAIUrl } from './env';
import { expect, test } from './fixtures';

test.use(withMicrophone(spokenWav('question', 'Ich bin gestresst was kann ich tun', 1).path));

const spoken = { timeout: 20_000 };
/** The fake provider's transcript (tests/fixtures/fakeProviders/fakeTranscription.ts). */
const heard = 'Ich bin gestresst, was kann ich tun?';

interface Transcription {
  model: string | null;
  language: string | null;
  fileType: string | null;
  fileBytes: number;
}

const transcriptions = async () => (await (await fetch(`${fakeOpenAIUrl}/__transcriptions`)).json()) as Transcription[];

test('recorded, ended by the voice detector, transcribed by the stt function, answered', async ({ page }) => {
  await watchMicrophone(page);
  await openCoach(page, { supported: false });
  await expectState(page, 'ready', spoken);
  await voiceButton(page).click();
  await expectState(page, 'listening');
  // The transcript arrives once the visitor has stopped speaking.
  await expect(messages(page).filter({ hasText: heard })).toHaveCount(1, { timeout: 15_000 });
  await expect(lastAssistant(page)).not.toHaveText('', { timeout: 10_000 });
  const sent = (await transcriptions()).at(-1);
  expect(sent).toMatchObject({ model: 'gpt-4o-mini-transcribe', language: 'de' });
  expect(sent?.fileType).toBe('audio/wav');
  expect(sent?.fileBytes).toBeGreaterThan(1_000);
  // Open only while recording.
  await expect.poll(() => microphoneStreams(page)).toEqual(['ended']);
  await expect(notice(page)).toHaveText('');
});

for (const code of ['network', 'service-not-allowed']) {
  test(`a recogniser whose service fails (${code}) is replaced by recording`, async ({ page }) => {
    await installFakeRecognition(page);
    await page.goto(coachPath);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    await voiceButton(page).click();
    await expectState(page, 'ready', spoken);
    await voiceButton(page).click();
    await expectState(page, 'listening');
    await speech(page).fail(code);
    await expectState(page, 'listening');
    await expect(messages(page).filter({ hasText: heard })).toHaveCount(1, { timeout: 15_000 });
  });
}
