import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  installFetch,
  installWebAudio,
  jsonResponse,
  pcmResponse,
  type FakeWebAudio,
  type FetchHandler,
  type RecordedRequest,
} from '../../tests/support/browser/browserFakes';
import { startCoachReply } from './coach';
import { runReply, type ReplyCallbacks } from './replyPipeline';
import { coachPlaybackMessage } from './speechErrors';
import { createSpeechQueue } from './speechQueue';
import { catalogue } from '../../supabase/functions/_shared/catalogue';

let answer: FetchHandler = () => jsonResponse(500, {});
let requests: RecordedRequest[] = [];
let audio: FakeWebAudio;
beforeAll(() => {
  requests = installFetch((request) => (request.method === 'GET' ? jsonResponse(200, { available: true }) : answer(request)));
});
afterAll(() => {
  vi.unstubAllGlobals();
});
beforeEach(() => {
  requests.length = 0;
  audio = installWebAudio();
});

const ttsBodies = () =>
  requests
    .filter((request) => request.url.endsWith('/tts') && request.method === 'POST')
    .map((request) => JSON.parse(request.body) as { text: string; previousText?: string });
const ttsTexts = () => ttsBodies().map((body) => body.text);

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

/** The real coach call and speech queue, over the fake fetch and Web Audio. */
const services = { startReply: startCoachReply, createQueue: createSpeechQueue };

function callbacks() {
  return {
    ...services,
    onMeta: vi.fn<ReplyCallbacks['onMeta']>(),
    onText: vi.fn<ReplyCallbacks['onText']>(),
    onFirstChunk: vi.fn<ReplyCallbacks['onFirstChunk']>(),
    onSpeaking: vi.fn<ReplyCallbacks['onSpeaking']>(),
    onPlaybackProblem: vi.fn<ReplyCallbacks['onPlaybackProblem']>(),
  };
}

describe('runReply', () => {
  it('sends a first clause, then each finished sentence to text-to-speech while the reply still streams, and plays in order', async () => {
    const stream = controlledStream();
    const rates = new Map([
      ['Atme jetzt ganz tief ein,', '1.1'],
      ['ganz ruhig.', '1.2'],
      ['Zähl bis vier.', '1.3'],
      ['Dann aus.', '1.4'],
    ]);
    answer = (request) => {
      if (request.url.endsWith('/chat/completions')) return stream.response();
      const { text } = JSON.parse(request.body) as { text: string };
      return pcmResponse({ 'x-playback-rate': rates.get(text) ?? '1' });
    };
    const on = callbacks();
    const done = runReply([{ role: 'user', content: 'Hilfe' }], { conversationId: null, signal: new AbortController().signal, ...on });

    stream.send('Atme jetzt ganz tief ');
    stream.send('ein, ganz');
    await vi.waitFor(() => expect(ttsTexts()).toEqual(['Atme jetzt ganz tief ein,']));
    expect(on.onFirstChunk).toHaveBeenCalledOnce();
    expect(on.onMeta).toHaveBeenCalledWith({ conversationId: 'c-1', mode: 'model' });
    expect(on.onText).toHaveBeenLastCalledWith('Atme jetzt ganz tief ein, ganz');
    await vi.waitFor(() => expect(audio.pieces[0]?.complete).toBe(true));
    expect(on.onSpeaking).not.toHaveBeenCalled();
    audio.playNext();
    await vi.waitFor(() => expect(on.onSpeaking).toHaveBeenCalledOnce());

    stream.send(' ruhig. Zähl bis vier. Dann aus.');
    stream.end();
    // The remaining pieces are requested and downloaded while the first one is still playing,
    // each with what was said before it.
    await vi.waitFor(() => expect(ttsTexts()).toEqual(['Atme jetzt ganz tief ein,', 'ganz ruhig.', 'Zähl bis vier.', 'Dann aus.']));
    expect(ttsBodies().map((body) => body.previousText ?? '')).toEqual([
      '',
      'Atme jetzt ganz tief ein,',
      'Atme jetzt ganz tief ein, ganz ruhig.',
      'Atme jetzt ganz tief ein, ganz ruhig. Zähl bis vier.',
    ]);
    await vi.waitFor(() => expect(audio.pieces.map((piece) => piece.complete)).toEqual([true, true, true, true]));
    expect(audio.pieces.map((piece) => piece.id)).toEqual([0, 1, 2, 3].map((index) => (audio.pieces[0]?.id ?? 0) + index));

    audio.playNext();
    audio.playNext();
    audio.playNext();
    await expect(done).resolves.toEqual({ kind: 'answered' });
    expect(audio.tempos.slice(-4)).toEqual([1.1, 1.2, 1.3, 1.4]);
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
    audio.autoPlay = true;
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
    expect(on.onPlaybackProblem).toHaveBeenCalledOnce();
    expect(coachPlaybackMessage(on.onPlaybackProblem.mock.calls[0]?.[0])).toBe(catalogue.playbackFailed);
    expect(on.onText).toHaveBeenLastCalledWith('Eins. Zwei. Drei.');
    expect(audio.pieces.filter((piece) => piece.samples > 0)).toEqual([]);
  });
});
