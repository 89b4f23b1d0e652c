/**
 * Hands-free with a (fake) microphone in real Chromium: the visitor's voice stops the coach (barge-in
 * by voice). The visitor's German speech (espeak-ng) is played into the microphone once the
 * greeting is heard (tests/fixtures/audio/fakeRoom.ts). The recogniser is the injected fake
 * (headless Chromium has no speech service); the voice activity detector and everything else are
 * the real page.
 */
import { silentWav, utteranceWav } from '../fixtures/audio/fakeMicrophone';
import { installRoom, sayInRoom } from '../fixtures/audio/fakeRoom';
import { audioEvents, expectState, handsFreeOn, openCoach, speech, watchAudio, withMicrophone } from './coach';
import { expect, test } from './fixtures';

test.use(withMicrophone(silentWav()));

const interruption = utteranceWav('barge-in', 'Moment ich habe eine Frage');

test('barge-in by voice: the coach stops at once and listens', async ({ page }) => {
  await handsFreeOn(page);
  await watchAudio(page);
  await installRoom(page, { echoDb: null, voices: [interruption] });
  await openCoach(page);
  await expectState(page, 'speaking');
  await expect.poll(() => audioEvents(page)).toContain('playing');
  await sayInRoom(page, interruption);
  await expectState(page, 'listening', { timeout: 10_000 });
  const events = await audioEvents(page);
  // Silent at the first moment of voice, then stopped in the middle of the greeting: dropped, not
  // played to its end.
  expect(events.indexOf('hold')).toBeGreaterThan(events.indexOf('playing'));
  expect(events.indexOf('stop')).toBeGreaterThan(events.indexOf('hold'));
  expect(events.slice(events.indexOf('stop'))).not.toContain('playing');
  expect(await speech(page).instances()).toHaveLength(1);
});
