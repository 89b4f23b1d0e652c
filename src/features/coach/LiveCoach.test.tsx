/**
 * The live coach as the visitor sees it (tests/support/browser/liveCoach.tsx: the functions over a
 * fake fetch, the browser's recogniser and Web Audio replaced): the voice button's states, labels,
 * colours and hints, the chat panel, the messages. How the session decides is its modules' tests'.
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { persona } from '../../config/persona';
import { FakeRecognition, jsonResponse, removeRecognition, sseResponse } from '../../../tests/support/browser/browserFakes';
import {
  chatRequests,
  hint,
  messages,
  openCoach as open,
  renderCoach,
  say,
  ttsPosts,
  setUpLiveCoachWorld,
  voiceButton,
} from '../../../tests/support/browser/liveCoach';
import { initialVoiceState } from './session/voiceButtonMachine';
import { coachTexts } from './texts';
import { VoiceButton } from './VoiceButton';

// Voice input without the browser's recogniser is LiveCoach.voiceInput.test.tsx's.
const world = setUpLiveCoachWorld({ transcription: false });

/** Renders the coach and opens it (greeting spoken), ready for input. */
async function openCoach() {
  const user = await open();
  await waitFor(() => expect(voiceButton()).toHaveTextContent(coachTexts.button.ready));
  return user;
}

