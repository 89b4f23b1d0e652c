/**
 * The live coach's voice input beyond the browser's recogniser: hands-free conversation (listening
 * again by itself, barge-in by voice, a cough that does not interrupt, the microphone released) and the
 * speech-to-text path for browsers without speech recognition. The microphone and Web Audio are
 * the browser's parts replaced; the detector, the recording and everything of ours run for real.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { persona } from '../../config/persona';
import {
  FakeRecognition,
  installFetch,
  installMicrophone,
  installRecognition,
  installWebAudio,
  jsonResponse,
  pcmResponse,
  removeRecognition,
  sseResponse,
  type FakeMicrophone,
  type FakeWebAudio,
  type FetchHandler,
  type RecordedRequest,
} from '../../../tests/support/browser/browserFakes';
import { concat, frames, quiet, voice } from '../../../tests/support/browser/signals';
import { renderWithProviders } from '../../../tests/support/browser/render';
import { LiveCoach } from './LiveCoach';
import { coachTexts } from './texts';

let sttAnswer: FetchHandler = () => jsonResponse(200, { text: 'Ich bin gestresst.' });
let requests: RecordedRequest[] = [];
let audio: FakeWebAudio;
let microphone: FakeMicrophone;

beforeAll(() => {
  requests = installFetch((request) => {
    if (request.url.endsWith('/chat/completions')) {
      return request.method === 'GET' ? new Response(null, { status: 204 }) : sseResponse(['Atme tief ein. ', 'Das hilft.'], { 'x-conversation-id': 'c-1' });
    }
    if (request.url.endsWith('/tts')) return request.method === 'GET' ? jsonResponse(200, { available: true }) : pcmResponse();
    if (request.url.endsWith('/stt')) return request.method === 'GET' ? jsonResponse(200, { available: true }) : sttAnswer(request);
    return jsonResponse(404, {});
  });
});
afterAll(() => {
  vi.unstubAllGlobals();
});
beforeEach(() => {
  requests.length = 0;
  sttAnswer = () => jsonResponse(200, { text: 'Ich bin gestresst.' });
  window.localStorage.clear();
  installRecognition();
  microphone = installMicrophone();
  audio = installWebAudio();
  audio.autoPlay = true;
});
afterEach(() => {
  removeRecognition();
});

const voiceButton = () => screen.getByRole('button', { name: /Klick hier|Ich höre zu|spricht|Einen Moment/ });
const handsFreeSwitch = () => screen.getByRole('switch', { name: coachTexts.handsFree.label });
/** The questions (the warm-up's GET when the chat opens left out). */
const chatRequests = () => requests.filter((request) => request.url.endsWith('/chat/completions') && request.method === 'POST');
const sttPosts = () => requests.filter((request) => request.url.endsWith('/stt') && request.method === 'POST');
const messages = () => within(screen.getByTestId('coach-messages')).getAllByRole('listitem');
const speak = (seconds = 0.8) => act(() => audio.micFrames(frames(concat(voice(seconds, 0.05), quiet(0.9)))));

/** The microphone is open and its frames reach the session (the frames worklet is running). */
const microphoneListening = () => waitFor(() => expect(audio.microphoneWorklets).toBeGreaterThan(0));

/** Hands-free: the greeting, a question, and the coach in the middle of its answer. */
async function coachSpeaking() {
  audio.autoPlay = false;
  await openCoach();
  await waitFor(() => expect(audio.pieces[0]?.complete).toBe(true));
  act(() => audio.playNext());
  await waitFor(() => expect(voiceButton()).toHaveTextContent(coachTexts.button.listening));
  act(() => {
    FakeRecognition.latest().hear(['Erzähl mir was.', true]);
    FakeRecognition.latest().end();
  });
  await waitFor(() => expect(audio.pieces.filter((piece) => piece.complete && !piece.played)).toHaveLength(2));
  act(() => audio.playNext());
  await waitFor(() => expect(voiceButton()).toHaveTextContent(`${persona.name} spricht...`));
}

async function openCoach() {
  const user = userEvent.setup();
  renderWithProviders(<LiveCoach />, { path: `/produkte/${persona.slug}-ai` });
  await user.click(voiceButton());
  return user;
}

