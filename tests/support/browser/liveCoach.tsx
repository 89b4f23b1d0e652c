/**
 * The live coach rendered as the page renders it, for component tests: the project's functions
 * answered over a fake fetch (the coach's chat as a stream, `tts` as PCM, `stt` as words, the
 * rating), the browser's recogniser, Web Audio and the microphone replaced by the fakes of
 * browserFakes.ts. Everything of ours runs for real. Only for tests.
 */
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { persona } from '../../../src/config/persona';
import { LiveCoach } from '../../../src/features/coach/LiveCoach';
import {
  FakeRecognition,
  installFetch,
  installMicrophone,
  installRecognition,
  installWebAudio,
  installWebSocket,
  jsonResponse,
  pcmResponse,
  removeRecognition,
  sseResponse,
  type FakeMicrophone,
  type FakeWebAudio,
  type FetchHandler,
  type RecordedRequest,
} from './browserFakes';
import { renderWithProviders } from './render';

export type CoachUser = ReturnType<typeof userEvent.setup>;

/** What a test changes and reads of the coach's world; reset before each test. */
export interface LiveCoachWorld {
  /** Every request the page sent (the fake fetch), in order. */
  readonly requests: RecordedRequest[];
  /** How the functions answer a POST (the chat's, the voice's, the transcription's). */
  answers: { coach: FetchHandler; tts: FetchHandler; stt: FetchHandler };
  readonly audio: FakeWebAudio;
  readonly microphone: FakeMicrophone;
}

const defaultAnswers = (): LiveCoachWorld['answers'] => ({
  coach: () => sseResponse(['Atme tief ein. ', 'Das hilft.'], { 'x-conversation-id': 'c-1', 'x-coach-mode': 'model' }),
  tts: () => pcmResponse(),
  stt: () => jsonResponse(200, { text: 'Ich bin gestresst.' }),
});

/**
 * Sets up the coach's world for a test file. The coach's SDK client keeps the fetch it was created
 * with, so one fake fetch serves the whole file; the browser's parts are installed again (and the
 * recogniser present, hands-free off, audio playing by itself) before each test. Whether the `stt`
 * function has a provider is the file's (`transcription`), and so is what `stt-stream` says
 * (`streaming`: no transcriber by default; its socket is a FakeSocket the test plays): the page asks
 * once and keeps the answer.
 */
export function setUpLiveCoachWorld({
  transcription = true,
  streaming = { available: false, everyBrowser: false },
}: { transcription?: boolean; streaming?: { available: boolean; everyBrowser: boolean } } = {}): LiveCoachWorld {
  let requests: RecordedRequest[] = [];
  let audio: FakeWebAudio | null = null;
  let microphone: FakeMicrophone | null = null;
  const world: LiveCoachWorld = {
    get requests() {
      return requests;
    },
    answers: defaultAnswers(),
    get audio() {
      if (!audio) throw new Error('the coach’s world is set up before each test');
      return audio;
    },
    get microphone() {
      if (!microphone) throw new Error('the coach’s world is set up before each test');
      return microphone;
    },
  };
  beforeAll(() => {
    requests = installFetch((request) => {
      const read = request.method === 'GET';
      if (request.url.endsWith('/chat/completions')) return read ? new Response(null, { status: 204 }) : world.answers.coach(request);
      if (request.url.endsWith('/tts')) return read ? jsonResponse(200, { available: true }) : world.answers.tts(request);
      if (request.url.endsWith('/stt')) return read ? jsonResponse(200, { available: transcription }) : world.answers.stt(request);
      if (request.url.endsWith('/stt-stream') && read) return jsonResponse(200, streaming);
      if (request.url.endsWith('/rating')) return new Response(null, { status: 204 });
      return jsonResponse(404, {});
    });
  });
  afterAll(() => {
    vi.unstubAllGlobals();
  });
  beforeEach(() => {
    requests.length = 0;
    world.answers = defaultAnswers();
    installRecognition();
    microphone = installMicrophone();
    audio = installWebAudio();
    audio.autoPlay = true;
    installWebSocket();
  });
  afterEach(() => {
    removeRecognition();
  });
  return world;
}

export const voiceButton = () => screen.getByRole('button', { name: /Klick hier|Ich höre zu|spricht|Einen Moment|Pause/ });
export const hint = () => screen.getByTestId('coach-hint');
export const messages = () => within(screen.getByTestId('coach-messages')).getAllByRole('listitem');

/** The questions sent to the coach (the warm-up's GET left out). */
export const chatRequests = (world: LiveCoachWorld) =>
  world.requests.filter((request) => request.url.endsWith('/chat/completions') && request.method === 'POST');
export const ttsPosts = (world: LiveCoachWorld) => world.requests.filter((request) => request.url.endsWith('/tts') && request.method === 'POST');
export const sttPosts = (world: LiveCoachWorld) => world.requests.filter((request) => request.url.endsWith('/stt') && request.method === 'POST');

/** Renders the live coach on its page. */
export function renderCoach() {
  return renderWithProviders(<LiveCoach />, { path: `/produkte/${persona.slug}-ai` });
}

/** Renders the coach and clicks it open (the greeting starts). */
export async function openCoach(): Promise<CoachUser> {
  const user = userEvent.setup();
  renderCoach();
  await user.click(voiceButton());
  return user;
}

/** Clicks the button to listen, and the recogniser hears `text` as final words and ends. */
export async function say(user: CoachUser, text: string): Promise<void> {
  await user.click(voiceButton());
  const recognition = FakeRecognition.latest();
  act(() => {
    recognition.hear([text, true]);
    recognition.end();
  });
}
