/**
 * Voice input without the browser's recogniser (as in Firefox), with a (fake) microphone in real
 * Chromium: recorded from the voice onset, ended by the voice detector, transcribed by the stt
 * function (the fake provider), answered; and a recogniser whose service fails is replaced by
 * recording. The visitor's German speech (espeak-ng) is played into the microphone when the test
 * says so (tests/fixtures/audio/fakeRoom.ts), spoken without a pause long enough to be sent in two
 * segments (the fake provider hears one sentence). A click while the greeting plays listens at
 * once, so no test waits for the greeting to be said.
 */
import { silentWav, utteranceWav } from '../fixtures/audio/fakeMicrophone';
import { installRoom, sayInRoom, voicedSpan } from '../fixtures/audio/fakeRoom';
import {
  expectState,
  lastAssistant,
  messages,
  microphoneHeard,
  microphoneStreams,
  notice,
  openCoach,
  speech,
  voiceButton,
  watchMicrophone,
  watchUploads,
  withMicrophone,
} from './coach';
import { fakeOpenAIUrl } from './env';
import { expect, test } from './fixtures';

test.use(withMicrophone(silentWav()));

const question = utteranceWav('question', 'Ich bin gestresst was kann ich tun');
const spoken = voicedSpan(question);
const spokenSeconds = spoken.to - spoken.from;
/** The fake provider's transcript (tests/fixtures/fakeProviders/fakeTranscription.ts). */
const heard = 'Ich bin gestresst, was kann ich tun?';

interface Transcription {
  model: string | null;
  language: string | null;
  fileType: string | null;
  wavSeconds: number | null;
}

const transcriptions = async () => (await (await fetch(`${fakeOpenAIUrl}/__transcriptions`)).json()) as Transcription[];

test('recorded from the voice onset to its end (not the silence before), transcribed by the stt function, answered', async ({ page }) => {
  const uploads = watchUploads(page);
  await watchMicrophone(page);
  await installRoom(page, { echoDb: null, voices: [question] });
  await openCoach(page, { supported: false });
  await voiceButton(page).click();
  await expectState(page, 'listening');
  // A second of the microphone's silence before the visitor speaks: none of it is uploaded.
  await microphoneHeard(page, 1_000);
  await sayInRoom(page, question);
  // The transcript arrives once the visitor has stopped speaking.
  await expect(messages(page).filter({ hasText: heard })).toHaveCount(1, { timeout: 15_000 });
  await expect(lastAssistant(page)).not.toHaveText('', { timeout: 10_000 });
  // Only the speech: from its onset (less a short pre-roll) to its end, one upload, as WAV.
  expect(uploads.map((upload) => upload.type)).toEqual(['audio/wav']);
  expect(uploads[0]?.seconds).toBeGreaterThanOrEqual(spokenSeconds);
  expect(uploads[0]?.seconds).toBeLessThanOrEqual(spokenSeconds + 0.6);
  // What reached the provider (tests in parallel send theirs too: this one has the upload's length).
  const sent = (await transcriptions()).find((entry) => entry.wavSeconds === uploads[0]?.seconds);
  expect(sent).toMatchObject({ model: 'gpt-4o-mini-transcribe', language: 'de', fileType: 'audio/wav' });
  // Open only while recording.
  await expect.poll(() => microphoneStreams(page)).toEqual(['ended']);
  await expect(notice(page)).toHaveText('');
});

// One of the service failures (the session's unit tests go through all of them).
test('a recogniser whose service fails (network) is replaced by recording', async ({ page }) => {
  await watchMicrophone(page);
  await installRoom(page, { echoDb: null, voices: [question] });
  await openCoach(page);
  await voiceButton(page).click();
  await expectState(page, 'listening');
  await speech(page).fail('network');
  await expectState(page, 'listening');
  // Recording: the microphone is open and heard.
  await microphoneHeard(page, 20);
  await sayInRoom(page, question);
  await expect(messages(page).filter({ hasText: heard })).toHaveCount(1, { timeout: 15_000 });
});
