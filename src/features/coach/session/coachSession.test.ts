/**
 * The coach session's transitions without React: the browser's parts are fakes (a recogniser the
 * test speaks through, a microphone fed with synthetic frames, a speech queue the test plays out,
 * a coach call it streams), the session and its state machines are real.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { persona } from '../../../config/persona';
import { PlaybackError } from '../../../services/speechErrors';
import { SpeechRecognitionError } from '../../../services/speechRecognition';
import { concat, echoOf, frames, mix, quiet, voice } from '../../../../tests/support/browser/signals';
import { fakeCoachWorld, settled, type FakeCoachWorld } from '../../../../tests/support/browser/fakeCoachPorts';
import { coachTexts } from '../texts';
import { createCoachSession, type CoachSession } from './coachSession';

let world: FakeCoachWorld;
let session: CoachSession;
let detach: () => void;

beforeEach(() => {
  world = fakeCoachWorld();
  session = createCoachSession(world.ports);
  detach = session.attach();
});
afterEach(() => {
  detach();
  vi.useRealTimers();
});

const status = () => session.getSnapshot().voice.status;
const hint = () => session.getSnapshot().voice.hint;
const notice = () => session.getSnapshot().voice.notice;
const entries = () => session.getSnapshot().chat.entries.map((entry) => (entry.role === 'divider' ? '—' : `${entry.role}: ${entry.content}`));

/** First click: the greeting is queued; playing it out makes the coach ready. */
async function greeted() {
  session.click();
  await vi.waitFor(() => expect(world.queues).toHaveLength(1));
  world.latestQueue().start();
  world.latestQueue().finish();
  await vi.waitFor(() => expect(status()).not.toBe('speaking'));
}

/** The same with fake timers running: the greeting queued, played out, the coach ready. */
async function greetedWithFakeTimers() {
  session.click();
  await vi.advanceTimersByTimeAsync(0);
  world.latestQueue().finish();
  await vi.advanceTimersByTimeAsync(0);
}

/** Answers the latest coach call with the given text and plays it out. */
async function answer(text: string) {
  const call = world.latestCall();
  call.send(text);
  call.end();
  const queues = world.queues.length;
  await vi.waitFor(() => expect(world.queues).toHaveLength(queues + 1));
  await vi.waitFor(() => expect(world.latestQueue().pieces.length).toBeGreaterThan(0));
  world.latestQueue().start();
  world.latestQueue().finish();
}

describe('greeting', () => {
  it('the first click opens the chat, speaks the cached greeting, and the coach is ready when it has been said', async () => {
    expect(status()).toBe('idle');
    session.click();
    expect(world.audio).toEqual(['unlock']);
    expect(status()).toBe('speaking');
    expect(hint()).toBe('answering');
    expect(entries()).toEqual([`assistant: ${persona.greeting}`]);
    await vi.waitFor(() => expect(world.queues).toHaveLength(1));
    expect(world.latestQueue().pieces).toEqual([{ text: persona.greeting, cache: true }]);
    world.latestQueue().finish();
    await vi.waitFor(() => expect(status()).toBe('ready'));
    expect(hint()).toBe('ready');
  });

  it('warms up the way to the coach function once the greeting sounds, not at the click', async () => {
    session.click();
    await vi.waitFor(() => expect(world.queues).toHaveLength(1));
    expect(world.coachWarmUps).toBe(0);
    world.latestQueue().start();
    expect(world.coachWarmUps).toBe(1);
    world.latestQueue().finish();
    await vi.waitFor(() => expect(status()).toBe('ready'));
  });

  it('a greeting that never sounds still warms up the way for the first question', async () => {
    session.click();
    await vi.waitFor(() => expect(world.queues).toHaveLength(1));
    world.latestQueue().fail(new PlaybackError('failed', 'no output'));
    await vi.waitFor(() => expect(world.coachWarmUps).toBeGreaterThan(0));
  });

  it('a greeting that cannot be played leaves the catalogue message and the text', async () => {
    session.click();
    await vi.waitFor(() => expect(world.queues).toHaveLength(1));
    world.latestQueue().fail(new PlaybackError('blocked', 'suspended'));
    await vi.waitFor(() => expect(status()).toBe('ready'));
    expect(notice()).toBe(coachTexts.errors.autoplayBlocked);
  });
});

