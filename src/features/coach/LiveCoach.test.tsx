import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { persona } from '../../config/persona';
import {
  FakeRecognition,
  installFetch,
  installRecognition,
  installWebAudio,
  jsonResponse,
  pcmResponse,
  removeRecognition,
  sseResponse,
  type FakeWebAudio,
  type FetchHandler,
  type RecordedRequest,
} from '../../../tests/support/browser/browserFakes';
import { renderWithProviders } from '../../../tests/support/browser/render';
import { LiveCoach } from './LiveCoach';
import { coachTexts } from './texts';

let coachAnswer: FetchHandler = () => sseResponse(['Atme tief ein. ', 'Das hilft.'], { 'x-conversation-id': 'c-1', 'x-coach-mode': 'model' });
let ttsAnswer: FetchHandler = () => pcmResponse();
let requests: RecordedRequest[] = [];
let audio: FakeWebAudio;

// The coach's SDK client keeps the fetch it was created with, so one fake fetch serves the file.
beforeAll(() => {
  requests = installFetch((request) => {
    if (request.url.endsWith('/chat/completions')) return request.method === 'GET' ? new Response(null, { status: 204 }) : coachAnswer(request);
    if (request.url.endsWith('/tts')) return request.method === 'GET' ? jsonResponse(200, { available: true }) : ttsAnswer(request);
    if (request.url.endsWith('/rating')) return new Response(null, { status: 204 });
    return jsonResponse(404, {});
  });
});
afterAll(() => {
  vi.unstubAllGlobals();
});
beforeEach(() => {
  requests.length = 0;
  coachAnswer = () => sseResponse(['Atme tief ein. ', 'Das hilft.'], { 'x-conversation-id': 'c-1', 'x-coach-mode': 'model' });
  ttsAnswer = () => pcmResponse();
  installRecognition();
  audio = installWebAudio();
  audio.autoPlay = true;
});
afterEach(() => {
  removeRecognition();
});

const voiceButton = () => screen.getByRole('button', { name: /Klick hier|Ich höre zu|spricht|Einen Moment/ });
const hint = () => screen.getByTestId('coach-hint');
/** The questions (the warm-up's GET when the chat opens left out). */
const chatRequests = () => requests.filter((request) => request.url.endsWith('/chat/completions') && request.method === 'POST');
const ttsPosts = () => requests.filter((request) => request.url.endsWith('/tts') && request.method === 'POST');
const messages = () => within(screen.getByTestId('coach-messages')).getAllByRole('listitem');

/** Renders the coach and opens it (greeting spoken), ready for input. */
async function openCoach() {
  const user = userEvent.setup();
  renderWithProviders(<LiveCoach />, { path: `/produkte/${persona.slug}-ai` });
  await user.click(voiceButton());
  await waitFor(() => expect(voiceButton()).toHaveTextContent(coachTexts.button.ready));
  return user;
}

/** Clicks the button, says something, and lets the recogniser finish. */
async function say(user: ReturnType<typeof userEvent.setup>, text: string) {
  await user.click(voiceButton());
  const recognition = FakeRecognition.latest();
  act(() => {
    recognition.hear([text, true]);
    recognition.end();
  });
}

