/**
 * Hands-free with a (fake) microphone in real Chromium: the visitor's voice stops the coach (barge-in
 * by voice). Chromium plays a WAV of German speech made by espeak-ng (tests/fixtures/audio) into the
 * microphone, starting 2 s after the microphone opens (with the first click), while Mia still
 * greets. The recogniser is the injected fake (headless Chromium has no speech service); the voice
 * activity detector and everything else are the real page.
 */
import { spokenWav } from '../fixtures/audio/fakeMicrophone';
import { audioEvents, expectState, handsFreeOn, openCoach, speech, watchAudio, withMicrophone } from './coach';
import { expect, test } from './fixtures';

test.use(withMicrophone(spokenWav('barge-in', 'Moment, ich habe eine Frage.', 2).path));

test('barge-in by voice: the coach stops at once and listens', async ({ page }) => {
  await handsFreeOn(page);
  await watchAudio(page);
  await openCoach(page);
  await expectState(page, 'speaking');
  await expect.poll(() => audioEvents(page)).toContain('playing');
  await expectState(page, 'listening', { timeout: 10_000 });
  const events = await audioEvents(page);
  // Silent at the first tenth of a second of voice, then stopped in the middle of the greeting:
  // dropped, not played to its end.
  expect(events.indexOf('hold')).toBeGreaterThan(events.indexOf('playing'));
  expect(events.indexOf('stop')).toBeGreaterThan(events.indexOf('hold'));
  expect(events.slice(events.indexOf('stop'))).not.toContain('playing');
  expect(await speech(page).instances()).toHaveLength(1);
});