describe('the greeting from the press of the mouse button', () => {
  it('a press while idle fetches it; the click opens the chat with it, and what it reported before shows then', async () => {
    session.press();
    await vi.waitFor(() => expect(world.queues).toHaveLength(1));
    world.latestQueue().fail(new PlaybackError('blocked', 'suspended'));
    await settled();
    expect(status()).toBe('idle');
    expect(notice()).toBeNull();
    session.click();
    expect(entries()).toEqual([`assistant: ${persona.greeting}`]);
    await vi.waitFor(() => expect(status()).toBe('ready'));
    expect(notice()).toBe(coachTexts.errors.autoplayBlocked);
    // One synthesis for the press and its click.
    expect(world.queues).toHaveLength(1);
  });

  it('once the conversation is open, a press does nothing', async () => {
    await greeted();
    const audio = world.audio.length;
    session.press();
    await settled();
    expect(world.queues).toHaveLength(1);
    expect(world.audio).toHaveLength(audio);
  });

  it('leaving the page drops a pressed greeting', async () => {
    session.press();
    await vi.waitFor(() => expect(world.queues).toHaveLength(1));
    detach();
    expect(world.latestQueue().aborted).toBe(true);
    detach = session.attach();
  });
});

describe('listening with the browser’s recogniser', () => {
  it('ready → listening → processing → speaking → ready, the words and the answer in the chat', async () => {
    await greeted();
    session.click();
    expect(status()).toBe('listening');
    const recognition = world.latestRecognition();
    recognition.interim('Ich bin so');
    expect(session.getSnapshot().voice.caption).toBe('Ich bin so');
    recognition.final('Ich bin so gestresst');
    expect(status()).toBe('processing');
    await vi.waitFor(() => expect(world.calls).toHaveLength(1));
    expect(world.latestCall().history.at(-1)).toEqual({ role: 'user', content: 'Ich bin so gestresst' });
    world.latestCall().send('Atme tief ein. ');
    await vi.waitFor(() => expect(entries().at(-1)).toBe('assistant: Atme tief ein. '));
    world.latestCall().end();
    await vi.waitFor(() => expect(world.latestQueue().pieces.map((piece) => piece.text)).toEqual(['Atme tief ein.']));
    expect(status()).toBe('processing');
    world.latestQueue().start();
    expect(status()).toBe('speaking');
    world.latestQueue().finish();
    await vi.waitFor(() => expect(status()).toBe('ready'));
    expect(entries().slice(1)).toEqual(['user: Ich bin so gestresst', 'assistant: Atme tief ein. ']);
  });

  it('a click while listening stops the recogniser; nothing heard ends as "Aufnahme gestoppt"', async () => {
    await greeted();
    session.click();
    session.click();
    expect(world.latestRecognition().stopped).toBe(true);
    world.latestRecognition().end();
    expect(status()).toBe('ready');
    expect(hint()).toBe('stopped');
    expect(world.calls).toHaveLength(0);
  });

  it('a recogniser error shows its catalogue message', async () => {
    await greeted();
    session.click();
    world.latestRecognition().fail('not-allowed', 'denied');
    expect(status()).toBe('ready');
    expect(notice()).toBe(coachTexts.errors.microphoneDenied);
  });

  it.each(['network', 'service-not-allowed', 'audio-capture', 'language-not-supported'])('a recogniser whose service fails (%s) goes on by recording', async (code) => {
    await greeted();
    session.click();
    world.latestRecognition().fail(code);
    await vi.waitFor(() => expect(world.microphone.open).toBe(true));
    expect(status()).toBe('listening');
    world.microphone.frames(frames(concat(voice(0.8, 0.05), quiet(0.9))));
    expect(world.transcriptions).toHaveLength(1);
  });

  it('a recogniser that fails before the stt function has answered whether it has a provider goes on by recording once it has', async () => {
    let answer: (available: boolean) => void = () => undefined;
    world.transcriptionAvailable = new Promise((resolve) => {
      answer = resolve;
    });
    session.click();
    // The visitor clicks while the greeting starts (a barge-in), before the answer is back.
    session.click();
    world.latestRecognition().fail('network');
    expect(status()).toBe('listening');
    answer(true);
    await vi.waitFor(() => expect(world.microphone.open).toBe(true));
    expect(status()).toBe('listening');
    expect(notice()).toBeNull();
  });

  it('barge-in: a click while the coach speaks stops its speech and listens', async () => {
    await greeted();
    session.click();
    world.latestRecognition().final('Erzähl mir was');
    await vi.waitFor(() => expect(world.calls).toHaveLength(1));
    world.latestCall().send('Eins. Zwei. Drei.');
    await vi.waitFor(() => expect(world.queues[1]?.pieces.length).toBeGreaterThan(0));
    world.latestQueue().start();
    expect(status()).toBe('speaking');
    const speaking = world.latestQueue();
    session.click();
    expect(speaking.aborted).toBe(true);
    expect(status()).toBe('listening');
    expect(world.recognitions).toHaveLength(2);
  });
});

