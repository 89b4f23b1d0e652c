/**
 * The live coach streaming the visitor's voice to the `stt-stream` function, in a browser without
 * speech recognition (Firefox): the page's WebSocket (its far end played by the test as the
 * function speaks, supabase/functions/stt-stream/protocol.ts), the live caption, the reply, and
 * the upload to `stt` when the stream fails (tests/support/browser/liveCoach.tsx: the microphone,
 * Web Audio and the socket are the browser's parts replaced; everything of ours runs for real).
 */
import { act, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { env } from '../../config/env';
import { FakeSocket, removeRecognition } from '../../../tests/support/browser/browserFakes';
import { chatRequests, messages, openCoach, setUpLiveCoachWorld, sttPosts, voiceButton } from '../../../tests/support/browser/liveCoach';
import { frames, quiet, voice } from '../../../tests/support/browser/signals';
import { coachTexts } from './texts';

const world = setUpLiveCoachWorld({ streaming: { available: true, everyBrowser: false } });
const hear = (signal: Float32Array) => act(() => world.audio.micFrames(frames(signal)));

/** Open, greeted, clicked: the microphone listens for the streamed turn. */
async function listening() {
  const user = await openCoach();
  await waitFor(() => expect(voiceButton()).toHaveTextContent(coachTexts.button.ready));
  await user.click(voiceButton());
  await waitFor(() => expect(world.audio.microphoneWorklets).toBeGreaterThan(0));
  expect(voiceButton()).toHaveTextContent(coachTexts.button.listening);
}

describe('voice input streamed to the speech-to-text service (no recogniser, as in Firefox)', () => {
  beforeEach(() => {
    removeRecognition();
  });

  it('streams 16 kHz PCM from the voice onset with the anon key, shows the partial words live, and the final words ask the coach', async () => {
    await listening();
    hear(quiet(1));
    expect(FakeSocket.instances).toHaveLength(0);
    hear(voice(0.6, 0.05));
    // Opened once the caller's token is there (a microtask for the anon key).
    const socket = await waitFor(() => FakeSocket.latest());
    const url = new URL(socket.url);
    expect(url.pathname).toBe('/functions/v1/stt-stream');
    expect(url.protocol).toMatch(/^wss?:$/);
    expect(url.searchParams.get('jwt')).toBe(env.VITE_SUPABASE_ANON_KEY);
    act(() => socket.open());
    hear(voice(0.4, 0.05));
    // 1 s of speech and the pre-roll at 16 kHz, 16-bit; not the second of silence before.
    expect(socket.pcmBytes()).toBeGreaterThanOrEqual(32_000);
    expect(socket.pcmBytes()).toBeLessThanOrEqual(1.35 * 32_000);
    act(() => socket.receive({ type: 'partial', text: 'Ich bin gestresst' }));
    expect(screen.getByText('Ich bin gestresst')).toBeInTheDocument();
    hear(quiet(0.9));
    expect(socket.messages()).toEqual([{ type: 'commit' }]);
    act(() => socket.receive({ type: 'final', text: 'Ich bin gestresst' }));
    await waitFor(() => expect(chatRequests(world)).toHaveLength(1));
    expect(messages().some((item) => item.textContent.includes('Ich bin gestresst'))).toBe(true);
    expect(socket.closedWith).toBe(1000);
    expect(sttPosts(world)).toHaveLength(0);
    await waitFor(() => expect(voiceButton()).toHaveTextContent(coachTexts.button.ready));
  });

  it('a stream the function refuses falls back to uploading the turn to stt, and the coach answers its words', async () => {
    await listening();
    hear(voice(1, 0.05));
    const socket = await waitFor(() => FakeSocket.latest());
    act(() => {
      socket.open();
      socket.receive({ type: 'error', error: { message: 'Es gab ein Problem bei der Verarbeitung.', code: 'provider_failed' } });
      socket.serverClose(4502);
    });
    await waitFor(() => expect(sttPosts(world)).toHaveLength(1));
    expect(Number(sttPosts(world)[0]?.headers.get('x-audio-duration'))).toBeGreaterThanOrEqual(1);
    hear(quiet(0.9));
    await waitFor(() => expect(chatRequests(world)).toHaveLength(1));
    expect(messages().some((item) => item.textContent.includes('Ich bin gestresst.'))).toBe(true);
    expect(screen.queryByText('Es gab ein Problem bei der Verarbeitung.')).toBeNull();
  });
});
