/**
 * The live coach's voice input beyond the browser's recogniser: the hands-free switch, hands-free
 * conversation (listening again by itself, the microphone released) and the speech-to-text path
 * for browsers without speech recognition (tests/support/browser/liveCoach.tsx: the microphone
 * and Web Audio are the browser's parts replaced; the detector, the recording and everything of
 * ours run for real). Barge-in and a cough are bargeIn.test.ts's.
 */
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { FakeRecognition, installRecognition, jsonResponse, removeRecognition } from '../../../tests/support/browser/browserFakes';
import {
  chatRequests,
  messages,
  openCoach,
  renderCoach,
  sttPosts,
  setUpLiveCoachWorld,
  voiceButton,
} from '../../../tests/support/browser/liveCoach';
import { concat, frames, quiet, voice } from '../../../tests/support/browser/signals';
import { coachTexts } from './texts';

const world = setUpLiveCoachWorld();

const handsFreeSwitch = () => screen.getByRole('switch', { name: coachTexts.handsFree.label });
const speak = (seconds = 0.8) => act(() => world.audio.micFrames(frames(concat(voice(seconds, 0.05), quiet(0.9)))));

/** The microphone is open and its frames reach the session (the frames worklet is running). */
const microphoneListening = () => waitFor(() => expect(world.audio.microphoneWorklets).toBeGreaterThan(0));

describe('the hands-free switch', () => {
  it('is off by default, says what it does, and is remembered', async () => {
    const user = userEvent.setup();
    const { unmount } = renderCoach();
    expect(handsFreeSwitch()).toHaveAttribute('aria-checked', 'false');
    expect(handsFreeSwitch()).toHaveAccessibleDescription(coachTexts.handsFree.hint);
    await user.click(handsFreeSwitch());
    expect(handsFreeSwitch()).toHaveAttribute('aria-checked', 'true');
    unmount();
    renderCoach();
    expect(handsFreeSwitch()).toHaveAttribute('aria-checked', 'true');
  });

  it('off, the microphone stays closed and nothing listens by itself', async () => {
    await openCoach();
    await waitFor(() => expect(voiceButton()).toHaveTextContent(coachTexts.button.ready));
    expect(world.microphone.opened).toBe(0);
    expect(FakeRecognition.instances).toHaveLength(0);
  });
});

describe('hands-free conversation', () => {
  beforeEach(() => {
    window.localStorage.setItem('coach.handsFree', 'on');
  });

  it('listens again by itself after the coach has spoken, and answers what was said', async () => {
    await openCoach();
    // After the greeting: listening without a click.
    await waitFor(() => expect(voiceButton()).toHaveTextContent(coachTexts.button.listening));
    expect(world.microphone.opened).toBe(1);
    act(() => {
      FakeRecognition.latest().hear(['Was hilft bei Stress?', true]);
      FakeRecognition.latest().end();
    });
    await waitFor(() => expect(messages().at(-1)).toHaveTextContent('Atme tief ein. Das hilft.'));
    // …and after the answer: listening again.
    await waitFor(() => expect(FakeRecognition.instances).toHaveLength(2));
    expect(voiceButton()).toHaveTextContent(coachTexts.button.listening);
  });

  it('ending the conversation releases the microphone, and so does leaving the page', async () => {
    const user = await openCoach();
    await waitFor(() => expect(voiceButton()).toHaveTextContent(coachTexts.button.listening));
    expect(world.microphone.opened).toBe(1);
    act(() => {
      FakeRecognition.latest().hear(['Hallo.', true]);
      FakeRecognition.latest().end();
    });
    await user.click(await screen.findByRole('button', { name: coachTexts.chat.endConversation }));
    await waitFor(() => expect(world.microphone.allStopped()).toBe(true));

    const { unmount } = renderCoach();
    const [, secondButton] = screen.getAllByRole('button', { name: /Klick hier/ });
    if (!secondButton) throw new Error('second coach missing');
    await user.click(secondButton);
    await waitFor(() => expect(world.microphone.opened).toBe(2));
    unmount();
    expect(world.microphone.allStopped()).toBe(true);
  });

  it('a denied microphone says so', async () => {
    world.microphone.deny = true;
    await openCoach();
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(coachTexts.errors.microphoneDenied));
  });
});