describe('typed messages and the end of a conversation', () => {
  it('sends only non-blank text, not before the coach is open and not while it processes', async () => {
    expect(session.sendText('Hallo')).toBe(false);
    await greeted();
    expect(session.sendText('   ')).toBe(false);
    expect(session.sendText('  Hallo Mia  ')).toBe(true);
    expect(status()).toBe('processing');
    expect(session.sendText('Noch was')).toBe(false);
    await vi.waitFor(() => expect(world.calls).toHaveLength(1));
    expect(world.latestCall().history.at(-1)?.content).toBe('Hallo Mia');
  });

  it('a failed call shows the catalogue message as the coach’s answer', async () => {
    await greeted();
    session.sendText('Hallo');
    await vi.waitFor(() => expect(world.calls).toHaveLength(1));
    const { CoachCallError } = await import('../../../services/coach');
    world.latestCall().fail(new CoachCallError('502', 502));
    await vi.waitFor(() => expect(entries().at(-1)).toBe(`assistant: ${coachTexts.errors.callFailed}`));
    expect(status()).toBe('ready');
  });

  it('ending stops the speech, offers the rating, and the next message starts a new conversation', async () => {
    world.handsFree.set('on');
    await greeted();
    world.latestRecognition().final('Hallo');
    await vi.waitFor(() => expect(world.calls).toHaveLength(1));
    world.latestCall().send('Hallo du. Wie');
    await vi.waitFor(() => expect(world.queues[1]?.pieces.length).toBeGreaterThan(0));
    const speaking = world.latestQueue();
    session.endConversation();
    expect(speaking.aborted).toBe(true);
    expect(session.getSnapshot().chat.ended).toBe(true);
    // Hands-free does not listen again after the end, and the microphone is given back.
    expect(status()).toBe('ready');
    expect(world.recognitions).toHaveLength(1);
    expect(world.microphone.open).toBe(false);

    session.rate(4);
    await vi.waitFor(() => expect(session.getSnapshot().chat.rating).toEqual({ status: 'sent', value: 4 }));
    expect(world.ratings).toEqual([['c-1', 4]]);
    session.sendText('Neue Frage');
    await vi.waitFor(() => expect(world.calls).toHaveLength(2));
    expect(world.latestCall().conversationId).toBeNull();
    expect(world.latestCall().history).toEqual([{ role: 'user', content: 'Neue Frage' }]);
  });
});

