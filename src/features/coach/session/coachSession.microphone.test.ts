/**
 * The coach session's transitions without React, with the microphone: hands-free, listening by
 * recording, a long quiet spell. The browser's parts are fakes (a microphone fed with synthetic
 * frames, a recogniser, a speech queue the test plays out, a coach call it streams), the session and
 * its state machines are real.
 */
import { describe, expect, it, vi } from 'vitest';
import { SpeechRecognitionError } from '../../../services/speechRecognition';
import { concat, echoOf, frames, mix, quiet, voice } from '../../../../tests/support/browser/signals';
import { coachTexts } from '../texts';
import { coachSessionUnderTest } from '../../../../tests/support/browser/coachSessionUnderTest';

const { t, status, hint, notice, entries, greeted, greetedWithFakeTimers, answer } = coachSessionUnderTest();

describe('hands-free', () => {
  beforeEach(() => {
    t.world.handsFree.set('on');
  });

  const speak = (seconds: number) => t.world.microphone.frames(frames(concat(voice(seconds, 0.05), quiet(0.9))));

  /** Greeted, asked by voice, and the coach's answer has started to sound. */
  async function answerSounding() {
    await greeted();
    t.world.latestRecognition().final('Erzähl mir was.');
    await vi.waitFor(() => expect(t.world.calls).toHaveLength(1));
    t.world.latestCall().send('Eins. Zwei.');
    await vi.waitFor(() => expect(t.world.queues[1]?.pieces.length).toBeGreaterThan(0));
    t.world.latestQueue().start();
  }

  it('opens the microphone with the chat, listens by itself after each answer, and stops when switched off', async () => {
    t.session.click();
    await vi.waitFor(() => expect(t.world.microphone.open).toBe(true));
    await vi.waitFor(() => expect(t.world.queues).toHaveLength(1));
    t.world.latestQueue().finish();
    await vi.waitFor(() => expect(status()).toBe('listening'));
    t.world.latestRecognition().final('Was hilft bei Stress?');
    await vi.waitFor(() => expect(t.world.calls).toHaveLength(1));
    await answer('Atme.');
    await vi.waitFor(() => expect(t.world.recognitions).toHaveLength(2));
    expect(status()).toBe('listening');
    t.session.setHandsFree(false);
    expect(t.session.getSnapshot().handsFree).toBe(false);
    expect(t.world.microphone.open).toBe(false);
  });

  it('the visitor’s voice over the sounding answer: the coach is held, its speech stops and listening starts (barge-in by voice)', async () => {
    await answerSounding();
    const speaking = t.world.latestQueue();
    speak(0.8);
    expect(t.world.audio.slice(1)).toEqual(['hold']);
    expect(speaking.aborted).toBe(true);
    expect(status()).toBe('listening');
    expect(t.world.recognitions).toHaveLength(2);
  });

  /** Hands-free, the coach in the middle of its answer. */
  async function coachAnswering() {
    await answerSounding();
    expect(status()).toBe('speaking');
    return t.world.latestQueue();
  }

  it.each([0, -9])('the coach’s own echo at %s dB, 40 ms late, neither holds nor interrupts it', async (gainDb) => {
    const speaking = await coachAnswering();
    const played = concat(voice(1.3, 0.1, { fundamental: 190 }), quiet(0.3), voice(1.3, 0.1, { fundamental: 190 }));
    t.world.microphone.frames(frames(mix(echoOf(played, 60, gainDb), quiet(played.length / 24_000))), frames(played));
    expect(t.world.audio.slice(1)).toEqual([]);
    expect(speaking.aborted).toBe(false);
    expect(status()).toBe('speaking');
  });

  it('a click while listening pauses hands-free until the visitor starts again', async () => {
    await greeted();
    t.session.click();
    t.world.latestRecognition().final('Hallo');
    await vi.waitFor(() => expect(t.world.calls).toHaveLength(1));
    await answer('Hallo du.');
    await vi.waitFor(() => expect(status()).toBe('ready'));
    expect(t.world.recognitions).toHaveLength(1);
    speak(0.8);
    expect(t.world.recognitions).toHaveLength(1);
    t.session.click();
    expect(status()).toBe('listening');
  });

  it('leaving the page gives the microphone back', async () => {
    await greeted();
    expect(t.world.microphone.open).toBe(true);
    t.world.leavePage();
    expect(t.world.microphone.open).toBe(false);
  });
});

