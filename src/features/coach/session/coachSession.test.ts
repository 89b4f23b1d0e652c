/**
 * The coach session's transitions without React: the greeting, the recogniser, typed messages and
 * the end of a conversation. The browser's parts are fakes (a recogniser the test speaks through, a
 * speech queue the test plays out, a coach call it streams), the session and its state machines are
 * real. The microphone's paths are in coachSession.microphone.test.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import { persona } from '../../../config/persona';
import { PlaybackError } from '../../../services/speechErrors';
import { concat, frames, quiet, voice } from '../../../../tests/support/browser/signals';
import { settled } from '../../../../tests/support/browser/fakeCoachPorts';
import { coachTexts } from '../texts';
import { coachSessionUnderTest } from '../../../../tests/support/browser/coachSessionUnderTest';

const { t, status, hint, notice, entries, greeted } = coachSessionUnderTest();

describe('greeting', () => {
  it('the first click opens the chat, speaks the cached greeting, and the coach is ready when it has been said', async () => {
    expect(status()).toBe('idle');
    t.session.click();
    expect(t.world.audio).toEqual(['unlock']);
    expect(status()).toBe('speaking');
    expect(hint()).toBe('answering');
    expect(entries()).toEqual([`assistant: ${persona.greeting}`]);
    await vi.waitFor(() => expect(t.world.queues).toHaveLength(1));
    expect(t.world.latestQueue().pieces).toEqual([{ text: persona.greeting, cache: true }]);
    t.world.latestQueue().finish();
    await vi.waitFor(() => expect(status()).toBe('ready'));
    expect(hint()).toBe('ready');
  });

  it('warms up the way to the coach function once the greeting sounds, not at the click', async () => {
    t.session.click();
    await vi.waitFor(() => expect(t.world.queues).toHaveLength(1));
    expect(t.world.coachWarmUps).toBe(0);
    t.world.latestQueue().start();
    expect(t.world.coachWarmUps).toBe(1);
    t.world.latestQueue().finish();
    await vi.waitFor(() => expect(status()).toBe('ready'));
  });

  it('a greeting that never sounds still warms up the way for the first question', async () => {
    t.session.click();
    await vi.waitFor(() => expect(t.world.queues).toHaveLength(1));
    t.world.latestQueue().fail(new PlaybackError('failed', 'no output'));
    await vi.waitFor(() => expect(t.world.coachWarmUps).toBeGreaterThan(0));
  });

  it('a greeting that cannot be played leaves the catalogue message and the text', async () => {
    t.session.click();
    await vi.waitFor(() => expect(t.world.queues).toHaveLength(1));
    t.world.latestQueue().fail(new PlaybackError('blocked', 'suspended'));
    await vi.waitFor(() => expect(status()).toBe('ready'));
    expect(notice()).toBe(coachTexts.errors.autoplayBlocked);
  });
});

describe('the greeting from the press of the mouse button', () => {
  it('a press while idle fetches it; the click opens the chat with it, and what it reported before shows then', async () => {
    t.session.press();
    await vi.waitFor(() => expect(t.world.queues).toHaveLength(1));
    t.world.latestQueue().fail(new PlaybackError('blocked', 'suspended'));
    await settled();
    expect(status()).toBe('idle');
    expect(notice()).toBeNull();
    t.session.click();
    expect(entries()).toEqual([`assistant: ${persona.greeting}`]);
    await vi.waitFor(() => expect(status()).toBe('ready'));
    expect(notice()).toBe(coachTexts.errors.autoplayBlocked);
    // One synthesis for the press and its click.
    expect(t.world.queues).toHaveLength(1);
  });

  it('once the conversation is open, a press does nothing', async () => {
    await greeted();
    const audio = t.world.audio.length;
    t.session.press();
    await settled();
    expect(t.world.queues).toHaveLength(1);
    expect(t.world.audio).toHaveLength(audio);
  });

  it('leaving the page drops a pressed greeting', async () => {
    t.session.press();
    await vi.waitFor(() => expect(t.world.queues).toHaveLength(1));
    t.leave();
    expect(t.world.latestQueue().aborted).toBe(true);
  });
});

describe('listening with the browser’s recogniser', () => {
  it('ready → listening → processing → speaking → ready, the words and the answer in the chat', async () => {
    await greeted();
    t.session.click();
    expect(status()).toBe('listening');
    const recognition = t.world.latestRecognition();
    recognition.interim('Ich bin so');
    expect(t.session.getSnapshot().voice.caption).toBe('Ich bin so');
    recognition.final('Ich bin so gestresst');
    expect(status()).toBe('processing');
    await vi.waitFor(() => expect(t.world.calls).toHaveLength(1));
    expect(t.world.latestCall().history.at(-1)).toEqual({ role: 'user', content: 'Ich bin so gestresst' });
    t.world.latestCall().send('Atme tief ein. ');
    await vi.waitFor(() => expect(entries().at(-1)).toBe('assistant: Atme tief ein. '));
    t.world.latestCall().end();
    await vi.waitFor(() => expect(t.world.latestQueue().pieces.map((piece) => piece.text)).toEqual(['Atme tief ein.']));
    expect(status()).toBe('processing');
    t.world.latestQueue().start();
    expect(status()).toBe('speaking');
    t.world.latestQueue().finish();
    await vi.waitFor(() => expect(status()).toBe('ready'));
    expect(entries().slice(1)).toEqual(['user: Ich bin so gestresst', 'assistant: Atme tief ein. ']);
  });

  it('a click while listening stops the recogniser; nothing heard ends as "Aufnahme gestoppt"', async () => {
    await greeted();
    t.session.click();
    t.session.click();
    expect(t.world.latestRecognition().stopped).toBe(true);
    t.world.latestRecognition().end();
    expect(status()).toBe('ready');
    expect(hint()).toBe('stopped');
    expect(t.world.calls).toHaveLength(0);
  });

  it('a recogniser error shows its catalogue message', async () => {
    await greeted();
    t.session.click();
    t.world.latestRecognition().fail('not-allowed', 'denied');
    expect(status()).toBe('ready');
    expect(notice()).toBe(coachTexts.errors.microphoneDenied);
  });

  it.each(['network', 'service-not-allowed', 'audio-capture', 'language-not-supported'])('a recogniser whose service fails (%s) goes on by recording', async (code) => {
    await greeted();
    t.session.click();
    t.world.latestRecognition().fail(code);
    await vi.waitFor(() => expect(t.world.microphone.open).toBe(true));
    expect(status()).toBe('listening');
    t.world.microphone.frames(frames(concat(voice(0.8, 0.05), quiet(0.9))));
    expect(t.world.transcriptions).toHaveLength(1);
  });

  it('a recogniser that fails before the stt function has answered whether it has a provider goes on by recording once it has', async () => {
    let answer: (available: boolean) => void = () => undefined;
    t.world.transcriptionAvailable = new Promise((resolve) => {
      answer = resolve;
    });
    t.session.click();
    // The visitor clicks while the greeting starts (a barge-in), before the answer is back. The
    // recogniser starts once the page knows the operator lets it hear the voice (GET stt-stream).
    t.session.click();
    await vi.waitFor(() => expect(t.world.recognitions).toHaveLength(1));
    t.world.latestRecognition().fail('network');
    expect(status()).toBe('listening');
    answer(true);
    await vi.waitFor(() => expect(t.world.microphone.open).toBe(true));
    expect(status()).toBe('listening');
    expect(notice()).toBeNull();
  });

  it('barge-in: a click while the coach speaks stops its speech and listens', async () => {
    await greeted();
    t.session.click();
    t.world.latestRecognition().final('Erzähl mir was');
    await vi.waitFor(() => expect(t.world.calls).toHaveLength(1));
    t.world.latestCall().send('Eins. Zwei. Drei.');
    await vi.waitFor(() => expect(t.world.queues[1]?.pieces.length).toBeGreaterThan(0));
    t.world.latestQueue().start();
    expect(status()).toBe('speaking');
    const speaking = t.world.latestQueue();
    t.session.click();
    expect(speaking.aborted).toBe(true);
    expect(status()).toBe('listening');
    expect(t.world.recognitions).toHaveLength(2);
  });
});

describe('typed messages and the end of a conversation', () => {
  it('sends only non-blank text, not before the coach is open and not while it processes', async () => {
    expect(t.session.sendText('Hallo')).toBe(false);
    await greeted();
    expect(t.session.sendText('   ')).toBe(false);
    expect(t.session.sendText('  Hallo Mia  ')).toBe(true);
    expect(status()).toBe('processing');
    expect(t.session.sendText('Noch was')).toBe(false);
    await vi.waitFor(() => expect(t.world.calls).toHaveLength(1));
    expect(t.world.latestCall().history.at(-1)?.content).toBe('Hallo Mia');
  });

  it('a failed call shows the catalogue message as the coach’s answer', async () => {
    await greeted();
    t.session.sendText('Hallo');
    await vi.waitFor(() => expect(t.world.calls).toHaveLength(1));
    const { CoachCallError } = await import('../../../services/coach');
    t.world.latestCall().fail(new CoachCallError('502', 502));
    await vi.waitFor(() => expect(entries().at(-1)).toBe(`assistant: ${coachTexts.errors.callFailed}`));
    expect(status()).toBe('ready');
  });

  it('ending stops the speech, offers the rating, and the next message starts a new conversation', async () => {
    t.world.handsFree.set('on');
    await greeted();
    t.world.latestRecognition().final('Hallo');
    await vi.waitFor(() => expect(t.world.calls).toHaveLength(1));
    t.world.latestCall().send('Hallo du. Wie');
    await vi.waitFor(() => expect(t.world.queues[1]?.pieces.length).toBeGreaterThan(0));
    const speaking = t.world.latestQueue();
    t.session.endConversation();
    expect(speaking.aborted).toBe(true);
    expect(t.session.getSnapshot().chat.ended).toBe(true);
    // Hands-free does not listen again after the end, and the microphone is given back.
    expect(status()).toBe('ready');
    expect(t.world.recognitions).toHaveLength(1);
    expect(t.world.microphone.open).toBe(false);

    t.session.rate(4);
    await vi.waitFor(() => expect(t.session.getSnapshot().chat.rating).toEqual({ status: 'sent', value: 4 }));
    expect(t.world.ratings).toEqual([['c-1', 4]]);
    t.session.sendText('Neue Frage');
    await vi.waitFor(() => expect(t.world.calls).toHaveLength(2));
    expect(t.world.latestCall().conversationId).toBeNull();
    expect(t.world.latestCall().history).toEqual([{ role: 'user', content: 'Neue Frage' }]);
  });
});