describe('hands-free', () => {
  beforeEach(() => {
    world.handsFree.set('on');
  });

  const speak = (seconds: number) => world.microphone.frames(frames(concat(voice(seconds, 0.05), quiet(0.9))));

  /** Greeted, asked by voice, and the coach's answer has started to sound. */
  async function answerSounding() {
    await greeted();
    world.latestRecognition().final('Erzähl mir was.');
    await vi.waitFor(() => expect(world.calls).toHaveLength(1));
    world.latestCall().send('Eins. Zwei.');
    await vi.waitFor(() => expect(world.queues[1]?.pieces.length).toBeGreaterThan(0));
    world.latestQueue().start();
  }

  it('opens the microphone with the chat, listens by itself after each answer, and stops when switched off', async () => {
    session.click();
    await vi.waitFor(() => expect(world.microphone.open).toBe(true));
    await vi.waitFor(() => expect(world.queues).toHaveLength(1));
    world.latestQueue().finish();
    await vi.waitFor(() => expect(status()).toBe('listening'));
    world.latestRecognition().final('Was hilft bei Stress?');
    await vi.waitFor(() => expect(world.calls).toHaveLength(1));
    await answer('Atme.');
    await vi.waitFor(() => expect(world.recognitions).toHaveLength(2));
    expect(status()).toBe('listening');
    session.setHandsFree(false);
    expect(session.getSnapshot().handsFree).toBe(false);
    expect(world.microphone.open).toBe(false);
  });

  it('the visitor’s voice over the sounding answer: the coach is held, its speech stops and listening starts (barge-in by voice)', async () => {
    await answerSounding();
    const speaking = world.latestQueue();
    speak(0.8);
    expect(world.audio.slice(1)).toEqual(['hold']);
    expect(speaking.aborted).toBe(true);
    expect(status()).toBe('listening');
    expect(world.recognitions).toHaveLength(2);
  });

  /** Hands-free, the coach in the middle of its answer. */
  async function coachAnswering() {
    await answerSounding();
    expect(status()).toBe('speaking');
    return world.latestQueue();
  }

  it.each([0, -9])('the coach’s own echo at %s dB, 40 ms late, neither holds nor interrupts it', async (gainDb) => {
    const speaking = await coachAnswering();
    const played = concat(voice(1.3, 0.1, { fundamental: 190 }), quiet(0.3), voice(1.3, 0.1, { fundamental: 190 }));
    world.microphone.frames(frames(mix(echoOf(played, 60, gainDb), quiet(played.length / 24_000))), frames(played));
    expect(world.audio.slice(1)).toEqual([]);
    expect(speaking.aborted).toBe(false);
    expect(status()).toBe('speaking');
  });

  it('a click while listening pauses hands-free until the visitor starts again', async () => {
    await greeted();
    session.click();
    world.latestRecognition().final('Hallo');
    await vi.waitFor(() => expect(world.calls).toHaveLength(1));
    await answer('Hallo du.');
    await vi.waitFor(() => expect(status()).toBe('ready'));
    expect(world.recognitions).toHaveLength(1);
    speak(0.8);
    expect(world.recognitions).toHaveLength(1);
    session.click();
    expect(status()).toBe('listening');
  });

  it('leaving the page gives the microphone back', async () => {
    await greeted();
    expect(world.microphone.open).toBe(true);
    world.leavePage();
    expect(world.microphone.open).toBe(false);
  });
});

describe('listening by recording (no recogniser)', () => {
  beforeEach(() => {
    world.recogniser = false;
  });

  /** Ready, then a click: listening with the microphone open. */
  async function recording() {
    await greeted();
    session.click();
    expect(status()).toBe('listening');
    await vi.waitFor(() => expect(world.microphone.open).toBe(true));
  }

  it('a click listens by recording with the microphone open; the words ask the coach, and the microphone is given back', async () => {
    await recording();
    world.microphone.frames(frames(concat(voice(0.8, 0.05), quiet(0.9))));
    expect(status()).toBe('processing');
    world.transcriptions[0]?.answer('Hallo Mia');
    await vi.waitFor(() => expect(world.calls).toHaveLength(1));
    expect(world.latestCall().history.at(-1)?.content).toBe('Hallo Mia');
    expect(entries().slice(1)).toEqual(['user: Hallo Mia', 'assistant: ']);
    expect(world.microphone.open).toBe(false);
  });

  it('after the visitor ended the conversation, a click records again: the microphone opens for the turn', async () => {
    await greeted();
    session.sendText('Hallo');
    await vi.waitFor(() => expect(world.calls).toHaveLength(1));
    await answer('Hallo du.');
    await vi.waitFor(() => expect(status()).toBe('ready'));
    session.endConversation();
    expect(session.getSnapshot().chat.ended).toBe(true);
    expect(world.microphone.open).toBe(false);
    session.click();
    await vi.waitFor(() => expect(world.microphone.open).toBe(true));
    world.microphone.frames(frames(concat(voice(0.8, 0.05), quiet(0.9))));
    expect(world.transcriptions).toHaveLength(1);
  });

  it('nothing heard: "Keine Sprache erkannt…" and nothing is uploaded', async () => {
    await recording();
    world.microphone.frames(frames(quiet(0.5)));
    session.click();
    await vi.waitFor(() => expect(notice()).toBe(coachTexts.errors.noSpeech));
    expect(world.transcriptions).toHaveLength(0);
  });

  it('the function’s failure is the catalogue message', async () => {
    await recording();
    world.microphone.frames(frames(concat(voice(0.8, 0.05), quiet(0.9))));
    world.transcriptions[0]?.fail(new SpeechRecognitionError('failed', 'provider_error'));
    await vi.waitFor(() => expect(notice()).toBe(coachTexts.errors.processing));
    expect(status()).toBe('ready');
  });

  it('without a transcription provider the browser cannot listen, and says so', async () => {
    world.transcriptionAvailable = false;
    await greeted();
    session.click();
    await vi.waitFor(() => expect(notice()).toBe(coachTexts.errors.unsupported));
    expect(status()).toBe('ready');
  });
});

