import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  audioResponse,
  installAudio,
  installFetch,
  jsonResponse,
  type FakeAudio,
  type FetchHandler,
  type RecordedRequest,
} from '../../services/testing/browserFakes';
import { runReply, type ReplyCallbacks } from './replyPipeline';
import { createSpeechQueue } from './speechQueue';
import { coachTexts } from './texts';

let answer: FetchHandler = () => jsonResponse(500, {});
let requests: RecordedRequest[] = [];
let audio: FakeAudio;
beforeAll(() => {
  requests = installFetch((request) => answer(request));
});
afterAll(() => {
  vi.unstubAllGlobals();
});
beforeEach(() => {
  requests.length = 0;
  audio = installAudio();
});
afterEach(() => audio.restore());

const ttsTexts = () =>
  requests.filter((request) => request.url.endsWith('/tts')).map((request) => (JSON.parse(request.body) as { text: string }).text);

/** A chat completion stream the test feeds piece by piece. */
function controlledStream() {
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  const body = new ReadableStream<Uint8Array>({
    start(control) {
      controller = control;
    },
  });
  const send = (text: string) =>
    controller?.enqueue(
      encoder.encode(
        `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`,
      ),
    );
  return {
    response: () =>
      new Response(body, { headers: { 'content-type': 'text/event-stream', 'x-conversation-id': 'c-1', 'x-coach-mode': 'model' } }),
    send,
    end: () => {
      controller?.enqueue(encoder.encode('data: [DONE]\n\n'));
      controller?.close();
    },
  };
}

function callbacks() {
  return {
    onMeta: vi.fn<ReplyCallbacks['onMeta']>(),
    onText: vi.fn<ReplyCallbacks['onText']>(),
    onFirstSentence: vi.fn<ReplyCallbacks['onFirstSentence']>(),
    onSpeaking: vi.fn<ReplyCallbacks['onSpeaking']>(),
    onPlaybackProblem: vi.fn<ReplyCallbacks['onPlaybackProblem']>(),
  };
}

describe('runReply', () => {
  it('sends each finished sentence to text-to-speech while the reply still streams, and plays in order', async () => {
    const stream = controlledStream();
    const rates = new Map([
      ['Atme tief ein.', '1.1'],
      ['Zähl bis vier.', '1.2'],
      ['Dann aus.', '1.3'],
    ]);
    answer = (request) => {
      if (request.url.endsWith('/chat/completions')) return stream.response();
      const { text } = JSON.parse(request.body) as { text: string };
      return audioResponse({ 'x-playback-rate': rates.get(text) ?? '1' });
    };
    const on = callbacks();
    const done = runReply([{ role: 'user', content: 'Hilfe' }], { conversationId: null, signal: new AbortController().signal, ...on });

    stream.send('Atme tief ');
    stream.send('ein. Zähl');
    await vi.waitFor(() => expect(ttsTexts()).toEqual(['Atme tief ein.']));
    expect(on.onFirstSentence).toHaveBeenCalledOnce();
    expect(on.onMeta).toHaveBeenCalledWith({ conversationId: 'c-1', mode: 'model' });
    expect(on.onText).toHaveBeenLastCalledWith('Atme tief ein. Zähl');
    await vi.waitFor(() => expect(on.onSpeaking).toHaveBeenCalledOnce());

    stream.send(' bis vier. Dann aus.');
    stream.end();
    // Both remaining sentences are requested while the first one is still playing.
    await vi.waitFor(() => expect(ttsTexts()).toEqual(['Atme tief ein.', 'Zähl bis vier.', 'Dann aus.']));
    expect(audio.played).toHaveLength(1);

    audio.finishNext();
    await vi.waitFor(() => expect(audio.played).toHaveLength(2));
    audio.finishNext();
    await vi.waitFor(() => expect(audio.played).toHaveLength(3));
    audio.finishNext();
    await expect(done).resolves.toEqual({ kind: 'answered' });
    expect(audio.played.map((element) => element.playbackRate)).toEqual([1.1, 1.2, 1.3]);
    expect(on.onSpeaking).toHaveBeenCalledOnce();
    expect(on.onPlaybackProblem).not.toHaveBeenCalled();
  });

  it('reports an empty reply', async () => {
    answer = () => {
      const stream = controlledStream();
      stream.end();
      return stream.response();
    };
    const on = callbacks();
    await expect(
      runReply([{ role: 'user', content: 'Hallo' }], { conversationId: null, signal: new AbortController().signal, ...on }),
    ).resolves.toEqual({ kind: 'empty' });
    expect(ttsTexts()).toEqual([]);
  });

  it('throws the call failure when the coach refuses', async () => {
    answer = () => jsonResponse(502, { error: { message: 'upstream_error', code: 'upstream_error' } });
    await expect(
      runReply([{ role: 'user', content: 'Hallo' }], { conversationId: null, signal: new AbortController().signal, ...callbacks() }),
    ).rejects.toMatchObject({ name: 'CoachCallError' });
  });

  it('keeps the text but stays silent after the first audio problem', async () => {
    audio.autoEnd = true;
    answer = (request) => {
      if (request.url.endsWith('/chat/completions')) {
        const stream = controlledStream();
        stream.send('Eins. Zwei. Drei.');
        stream.end();
        return stream.response();
      }
      return jsonResponse(502, { error: { message: 'Voice synthesis failed', code: 'provider_error' } });
    };
    const on = callbacks();
    await expect(
      runReply([{ role: 'user', content: 'Hallo' }], { conversationId: null, signal: new AbortController().signal, ...on }),
    ).resolves.toEqual({ kind: 'answered' });
    expect(on.onPlaybackProblem).toHaveBeenCalledExactlyOnceWith(coachTexts.errors.playback);
    expect(on.onText).toHaveBeenLastCalledWith('Eins. Zwei. Drei.');
    expect(audio.played).toHaveLength(0);
  });
});

describe('speech queue', () => {
  it('says so when the browser blocks autoplay', async () => {
    audio.rejectWith = new DOMException('blocked', 'NotAllowedError');
    answer = () => audioResponse();
    const onProblem = vi.fn();
    const queue = createSpeechQueue({ signal: new AbortController().signal, onStart: vi.fn(), onProblem });
    queue.enqueue('Hallo.');
    queue.enqueue('Noch was.');
    await queue.finished();
    expect(onProblem).toHaveBeenCalledExactlyOnceWith(coachTexts.errors.autoplayBlocked);
  });

  it('stops at once on abort, without a problem', async () => {
    answer = () => audioResponse();
    const controller = new AbortController();
    const onProblem = vi.fn();
    const queue = createSpeechQueue({ signal: controller.signal, onStart: vi.fn(), onProblem });
    queue.enqueue('Eins.');
    queue.enqueue('Zwei.');
    await vi.waitFor(() => expect(audio.played).toHaveLength(1));
    controller.abort();
    await queue.finished();
    expect(audio.played).toHaveLength(1);
    expect(onProblem).not.toHaveBeenCalled();
  });
});
