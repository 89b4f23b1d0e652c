/**
 * Voice input without the browser's recogniser (as in Firefox), with a (fake) microphone in real
 * Chromium: hands-free, the visitor's speech streamed from the voice onset to the `stt-stream`
 * function and on to the transcriber (the fake Scribe v2 Realtime), its partial words shown as the
 * live caption, the final words answered aloud, and listening again by itself; and a recogniser
 * whose service fails is replaced by the stream. The visitor's German speech (espeak-ng) is played
 * into the microphone when the test says so (tests/fixtures/audio/fakeRoom.ts). A click while the
 * greeting plays listens at once, so no test waits for the greeting to be said. The upload to `stt`
 * (the fallback when a stream fails) is coach-stt.serial.spec.ts's.
 */
import { silentWav, utteranceWav } from '../fixtures/audio/fakeMicrophone';
import { installRoom, sayInRoom, voicedSpan } from '../fixtures/audio/fakeRoom';
import {
  expectState,
  handsFreeOn,
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
import { fakeElevenLabsUrl } from './env';
import { expect, test } from './fixtures';

test.use(withMicrophone(silentWav()));

const question = utteranceWav('question', 'Ich bin gestresst was kann ich tun');
const spoken = voicedSpan(question);
const spokenSeconds = spoken.to - spoken.from;
/** The fake transcriber's words (tests/fixtures/fakeProviders/fakeScribe.ts). */
const heard = 'Ich bin gestresst, was kann ich tun?';

interface StreamSession {
  query: Record<string, string>;
  audioSeconds: number;
  commits: number;
}

const streams = async () => (await (await fetch(`${fakeElevenLabsUrl}/__streams`)).json()) as StreamSession[];

test('hands-free without a recogniser: streamed from the voice onset (not the silence before), the partial words live, answered aloud, listening again', async ({
  page,
}) => {
  const uploads = watchUploads(page);
  await handsFreeOn(page);
  await watchMicrophone(page);
  await installRoom(page, { echoDb: null, voices: [question] });
  await openCoach(page, { supported: false });
  await voiceButton(page).click();
  await expectState(page, 'listening');
  // A second of the microphone's silence before the visitor speaks: none of it is streamed.
  await microphoneHeard(page, 1_000);
  await sayInRoom(page, question);
  // The transcriber's partial words while the visitor speaks: the live caption.
  await expect(page.getByTestId('coach-caption')).toContainText('Ich bin', { timeout: 10_000 });
  await expect(messages(page).filter({ hasText: heard })).toHaveCount(1, { timeout: 15_000 });
  await expectState(page, 'speaking', { timeout: 15_000 });
  await expect(lastAssistant(page)).not.toHaveText('');
  // Hands-free: listening again by itself once the answer has been said, the microphone still open.
  await expectState(page, 'listening', { timeout: 30_000 });
  expect(await microphoneStreams(page)).toEqual(['live']);
  // Nothing was uploaded; the transcriber got the speech from its onset (less a short pre-roll),
  // in German, committed once (tests in parallel stream too: this one has the speech's length).
  expect(uploads).toEqual([]);
  const sent = (await streams()).filter((session) => session.audioSeconds >= spokenSeconds && session.audioSeconds <= spokenSeconds + 0.6);
  expect(sent.length).toBeGreaterThan(0);
  expect(sent[0]).toMatchObject({ query: { language_code: 'de', audio_format: 'pcm_16000' }, commits: 1 });
  await expect(notice(page)).toHaveText('');
});

// One of the service failures (the session's unit tests go through all of them).
test('a recogniser whose service fails (network) is replaced by the stream', async ({ page }) => {
  const uploads = watchUploads(page);
  await watchMicrophone(page);
  await installRoom(page, { echoDb: null, voices: [question] });
  await openCoach(page);
  await voiceButton(page).click();
  await expectState(page, 'listening');
  await speech(page).fail('network');
  await expectState(page, 'listening');
  // Streaming: the microphone is open and heard.
  await microphoneHeard(page, 20);
  await sayInRoom(page, question);
  await expect(messages(page).filter({ hasText: heard })).toHaveCount(1, { timeout: 15_000 });
  expect(uploads).toEqual([]);
});