describe('a long quiet spell', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('without hands-free, on the recording path: "Keine Sprache erkannt…" after 8 s of the microphone without a word', async () => {
    world.recogniser = false;
    await greetedWithFakeTimers();
    session.click();
    await vi.advanceTimersByTimeAsync(0);
    // Counted in the microphone's frames, not on the clock: a busy page cuts nobody short.
    await vi.advanceTimersByTimeAsync(20_000);
    expect(status()).toBe('listening');
    world.microphone.frames(frames(quiet(7.9)));
    expect(status()).toBe('listening');
    world.microphone.frames(frames(quiet(0.1)));
    await vi.advanceTimersByTimeAsync(0);
    expect(status()).toBe('ready');
    expect(notice()).toBe(coachTexts.errors.noSpeech);
  });

  it.each([
    ['the recording path', false],
    ['the recogniser path', true],
  ])('hands-free, on %s: pauses visibly after 8 s, keeps the microphone, and the voice resumes it', async (_path, recogniser) => {
    world.recogniser = recogniser;
    world.handsFree.set('on');
    await greetedWithFakeTimers();
    expect(status()).toBe('listening');
    // A cough does not count as a word, nor does it keep listening from pausing.
    world.microphone.frames(frames(concat(quiet(4), voice(0.16, 0.08), quiet(4))));
    expect(status()).toBe('paused');
    expect(hint()).toBe('paused');
    expect(world.microphone.open).toBe(true);
    world.microphone.frames(frames(concat(voice(0.8, 0.05), quiet(0.3))));
    expect(status()).toBe('listening');
    if (recogniser) expect(world.recognitions).toHaveLength(2);
    // The recording path records the voice that resumed it, from its onset.
    else expect(world.transcriptions[0]?.seconds).toBeGreaterThan(0.8);
  });

  it('hands-free: a visitor who starts speaking just before the quiet spell ends is heard to the end', async () => {
    world.recogniser = false;
    world.handsFree.set('on');
    await greetedWithFakeTimers();
    // The visitor is still speaking when the eight seconds are over.
    world.microphone.frames(frames(concat(quiet(7.5), voice(1, 0.05), quiet(0.9))));
    expect(status()).toBe('processing');
    world.transcriptions[0]?.answer('Hallo Mia');
    await vi.advanceTimersByTimeAsync(0);
    expect(world.calls).toHaveLength(1);
    expect(world.latestCall().history.at(-1)?.content).toBe('Hallo Mia');
  });

  it('hands-free, paused: a click resumes too', async () => {
    world.handsFree.set('on');
    await greetedWithFakeTimers();
    world.microphone.frames(frames(quiet(8)));
    session.click();
    expect(status()).toBe('listening');
  });

  it('hands-free: a recogniser that stops by itself without a word pauses instead of falling back to a click', async () => {
    world.handsFree.set('on');
    await greetedWithFakeTimers();
    world.latestRecognition().fail('no-speech', 'noSpeech');
    expect(status()).toBe('paused');
    expect(notice()).toBeNull();
  });
});