describe('voice input without the browser’s recogniser (speech to text)', () => {
  beforeEach(() => {
    removeRecognition();
  });

  it('records from the voice onset until the visitor stops speaking, transcribes, and asks the coach', async () => {
    const user = await openCoach();
    await waitFor(() => expect(voiceButton()).toHaveTextContent(coachTexts.button.ready));
    await user.click(voiceButton());
    expect(voiceButton()).toHaveTextContent(coachTexts.button.listening);
    await waitFor(() => expect(world.microphone.opened).toBe(1));
    await microphoneListening();
    act(() => world.audio.micFrames(frames(quiet(1))));
    expect(sttPosts(world)).toHaveLength(0);
    speak();
    await waitFor(() => expect(sttPosts(world)).toHaveLength(1));
    expect(sttPosts(world)[0]?.headers.get('content-type')).toBe('audio/wav');
    // The speech (0.8 s), a short pre-roll and the pause that ended it: not the second of silence before.
    expect(Number(sttPosts(world)[0]?.headers.get('x-audio-duration'))).toBeLessThanOrEqual(0.8 + 0.6);
    await waitFor(() => expect(chatRequests(world)).toHaveLength(1));
    expect(messages().some((item) => item.textContent.includes('Ich bin gestresst.'))).toBe(true);
    await waitFor(() => expect(voiceButton()).toHaveTextContent(coachTexts.button.ready));
    // The microphone was only open while recording.
    expect(world.microphone.allStopped()).toBe(true);
  });

  it('a click ends the recording too; while the words are being made out, the coach is processing', async () => {
    let answer: (response: Response) => void = () => undefined;
    world.answers.stt = () => new Promise<Response>((resolve) => (answer = resolve));
    const user = await openCoach();
    await waitFor(() => expect(voiceButton()).toHaveTextContent(coachTexts.button.ready));
    await user.click(voiceButton());
    await microphoneListening();
    act(() => world.audio.micFrames(frames(voice(0.6, 0.05))));
    await user.click(voiceButton());
    await waitFor(() => expect(screen.getByTestId('coach-hint')).toHaveTextContent(coachTexts.hints.processing));
    answer(jsonResponse(200, { text: 'Hallo Mia' }));
    await waitFor(() => expect(chatRequests(world)).toHaveLength(1));
  });

  it('nothing heard: "Keine Sprache erkannt…", and nothing is uploaded', async () => {
    const user = await openCoach();
    await waitFor(() => expect(voiceButton()).toHaveTextContent(coachTexts.button.ready));
    await user.click(voiceButton());
    await microphoneListening();
    act(() => world.audio.micFrames(frames(quiet(0.5))));
    await user.click(voiceButton());
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(coachTexts.errors.noSpeech));
    expect(sttPosts(world)).toHaveLength(0);
  });

  it.each([
    [jsonResponse(200, { text: '' }), coachTexts.errors.noSpeech],
    [jsonResponse(503, { error: { message: 'x', code: 'not_configured' } }), coachTexts.errors.unsupported],
    [jsonResponse(502, { error: { message: 'x', code: 'provider_error' } }), coachTexts.errors.processing],
  ])('the function’s answer %#: the catalogue message', async (response, message) => {
    world.answers.stt = () => response;
    const user = await openCoach();
    await waitFor(() => expect(voiceButton()).toHaveTextContent(coachTexts.button.ready));
    await user.click(voiceButton());
    await microphoneListening();
    speak();
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(message));
    expect(voiceButton()).toHaveTextContent(coachTexts.button.ready);
    expect(chatRequests(world)).toHaveLength(0);
  });

  it('a recogniser whose service fails (network) is replaced by recording', async () => {
    installRecognition();
    const user = await openCoach();
    await waitFor(() => expect(voiceButton()).toHaveTextContent(coachTexts.button.ready));
    await user.click(voiceButton());
    act(() => {
      FakeRecognition.latest().fail('network');
      FakeRecognition.latest().end();
    });
    await microphoneListening();
    expect(voiceButton()).toHaveTextContent(coachTexts.button.listening);
    speak();
    await waitFor(() => expect(chatRequests(world)).toHaveLength(1));
  });
});