describe('live coach', () => {
  it('starts idle (purple), and the first click opens the chat with the spoken greeting', async () => {
    const user = userEvent.setup();
    world.audio.autoPlay = false;
    renderCoach();
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
    await waitFor(() => expect(world.audio.pieces[0]?.complete).toBe(true));
    expect(JSON.parse(ttsPosts(world)[0]?.body ?? '')).toEqual({ text: persona.greeting, format: 'pcm', cache: true });

    act(() => world.audio.playNext());
    await waitFor(() => expect(voiceButton()).toHaveTextContent('Klick hier und sprich mit mir'));
    expect(voiceButton().className).toContain('blue');
    expect(hint()).toHaveTextContent('Bereit zum Aufnehmen');
  });

  it('listens, shows the live caption, sends the final transcript and speaks the answer', async () => {
    const user = await openCoach();
    world.audio.autoPlay = false;
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
    await waitFor(() => expect(world.audio.pieces.filter((piece) => !piece.played && piece.complete)).toHaveLength(2));
    expect(voiceButton()).toHaveTextContent(coachTexts.button.processing);
    act(() => world.audio.playNext());
    await waitFor(() => expect(voiceButton()).toHaveTextContent(`${persona.name} spricht...`));
    expect(hint()).toHaveTextContent(`${persona.name} antwortet...`);
    expect(JSON.parse(chatRequests(world)[0]?.body ?? '')).toMatchObject({
      messages: [
        { role: 'assistant', content: persona.greeting },
        { role: 'user', content: 'Ich bin so gestresst' },
      ],
    });
    await waitFor(() => expect(messages().at(-1)).toHaveTextContent('Atme tief ein. Das hilft.'));
    expect(messages().at(-2)).toHaveTextContent('Ich bin so gestresst');

    act(() => world.audio.playNext());
    await waitFor(() => expect(voiceButton()).toHaveTextContent('Klick hier und sprich mit mir'));
    expect(hint()).toHaveTextContent('Bereit zum Aufnehmen');
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
    expect(chatRequests(world)).toHaveLength(0);
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
    await waitFor(() => expect(chatRequests(world)).toHaveLength(1));
  });

  it('sends typed text on Enter only when it is not blank', async () => {
    const user = await openCoach();
    const input = screen.getByRole('textbox', { name: coachTexts.chat.inputLabel });
    await user.type(input, '   {Enter}');
    expect(chatRequests(world)).toHaveLength(0);
    expect(screen.getByRole('button', { name: coachTexts.chat.send })).toBeDisabled();
    await user.clear(input);
    await user.type(input, '  Was hilft bei Stress?  {Enter}');
    await waitFor(() => expect(chatRequests(world)).toHaveLength(1));
    expect(input).toHaveValue('');
    const body = JSON.parse(chatRequests(world)[0]?.body ?? '') as { messages: { content: string }[] };
    expect(body.messages.at(-1)?.content).toBe('Was hilft bei Stress?');
    await waitFor(() => expect(voiceButton()).toHaveTextContent('Klick hier und sprich mit mir'));
  });

  it('shows the catalogue message when the coach call fails', async () => {
    world.answers.coach = () => jsonResponse(502, { error: { message: 'upstream_error', code: 'upstream_error' } });
    const user = await openCoach();
    await say(user, 'Hallo');
    await waitFor(() => expect(messages().at(-1)).toHaveTextContent(coachTexts.errors.callFailed));
    expect(voiceButton()).toHaveTextContent('Klick hier und sprich mit mir');
  });

  it('shows the catalogue message when the coach has no answer text', async () => {
    world.answers.coach = () => sseResponse([], { 'x-conversation-id': 'c-1', 'x-coach-mode': 'model' });
    const user = await openCoach();
    await say(user, 'Hallo');
    await waitFor(() => expect(messages().at(-1)).toHaveTextContent(coachTexts.errors.noReply));
  });

  it('says so when the browser blocks the audio, and the text stays', async () => {
    const user = await openCoach();
    world.audio.suspended = true;
    await say(user, 'Hallo');
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(coachTexts.errors.autoplayBlocked));
    await waitFor(() => expect(messages().at(-1)).toHaveTextContent('Atme tief ein. Das hilft.'));
    await waitFor(() => expect(voiceButton()).toHaveTextContent('Klick hier und sprich mit mir'));
  });

  it('says so when the audio cannot be played', async () => {
    const user = await openCoach();
    world.answers.tts = () => jsonResponse(502, { error: { message: 'Voice synthesis failed', code: 'provider_error' } });
    await say(user, 'Hallo');
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(coachTexts.errors.playback));
  });

  it('shows the knowledge-base hint for offline answers', async () => {
    world.answers.coach = () => sseResponse(['Aus der Wissensdatenbank.'], { 'x-conversation-id': 'c-1', 'x-coach-mode': 'offline' });
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
    const rating = world.requests.find((request) => request.url.endsWith('/coach/rating'));
    expect(JSON.parse(rating?.body ?? '')).toEqual({ conversationId: 'c-1', rating: 4 });
    // A conversation is rated once: the coach keeps the first rating.
    expect(screen.getByRole('button', { name: '2 von 5' })).toBeDisabled();

    await user.type(screen.getByRole('textbox'), 'Neue Frage{Enter}');
    await waitFor(() => expect(chatRequests(world)).toHaveLength(2));
    const second = chatRequests(world)[1];
    expect(second?.headers.get('x-conversation-id')).toBeNull();
    expect(JSON.parse(second?.body ?? '')).toMatchObject({ messages: [{ role: 'user', content: 'Neue Frage' }] });
    expect(screen.queryByText(coachTexts.rating.question)).toBeNull();
    expect(screen.getByText(coachTexts.chat.newConversation)).toBeInTheDocument();
  });
});

describe('the voice button', () => {
  // A mouse's main button going down is a user activation a tenth of a second before its click:
  // the session starts the greeting then. A touch may still become a scroll, so it waits for its tap.
  it.each([
    ['the main mouse button', 1, '[MouseLeft>]'],
    ['another mouse button', 0, '[MouseRight>]'],
    ['a touch', 0, '[TouchA>]'],
  ])('%s going down on it: %i press', async (_what, presses, keys) => {
    const onPress = vi.fn();
    const onClick = vi.fn();
    render(<VoiceButton state={initialVoiceState} onPress={onPress} onClick={onClick} />);
    await userEvent.setup().pointer({ keys, target: screen.getByRole('button') });
    expect(onPress).toHaveBeenCalledTimes(presses);
    expect(onClick).not.toHaveBeenCalled();
  });
});