describe('listening by recording (no recogniser)', () => {
  beforeEach(() => {
    t.world.recogniser = false;
  });

  /** Ready, then a click: listening with the microphone open. */
  async function recording() {
    await greeted();
    t.session.click();
    expect(status()).toBe('listening');
    await vi.waitFor(() => expect(t.world.microphone.open).toBe(true));
  }

  it('a click listens by recording with the microphone open; the words ask the coach, and the microphone is given back', async () => {
    await recording();
    t.world.microphone.frames(frames(concat(voice(0.8, 0.05), quiet(0.9))));
    expect(status()).toBe('processing');
    t.world.transcriptions[0]?.answer('Hallo Mia');
    await vi.waitFor(() => expect(t.world.calls).toHaveLength(1));
    expect(t.world.latestCall().history.at(-1)?.content).toBe('Hallo Mia');
    expect(entries().slice(1)).toEqual(['user: Hallo Mia', 'assistant: ']);
    expect(t.world.microphone.open).toBe(false);
  });

  it('after the visitor ended the conversation, a click records again: the microphone opens for the turn', async () => {
    await greeted();
    t.session.sendText('Hallo');
    await vi.waitFor(() => expect(t.world.calls).toHaveLength(1));
    await answer('Hallo du.');
    await vi.waitFor(() => expect(status()).toBe('ready'));
    t.session.endConversation();
    expect(t.session.getSnapshot().chat.ended).toBe(true);
    expect(t.world.microphone.open).toBe(false);
    t.session.click();
    await vi.waitFor(() => expect(t.world.microphone.open).toBe(true));
    t.world.microphone.frames(frames(concat(voice(0.8, 0.05), quiet(0.9))));
    expect(t.world.transcriptions).toHaveLength(1);
  });

  it('nothing heard: "Keine Sprache erkannt…" and nothing is uploaded', async () => {
    await recording();
    t.world.microphone.frames(frames(quiet(0.5)));
    t.session.click();
    await vi.waitFor(() => expect(notice()).toBe(coachTexts.errors.noSpeech));
    expect(t.world.transcriptions).toHaveLength(0);
  });

  it('the function’s failure is the catalogue message', async () => {
    await recording();
    t.world.microphone.frames(frames(concat(voice(0.8, 0.05), quiet(0.9))));
    t.world.transcriptions[0]?.fail(new SpeechRecognitionError('failed', 'provider_error'));
    await vi.waitFor(() => expect(notice()).toBe(coachTexts.errors.processing));
    expect(status()).toBe('ready');
  });

  it('without a transcription provider the browser cannot listen, and says so', async () => {
    t.world.transcriptionAvailable = false;
    await greeted();
    t.session.click();
    await vi.waitFor(() => expect(notice()).toBe(coachTexts.errors.unsupported));
    expect(status()).toBe('ready');
  });
});

describe('a long quiet spell', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('without hands-free, on the recording path: "Keine Sprache erkannt…" after 8 s of the microphone without a word', async () => {
    t.world.recogniser = false;
    await greetedWithFakeTimers();
    t.session.click();
    await vi.advanceTimersByTimeAsync(0);
    // Counted in the microphone's frames, not on the clock: a busy page cuts nobody short.
    await vi.advanceTimersByTimeAsync(20_000);
    expect(status()).toBe('listening');
    t.world.microphone.frames(frames(quiet(7.9)));
    expect(status()).toBe('listening');
    t.world.microphone.frames(frames(quiet(0.1)));
    await vi.advanceTimersByTimeAsync(0);
    expect(status()).toBe('ready');
    expect(notice()).toBe(coachTexts.errors.noSpeech);
  });

  it.each([
    ['the recording path', false],
    ['the recogniser path', true],
  ])('hands-free, on %s: pauses visibly after 8 s, keeps the microphone, and the voice resumes it', async (_path, recogniser) => {
    t.world.recogniser = recogniser;
    t.world.handsFree.set('on');
    await greetedWithFakeTimers();
    expect(status()).toBe('listening');
    // A cough does not count as a word, nor does it keep listening from pausing.
    t.world.microphone.frames(frames(concat(quiet(4), voice(0.16, 0.08), quiet(4))));
    expect(status()).toBe('paused');
    expect(hint()).toBe('paused');
    expect(t.world.microphone.open).toBe(true);
    t.world.microphone.frames(frames(concat(voice(0.8, 0.05), quiet(0.3))));
    expect(status()).toBe('listening');
    if (recogniser) expect(t.world.recognitions).toHaveLength(2);
    // The recording path records the voice that resumed it, from its onset.
    else expect(t.world.transcriptions[0]?.seconds).toBeGreaterThan(0.8);
  });

  it('hands-free: a visitor who starts speaking just before the quiet spell ends is heard to the end', async () => {
    t.world.recogniser = false;
    t.world.handsFree.set('on');
    await greetedWithFakeTimers();
    // The visitor is still speaking when the eight seconds are over.
    t.world.microphone.frames(frames(concat(quiet(7.5), voice(1, 0.05), quiet(0.9))));
    expect(status()).toBe('processing');
    t.world.transcriptions[0]?.answer('Hallo Mia');
    await vi.advanceTimersByTimeAsync(0);
    expect(t.world.calls).toHaveLength(1);
    expect(t.world.latestCall().history.at(-1)?.content).toBe('Hallo Mia');
  });

  it('hands-free, paused: a click resumes too', async () => {
    t.world.handsFree.set('on');
    await greetedWithFakeTimers();
    t.world.microphone.frames(frames(quiet(8)));
    t.session.click();
    expect(status()).toBe('listening');
  });

  it('hands-free: a recogniser that stops by itself without a word pauses instead of falling back to a click', async () => {
    t.world.handsFree.set('on');
    await greetedWithFakeTimers();
    t.world.latestRecognition().fail('no-speech', 'noSpeech');
    expect(status()).toBe('paused');
    expect(notice()).toBeNull();
  });
});