describe('live coach', () => {
  it('starts idle (purple), and the first click opens the chat with the spoken greeting', async () => {
    const user = userEvent.setup();
    audio.autoPlay = false;
    renderWithProviders(<LiveCoach />, { path: `/produkte/${persona.slug}-ai` });
    expect(voiceButton()).toHaveTextContent(coachTexts.button.idle);
    expect(voiceButton()).toHaveAttribute('data-state', 'idle');
    expect(voiceButton().className).toContain('purple');
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(hint()).toHaveTextContent('');

    await user.click(voiceButton());
    expect(voiceButton()).toHaveTextContent(`${persona.name} spricht...`);
    expect(voiceButton().className).toContain('green');
    expect(hint()).toHaveTextContent(`${persona.name} antwortet...`);
    expect(messages()[0]).toHaveTextContent(persona.greeting);
    expect(screen.getByRole('textbox', { name: coachTexts.chat.inputLabel })).toBeInTheDocument();
    await waitFor(() => expect(audio.pieces[0]?.complete).toBe(true));
    expect(JSON.parse(ttsPosts()[0]?.body ?? '')).toEqual({ text: persona.greeting, format: 'pcm', cache: true });

    act(() => audio.playNext());
    await waitFor(() => expect(voiceButton()).toHaveTextContent('Klick hier und sprich mit mir'));
    expect(voiceButton().className).toContain('blue');
    expect(hint()).toHaveTextContent('Bereit zum Aufnehmen');
  });

  it('a mouse press on the idle button fetches the greeting before its click, which plays it', async () => {
    const user = userEvent.setup();
    renderWithProviders(<LiveCoach />, { path: `/produkte/${persona.slug}-ai` });
    await user.pointer({ keys: '[MouseLeft>]', target: voiceButton() });
    await waitFor(() => expect(ttsPosts()).toHaveLength(1));
    expect(voiceButton()).toHaveTextContent(coachTexts.button.idle);
    expect(screen.queryByTestId('coach-messages')).toBeNull();
    expect(audio.pieces).toHaveLength(0);

    await user.pointer({ keys: '[/MouseLeft]', target: voiceButton() });
    expect(messages()[0]).toHaveTextContent(persona.greeting);
    await waitFor(() => expect(audio.pieces[0]?.complete).toBe(true));
    expect(ttsPosts()).toHaveLength(1);
  });

  it('a touch on the idle button fetches nothing until it is a tap (it may still become a scroll)', async () => {
    const user = userEvent.setup();
    renderWithProviders(<LiveCoach />, { path: `/produkte/${persona.slug}-ai` });
    await user.pointer({ keys: '[TouchA>]', target: voiceButton() });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ttsPosts()).toHaveLength(0);
    await user.pointer({ keys: '[/TouchA]', target: voiceButton() });
    expect(messages()[0]).toHaveTextContent(persona.greeting);
    await waitFor(() => expect(ttsPosts()).toHaveLength(1));
  });

  it('listens, shows the live caption, sends the final transcript and speaks the answer', async () => {
    const user = await openCoach();
    audio.autoPlay = false;
    await user.click(voiceButton());
    expect(voiceButton()).toHaveTextContent('Ich höre zu... (Klick zum Beenden)');
    expect(voiceButton().className).toContain('red');
    expect(hint()).toHaveTextContent('Aufnahme läuft...');
    const recognition = FakeRecognition.latest();
    expect(recognition.lang).toBe('de-DE');

    act(() => recognition.hear(['Ich bin so', false]));
    expect(screen.getByTestId('coach-caption')).toHaveTextContent('Ich bin so');

    act(() => recognition.hear(['Ich bin so gestresst', true]));
    expect(voiceButton()).toHaveTextContent(coachTexts.button.processing);
    expect(voiceButton().className).toContain('amber');
    expect(hint()).toHaveTextContent('Verarbeite Anfrage...');
    // Green only when the first sound is really heard.
    await waitFor(() => expect(audio.pieces.filter((piece) => !piece.played && piece.complete)).toHaveLength(2));
    expect(voiceButton()).toHaveTextContent(coachTexts.button.processing);
    act(() => audio.playNext());
    await waitFor(() => expect(voiceButton()).toHaveTextContent(`${persona.name} spricht...`));
    expect(hint()).toHaveTextContent(`${persona.name} antwortet...`);
    expect(JSON.parse(chatRequests()[0]?.body ?? '')).toMatchObject({
      messages: [
        { role: 'assistant', content: persona.greeting },
        { role: 'user', content: 'Ich bin so gestresst' },
      ],
    });
    await waitFor(() => expect(messages().at(-1)).toHaveTextContent('Atme tief ein. Das hilft.'));
    expect(messages().at(-2)).toHaveTextContent('Ich bin so gestresst');

    act(() => audio.playNext());
    await waitFor(() => expect(voiceButton()).toHaveTextContent('Klick hier und sprich mit mir'));
    expect(hint()).toHaveTextContent('Bereit zum Aufnehmen');
  });

  it('starts the reply while the recogniser still waits for the end of speech, and shows it once the words are final', async () => {
    const user = await openCoach();
    await user.click(voiceButton());
    const recognition = FakeRecognition.latest();
    act(() => recognition.hear(['Ich bin so gestresst', false]));
    // The interim words stay the same for a moment: the question goes out already…
    await waitFor(() => expect(chatRequests()).toHaveLength(1));
    expect(JSON.parse(chatRequests()[0]?.body ?? '')).toMatchObject({ messages: [{}, { role: 'user', content: 'Ich bin so gestresst' }] });
    // …but nothing is shown or heard before the visitor's words are final.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(voiceButton()).toHaveTextContent('Ich höre zu... (Klick zum Beenden)');
    expect(messages()).toHaveLength(1);

    act(() => recognition.hear(['Ich bin so gestresst.', true]));
    await waitFor(() => expect(messages().at(-1)).toHaveTextContent('Atme tief ein. Das hilft.'));
    expect(messages().at(-2)).toHaveTextContent('Ich bin so gestresst');
    await waitFor(() => expect(voiceButton()).toHaveTextContent('Klick hier und sprich mit mir'));
    expect(chatRequests()).toHaveLength(1);
  });

  it('drops a reply started too early when the visitor goes on speaking', async () => {
    const user = await openCoach();
    await user.click(voiceButton());
    const recognition = FakeRecognition.latest();
    act(() => recognition.hear(['Ich bin', false]));
    await waitFor(() => expect(chatRequests()).toHaveLength(1));
    act(() => recognition.hear(['Ich bin gestresst bei der Arbeit', false]));
    act(() => recognition.hear(['Ich bin gestresst bei der Arbeit', true]));
    await waitFor(() => expect(chatRequests()).toHaveLength(2));
    expect(JSON.parse(chatRequests()[1]?.body ?? '')).toMatchObject({ messages: [{}, { content: 'Ich bin gestresst bei der Arbeit' }] });
    await waitFor(() => expect(voiceButton()).toHaveTextContent('Klick hier und sprich mit mir'));
    const userMessages = messages().filter((item) => item.textContent.includes('Ich bin'));
    expect(userMessages.map((item) => item.textContent)).toEqual([expect.stringContaining('Ich bin gestresst bei der Arbeit')]);
  });

  it('ignores an empty transcript: back to ready with "Aufnahme gestoppt"', async () => {
    const user = await openCoach();
    await user.click(voiceButton());
    await user.click(voiceButton());
    const recognition = FakeRecognition.latest();
    expect(recognition.stopped).toBe(true);
    act(() => recognition.end());
    expect(voiceButton()).toHaveTextContent('Klick hier und sprich mit mir');
    expect(hint()).toHaveTextContent('Aufnahme gestoppt');
    expect(chatRequests()).toHaveLength(0);
  });

  it.each([
    ['not-allowed', 'Mikrofon-Zugriff verweigert. Bitte erlaube den Zugriff.'],
    ['no-speech', 'Keine Sprache erkannt. Bitte sprich deutlicher.'],
  ])('shows the recognition error %s', async (code, message) => {
    const user = await openCoach();
    await user.click(voiceButton());
    act(() => FakeRecognition.latest().fail(code));
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(voiceButton()).toHaveTextContent('Klick hier und sprich mit mir');
  });

  it('says when the browser cannot recognise speech, and the text input still works', async () => {
    removeRecognition();
    const user = await openCoach();
    await user.click(voiceButton());
    expect(screen.getByRole('alert')).toHaveTextContent('Browser unterstützt keine Spracherkennung');
    await user.type(screen.getByRole('textbox'), 'Hallo Mia{Enter}');
    await waitFor(() => expect(chatRequests()).toHaveLength(1));
  });

  it('sends typed text on Enter only when it is not blank', async () => {
    const user = await openCoach();
    const input = screen.getByRole('textbox', { name: coachTexts.chat.inputLabel });
    await user.type(input, '   {Enter}');
    expect(chatRequests()).toHaveLength(0);
    expect(screen.getByRole('button', { name: coachTexts.chat.send })).toBeDisabled();
    await user.clear(input);
    await user.type(input, '  Was hilft bei Stress?  {Enter}');
    await waitFor(() => expect(chatRequests()).toHaveLength(1));
    expect(input).toHaveValue('');
    const body = JSON.parse(chatRequests()[0]?.body ?? '') as { messages: { content: string }[] };
    expect(body.messages.at(-1)?.content).toBe('Was hilft bei Stress?');
    await waitFor(() => expect(voiceButton()).toHaveTextContent('Klick hier und sprich mit mir'));
  });

  it('barge-in: a click while the coach speaks stops the audio and starts listening', async () => {
    const user = await openCoach();
    audio.autoPlay = false;
    await say(user, 'Erzähl mir was');
    await waitFor(() => expect(audio.pieces.filter((piece) => !piece.played && piece.complete)).toHaveLength(2));
    act(() => audio.playNext());
    await waitFor(() => expect(voiceButton()).toHaveTextContent(`${persona.name} spricht...`));
    const clears = audio.clears;
    const recognitions = FakeRecognition.instances.length;
    await user.click(voiceButton());
    // The player drops the rest of the answer at once.
    expect(audio.clears).toBe(clears + 1);
    expect(voiceButton()).toHaveTextContent('Ich höre zu... (Klick zum Beenden)');
    expect(FakeRecognition.instances).toHaveLength(recognitions + 1);
  });

  it('shows the catalogue message when the coach call fails', async () => {
    coachAnswer = () => jsonResponse(502, { error: { message: 'upstream_error', code: 'upstream_error' } });
    const user = await openCoach();
    await say(user, 'Hallo');
    await waitFor(() => expect(messages().at(-1)).toHaveTextContent(coachTexts.errors.callFailed));
    expect(voiceButton()).toHaveTextContent('Klick hier und sprich mit mir');
  });

  it('shows the catalogue message when the coach has no answer text', async () => {
    coachAnswer = () => sseResponse([], { 'x-conversation-id': 'c-1', 'x-coach-mode': 'model' });
    const user = await openCoach();
    await say(user, 'Hallo');
    await waitFor(() => expect(messages().at(-1)).toHaveTextContent(coachTexts.errors.noReply));
  });

  it('says so when the browser blocks the audio, and the text stays', async () => {
    const user = await openCoach();
    audio.suspended = true;
    await say(user, 'Hallo');
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(coachTexts.errors.autoplayBlocked));
    await waitFor(() => expect(messages().at(-1)).toHaveTextContent('Atme tief ein. Das hilft.'));
    await waitFor(() => expect(voiceButton()).toHaveTextContent('Klick hier und sprich mit mir'));
  });

  it('says so when the audio cannot be played', async () => {
    const user = await openCoach();
    ttsAnswer = () => jsonResponse(502, { error: { message: 'Voice synthesis failed', code: 'provider_error' } });
    await say(user, 'Hallo');
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(coachTexts.errors.playback));
  });

  it('shows the knowledge-base hint for offline answers', async () => {
    coachAnswer = () => sseResponse(['Aus der Wissensdatenbank.'], { 'x-conversation-id': 'c-1', 'x-coach-mode': 'offline' });
    const user = await openCoach();
    expect(screen.queryByTestId('coach-offline')).toBeNull();
    await say(user, 'Hallo');
    await waitFor(() => expect(screen.getByTestId('coach-offline')).toHaveTextContent(coachTexts.chat.offline));
  });

  it('ends the conversation, rates it, and starts a new one on the next message', async () => {
    const user = await openCoach();
    expect(screen.queryByRole('button', { name: coachTexts.chat.endConversation })).toBeNull();
    await say(user, 'Hallo');
    await waitFor(() => expect(voiceButton()).toHaveTextContent('Klick hier und sprich mit mir'));
    await user.click(screen.getByRole('button', { name: coachTexts.chat.endConversation }));
    const four = screen.getByRole('button', { name: '4 von 5' });
    await user.click(four);
    await waitFor(() => expect(screen.getByText(coachTexts.rating.thanks)).toBeInTheDocument());
    expect(four).toHaveAttribute('aria-pressed', 'true');
    const rating = requests.find((request) => request.url.endsWith('/coach/rating'));
    expect(JSON.parse(rating?.body ?? '')).toEqual({ conversationId: 'c-1', rating: 4 });
    // A conversation is rated once: the coach keeps the first rating.
    expect(screen.getByRole('button', { name: '2 von 5' })).toBeDisabled();

    await user.type(screen.getByRole('textbox'), 'Neue Frage{Enter}');
    await waitFor(() => expect(chatRequests()).toHaveLength(2));
    const second = chatRequests()[1];
    expect(second?.headers.get('x-conversation-id')).toBeNull();
    expect(JSON.parse(second?.body ?? '')).toMatchObject({ messages: [{ role: 'user', content: 'Neue Frage' }] });
    expect(screen.queryByText(coachTexts.rating.question)).toBeNull();
    expect(screen.getByText(coachTexts.chat.newConversation)).toBeInTheDocument();
  });
});
