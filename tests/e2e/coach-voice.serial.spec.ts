/**
 * The live coach's voice in a room, in real Chromium, hands-free: the microphone is the browser's
 * fake device (silence) with the room mixed in by tests/fixtures/audio/fakeRoom.ts: the visitor's
 * German speech (espeak-ng) when a test says so, and the coach's own output coming back 40 ms late
 * at a chosen level. Everything of the page is real: the stream to the stt-stream function (and the
 * fake transcriber), the echo decision, the coach. Each test is one conversation that shows
 * several things, because each conversation waits for the coach to speak at speaking pace.
 *
 * A serial spec (`*.serial.spec.ts`: one at a time, on a server of their own or after the other
 * specs): the recogniser-path test empties the greeting cache, which the specs on a server share.
 */
import type { Page } from '@playwright/test';
import { clearTtsCache } from '../../supabase/functions/_shared/ttsCache';
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
  stopsWhilePlaying,
  untilAudio,
  watchAudio,
  watchMicrophone,
  watchUploads,
  withMicrophone,
} from './coach';
import { test as adminTest } from './admin';
import { fakeElevenLabsUrl } from './env';
import { expect, test } from './fixtures';

test.use(withMicrophone(silentWav()));
// Real time: the greeting and an answer are said at speaking pace, a quiet spell lasts eight seconds.
test.setTimeout(60_000);

/** Spoken without a pause long enough to be cut in two; the fake provider "hears" the sentence below. */
const question = utteranceWav('question', 'Ich bin gestresst was kann ich tun');
const heard = 'Ich bin gestresst, was kann ich tun?';
const spoken = voicedSpan(question);
const spokenSeconds = spoken.to - spoken.from;
/** The streams the fake transcriber (Scribe v2 Realtime) has served, in order. */
const streams = async () => (await (await fetch(`${fakeElevenLabsUrl}/__streams`)).json()) as { audioSeconds: number; commits: number }[];
/** Long enough for the voice detector to be sure (250 ms), short enough to be over soon. */
const interruption = utteranceWav('interruption', 'Moment bitte');
/** The greeting or an answer takes some seconds to say; a quiet spell eight. */
const long = { timeout: 20_000 };

/** Opens the coach hands-free in the room; the first click starts the greeting. */
async function enterRoom(page: Page, room: RoomOptions, { recogniser }: { recogniser: boolean }) {
  await handsFreeOn(page);
  await watchAudio(page);
  await watchMicrophone(page);
  await installRoom(page, room);
  await openCoach(page, { supported: recogniser });
}

test('streamed path (no recogniser), the coach’s echo at 0 dB: greeting and answer play through, silence pauses visibly, the voice resumes, only speech is streamed', async ({
  page,
}) => {
  const uploads = watchUploads(page);
  const streamsBefore = (await streams()).length;
  await enterRoom(page, { echoDb: 0, voices: [question] }, { recogniser: false });

  // The greeting, heard back as loud as it was played, neither holds nor interrupts the coach, and
  // it listens by itself afterwards.
  await expectState(page, 'listening', long);
  expect(await audioEvents(page)).toContain('ended');

  // Eight seconds without a word: listening pauses, visibly, and the microphone stays open.
  await expectState(page, 'paused', { ...long, hint: coachTexts.hints.paused });
  expect(await microphoneStreams(page)).toEqual(['live']);

  // The visitor's voice resumes listening; the question is streamed from its onset to its end.
  await sayInRoom(page, question);
  await expectState(page, 'listening');
  await expect(messages(page).filter({ hasText: heard })).toHaveCount(1, long);
  const question1 = (await streams()).slice(streamsBefore);
  expect(question1).toHaveLength(1);
  expect(question1[0]?.commits).toBe(1);
  expect(question1[0]?.audioSeconds).toBeGreaterThanOrEqual(spokenSeconds);
  expect(question1[0]?.audioSeconds).toBeLessThanOrEqual(spokenSeconds + 0.6);

  // The answer plays through its own echo too, and the coach listens again by itself.
  await expectState(page, 'speaking', long);
  await expectState(page, 'listening', long);
  const events = await audioEvents(page);
  expect(events.filter((event) => event === 'playing').length).toBeGreaterThanOrEqual(2);
  expect(events).not.toContain('hold');
  // Never cut while it sounds. (A reply started early on the visitor's pause and replaced by one
  // for the final words, when these held one more word, is dropped unheard: a 'stop' between pieces.)
  expect(stopsWhilePlaying(events)).toBe(0);
  // Its own voice never counted as the visitor's: no other stream was opened, nothing uploaded.
  expect((await streams()).slice(streamsBefore)).toHaveLength(1);
  expect(uploads).toEqual([]);
});

adminTest('recogniser path, the coach’s echo at −9 dB: the visitor’s voice interrupts the greeting over its echo; a recogniser that stops by itself pauses listening', async ({
  page,
  service,
}) => {
  // A greeting synthesised now, so that the echo the page learns from is this greeting's, whatever
  // the other specs left in the cache.
  await clearTtsCache(service);
  await enterRoom(page, { echoDb: -9, voices: [interruption] }, { recogniser: true });
  await expectState(page, 'speaking');
  // The visitor speaks over the greeting and its echo, a second and a half into it: by then the page
  // has measured how loud the echo is (a visitor who starts within the coach's first second is heard
  // only above the worst-case echo; src/features/coach/session/echo.ts).
  await untilAudio(page, 'playing');
  await page.waitForTimeout(1_500);
  await sayInRoom(page, interruption);
  await expectState(page, 'listening');
  // Silent at the first moment of voice, then stopped in the middle of the greeting: dropped, not
  // played to its end.
  const events = await audioEvents(page);
  expect(events.indexOf('hold')).toBeGreaterThan(events.indexOf('playing'));
  expect(events.indexOf('stop')).toBeGreaterThan(events.indexOf('hold'));
  expect(events.slice(events.indexOf('stop'))).not.toContain('playing');
  expect(await speech(page).instances()).toHaveLength(1);

  // The browser's recogniser gives up without a word: hands-free pauses instead of ending.
  await speech(page).fail('no-speech');
  await expectState(page, 'paused');
  await expect(hint(page)).toHaveText(coachTexts.hints.paused);
  expect(await microphoneStreams(page)).toEqual(['live']);
});