describe('the hands-free switch', () => {
  it('is off by default, says what it does, and is remembered', async () => {
    const user = userEvent.setup();
    const { unmount } = renderWithProviders(<LiveCoach />, { path: `/produkte/${persona.slug}-ai` });
    expect(handsFreeSwitch()).toHaveAttribute('aria-checked', 'false');
    expect(handsFreeSwitch()).toHaveAccessibleDescription(coachTexts.handsFree.hint);
    await user.click(handsFreeSwitch());
    expect(handsFreeSwitch()).toHaveAttribute('aria-checked', 'true');
    unmount();
    renderWithProviders(<LiveCoach />, { path: `/produkte/${persona.slug}-ai` });
    expect(handsFreeSwitch()).toHaveAttribute('aria-checked', 'true');
  });

  it('off, the microphone stays closed and nothing listens by itself', async () => {
    await openCoach();
    await waitFor(() => expect(voiceButton()).toHaveTextContent(coachTexts.button.ready));
    expect(microphone.opened).toBe(0);
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
    expect(microphone.opened).toBe(1);
    act(() => {
      FakeRecognition.latest().hear(['Was hilft bei Stress?', true]);
      FakeRecognition.latest().end();
    });
    await waitFor(() => expect(messages().at(-1)).toHaveTextContent('Atme tief ein. Das hilft.'));
    // …and after the answer: listening again.
    await waitFor(() => expect(FakeRecognition.instances).toHaveLength(2));
    expect(voiceButton()).toHaveTextContent(coachTexts.button.listening);
  });

  it('the visitor’s voice stops the coach at once and is listened to (barge-in by voice)', async () => {
    await coachSpeaking();
    const clears = audio.clears;
    const recognitions = FakeRecognition.instances.length;
    speak();
    await waitFor(() => expect(voiceButton()).toHaveTextContent(coachTexts.button.listening));
    expect(audio.clears).toBe(clears + 1);
    expect(FakeRecognition.instances).toHaveLength(recognitions + 1);
  });

  it('a cough does not interrupt the coach', async () => {
    await coachSpeaking();
    const clears = audio.clears;
    // The first moment of voice silences the coach while it is decided…
    act(() => audio.micFrames(frames(voice(0.15, 0.08))));
    expect(audio.held).toBe(true);
    // …a cough ends there, and the coach goes on from where it was.
    act(() => audio.micFrames(frames(concat(voice(0.03, 0.08), quiet(0.5)))));
    expect(audio.held).toBe(false);
    expect(voiceButton()).toHaveTextContent(`${persona.name} spricht...`);
    expect(audio.clears).toBe(clears);
  });

  it('ending the conversation releases the microphone, and so does leaving the page', async () => {
    const user = await openCoach();
    await waitFor(() => expect(voiceButton()).toHaveTextContent(coachTexts.button.listening));
    expect(microphone.opened).toBe(1);
    act(() => {
      FakeRecognition.latest().hear(['Hallo.', true]);
      FakeRecognition.latest().end();
    });
    await user.click(await screen.findByRole('button', { name: coachTexts.chat.endConversation }));
    await waitFor(() => expect(microphone.allStopped()).toBe(true));

    const { unmount } = renderWithProviders(<LiveCoach />, { path: `/produkte/${persona.slug}-ai` });
    const [, secondButton] = screen.getAllByRole('button', { name: /Klick hier/ });
    if (!secondButton) throw new Error('second coach missing');
    await user.click(secondButton);
    await waitFor(() => expect(microphone.opened).toBe(2));
    unmount();
    expect(microphone.allStopped()).toBe(true);
  });

  it('a denied microphone says so', async () => {
    microphone.deny = true;
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
    await waitFor(() => expect(microphone.opened).toBe(1));
    await microphoneListening();
    act(() => audio.micFrames(frames(quiet(1))));
    expect(sttPosts()).toHaveLength(0);
    speak();
    await waitFor(() => expect(sttPosts()).toHaveLength(1));
    expect(sttPosts()[0]?.headers.get('content-type')).toBe('audio/wav');
    // The speech (0.8 s), a short pre-roll and the pause that ended it: not the second of silence before.
    expect(Number(sttPosts()[0]?.headers.get('x-audio-duration'))).toBeLessThanOrEqual(0.8 + 0.6);
    await waitFor(() => expect(chatRequests()).toHaveLength(1));
    expect(messages().some((item) => item.textContent.includes('Ich bin gestresst.'))).toBe(true);
    await waitFor(() => expect(voiceButton()).toHaveTextContent(coachTexts.button.ready));
    // The microphone was only open while recording.
    expect(microphone.allStopped()).toBe(true);
  });

  it('a click ends the recording too; while the words are being made out, the coach is processing', async () => {
    let answer: (response: Response) => void = () => undefined;
    sttAnswer = () => new Promise<Response>((resolve) => (answer = resolve));
    const user = await openCoach();
    await waitFor(() => expect(voiceButton()).toHaveTextContent(coachTexts.button.ready));
    await user.click(voiceButton());
    await microphoneListening();
    act(() => audio.micFrames(frames(voice(0.6, 0.05))));
    await user.click(voiceButton());
    await waitFor(() => expect(screen.getByTestId('coach-hint')).toHaveTextContent(coachTexts.hints.processing));
    answer(jsonResponse(200, { text: 'Hallo Mia' }));
    await waitFor(() => expect(chatRequests()).toHaveLength(1));
  });

  it('nothing heard: "Keine Sprache erkannt…", and nothing is uploaded', async () => {
    const user = await openCoach();
    await waitFor(() => expect(voiceButton()).toHaveTextContent(coachTexts.button.ready));
    await user.click(voiceButton());
    await microphoneListening();
    act(() => audio.micFrames(frames(quiet(0.5))));
    await user.click(voiceButton());
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(coachTexts.errors.noSpeech));
    expect(sttPosts()).toHaveLength(0);
  });

  it.each([
    [jsonResponse(200, { text: '' }), coachTexts.errors.noSpeech],
    [jsonResponse(503, { error: { message: 'x', code: 'not_configured' } }), coachTexts.errors.unsupported],
    [jsonResponse(502, { error: { message: 'x', code: 'provider_error' } }), coachTexts.errors.processing],
  ])('the function’s answer %#: the catalogue message', async (response, message) => {
    sttAnswer = () => response;
    const user = await openCoach();
    await waitFor(() => expect(voiceButton()).toHaveTextContent(coachTexts.button.ready));
    await user.click(voiceButton());
    await microphoneListening();
    speak();
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(message));
    expect(voiceButton()).toHaveTextContent(coachTexts.button.ready);
    expect(chatRequests()).toHaveLength(0);
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
    await waitFor(() => expect(chatRequests()).toHaveLength(1));
  });
});
