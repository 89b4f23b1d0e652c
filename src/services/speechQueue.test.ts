import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { catalogue } from '../../supabase/functions/_shared/catalogue';
import { coachPlaybackMessage } from './speechErrors';
import { createSpeechQueue } from './speechQueue';
import { installFetch, installWebAudio, jsonResponse, pcmResponse, type FakeWebAudio, type FetchHandler } from '../../tests/support/browser/browserFakes';

let answer: FetchHandler = () => jsonResponse(500, {});
let audio: FakeWebAudio;
beforeAll(() => {
  installFetch((request) => (request.method === 'GET' ? jsonResponse(200, { available: true }) : answer(request)));
});
afterAll(() => {
  vi.unstubAllGlobals();
});
beforeEach(() => {
  audio = installWebAudio();
});

describe('speech queue', () => {
  it('says so when the browser blocks autoplay', async () => {
    audio.suspended = true;
    answer = () => pcmResponse();
    const onProblem = vi.fn();
    const queue = createSpeechQueue({ signal: new AbortController().signal, onStart: vi.fn(), onProblem });
    queue.enqueue('Hallo.');
    queue.enqueue('Noch was.');
    await queue.finished();
    expect(onProblem).toHaveBeenCalledOnce();
    expect(coachPlaybackMessage(onProblem.mock.calls[0]?.[0])).toBe(catalogue.autoplayBlocked);
  });

  it('stops the sound and cancels every pending synthesis at once on abort, without a problem', async () => {
    let cancelled = 0;
    answer = (request) => {
      const { text } = JSON.parse(request.body) as { text: string };
      if (text === 'Eins.') return pcmResponse();
      // The later pieces' audio is still arriving when the visitor interrupts.
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array(64));
        },
        cancel() {
          cancelled += 1;
        },
      });
      return new Response(body, { headers: { 'content-type': 'audio/pcm' } });
    };
    const controller = new AbortController();
    const onProblem = vi.fn();
    const queue = createSpeechQueue({ signal: controller.signal, onStart: vi.fn(), onProblem });
    queue.enqueue('Eins.');
    queue.enqueue('Zwei.');
    queue.enqueue('Drei.');
    await vi.waitFor(() => expect(audio.pieces).toHaveLength(3));
    audio.playNext();
    const clears = audio.clears;
    controller.abort();
    await queue.finished();
    expect(audio.clears).toBe(clears + 1);
    expect(cancelled).toBe(2);
    expect(onProblem).not.toHaveBeenCalled();
  });
});
