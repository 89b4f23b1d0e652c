/**
 * The live coach's voice in a room, in real Chromium: the microphone is the browser's fake device
 * (silence) with the room mixed in by tests/fixtures/audio/fakeRoom.ts: the visitor's German speech
 * (espeak-ng) when a test says so, and the coach's own output coming back 40 ms late at a chosen
 * level. Everything of the page is real: the recording, the echo decision, the stt function (with
 * the fake provider's 300 ms), the coach.
 */
import type { Page, Request } from '@playwright/test';
import { silentWav, utteranceWav } from '../fixtures/audio/fakeMicrophone';
import { installRoom, sayInRoom, voicedSpan, type RoomOptions } from '../fixtures/audio/fakeRoom';
import {
  audioEvents,
  coachTexts,
  expectState,
  handsFreeOn,
  hint,
  messages,
  microphoneStreams,
  openCoach,
  speech,
  textInput,
  voiceButton,
  watchAudio,
  watchMicrophone,
  withMicrophone,
} from './coach';
import { expect, test } from './fixtures';

test.use(withMicrophone(silentWav()));
// Real time: a greeting and an answer are said at speaking pace, a quiet spell lasts eight seconds.
test.setTimeout(60_000);

/** Spoken without a pause long enough to be cut in two; the fake provider "hears" the sentence below. */
const question = utteranceWav('question', 'Ich bin gestresst was kann ich tun');
const heard = 'Ich bin gestresst, was kann ich tun?';
const spoken = voicedSpan(question);
const spokenSeconds = spoken.to - spoken.from;
/** A greeting or an answer takes some seconds to say; a quiet spell eight. */
const long = { timeout: 20_000 };

/** What the page sends to the stt function: type and declared length of each upload. */
function watchUploads(page: Page) {
  const uploads: { type: string | null; seconds: number }[] = [];
  page.on('request', (request: Request) => {
    if (request.method() !== 'POST' || !request.url().endsWith('/functions/v1/stt')) return;
    const headers = request.headers();
    uploads.push({ type: headers['content-type'] ?? null, seconds: Number(headers['x-audio-duration']) });
  });
  return uploads;
}

async function enterRoom(page: Page, room: RoomOptions, { handsFree = false, recogniser = false } = {}) {
  if (handsFree) await handsFreeOn(page);
  await watchAudio(page);
  await watchMicrophone(page);
  await installRoom(page, { ...room, voices: [question] });
  await openCoach(page, { supported: recogniser });
}

test('recording path: only the speech is uploaded, from its onset to its end, and the question is answered', async ({ page }) => {
  const uploads = watchUploads(page);
  await enterRoom(page, { echoDb: null });
  await expectState(page, 'ready', long);
  await voiceButton(page).click();
  await expectState(page, 'listening');
  await expect.poll(() => microphoneStreams(page)).toEqual(['live']);
  // Two seconds of silence before the visitor speaks: none of it is uploaded.
  await page.waitForTimeout(2_000);
  await sayInRoom(page, question);
  await expect(messages(page).filter({ hasText: heard })).toHaveCount(1, long);
  expect(uploads).toHaveLength(1);
  expect(uploads[0]?.type).toBe('audio/wav');
  expect(uploads[0]?.seconds).toBeGreaterThanOrEqual(spokenSeconds);
  expect(uploads[0]?.seconds).toBeLessThanOrEqual(spokenSeconds + 0.6);
});

test('hands-free stays on through silence: listening pauses visibly, and the visitor’s voice resumes it', async ({ page }) => {
  const uploads = watchUploads(page);
  await enterRoom(page, { echoDb: null }, { handsFree: true });
  await expectState(page, 'listening', long);
  await expectState(page, 'paused', { ...long, hint: coachTexts.hints.paused });
  // Still hands-free: the microphone stays open for the visitor's voice.
  expect(await microphoneStreams(page)).toEqual(['live']);
  await sayInRoom(page, question);
  await expectState(page, 'listening');
  await expect(messages(page).filter({ hasText: heard })).toHaveCount(1, long);
  expect(uploads).toHaveLength(1);
  expect(uploads[0]?.seconds).toBeLessThanOrEqual(spokenSeconds + 0.6);
});

test('hands-free with the browser’s recogniser: one that stops by itself pauses listening; the voice starts a new one', async ({ page }) => {
  await enterRoom(page, { echoDb: null }, { handsFree: true, recogniser: true });
  await expectState(page, 'listening', long);
  await speech(page).fail('no-speech');
  await expectState(page, 'paused');
  await expect(hint(page)).toHaveText(coachTexts.hints.paused);
  await sayInRoom(page, question);
  await expectState(page, 'listening');
  await expect.poll(async () => (await speech(page).instances()).length).toBe(2);
});

test('the coach’s own echo at 0 dB: greeting and answer play through without a hold, and it listens again by itself', async ({ page }) => {
  const uploads = watchUploads(page);
  await enterRoom(page, { echoDb: 0 }, { handsFree: true });
  await expectState(page, 'listening', long);
  expect(await audioEvents(page)).toContain('ended');
  await textInput(page).fill('Was hilft bei Stress?');
  await textInput(page).press('Enter');
  await expectState(page, 'speaking', long);
  await expectState(page, 'listening', long);
  const events = await audioEvents(page);
  expect(events.filter((event) => event === 'playing').length).toBeGreaterThanOrEqual(2);
  expect(events).not.toContain('hold');
  expect(events).not.toContain('stop');
  // Its own voice never counted as the visitor's: nothing was uploaded.
  expect(uploads).toEqual([]);
});

test('the coach’s own echo at −9 dB: the visitor still interrupts it, and only the visitor’s speech is uploaded', async ({ page }) => {
  const uploads = watchUploads(page);
  await enterRoom(page, { echoDb: -9 }, { handsFree: true });
  await expectState(page, 'listening', long);
  await textInput(page).fill('Erzähl mir etwas über Stress.');
  await textInput(page).press('Enter');
  await expectState(page, 'speaking', long);
  const before = (await audioEvents(page)).length;
  await sayInRoom(page, question);
  await expectState(page, 'listening');
  expect((await audioEvents(page)).slice(before)).toContain('stop');
  await expect(messages(page).filter({ hasText: heard })).toHaveCount(1, long);
  expect(uploads).toHaveLength(1);
  expect(uploads[0]?.seconds).toBeLessThanOrEqual(spokenSeconds + 0.6);
});
