/**
 * Every provider call of the functions gives up on a provider that does not answer: the model
 * (30 s to its status), ElevenLabs (15 s to its status) and the embeddings (30 s), against a server
 * that takes the request and never answers. Timers are faked; the sockets are real.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EMBEDDING_TIMEOUT_MS, embedTexts } from '../../../supabase/functions/_shared/embeddings';
import { openChatStream } from '../../../supabase/functions/coach/upstream';
import { requestSpeech, SPEECH_HEADERS_TIMEOUT_MS } from '../../../supabase/functions/tts/elevenLabs';

let server: Server;
let url = '';
const held: { destroy: () => void }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    // Reads the request and never answers.
    request.resume();
    held.push({ destroy: () => response.destroy() });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
});

afterAll(async () => {
  for (const connection of held) connection.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function whenTimersPass<T>(ms: number, run: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    const pending = run();
    // Let the request reach the server before the clock moves.
    await vi.waitFor(() => expect(held.length).toBeGreaterThan(0), { interval: 5 });
    held.length = 0;
    await vi.advanceTimersByTimeAsync(ms);
    return await pending;
  } finally {
    vi.useRealTimers();
  }
}

describe('provider timeouts', () => {
  it('the model: no status within 30 s is a failed answer', async () => {
    const result = await whenTimersPass(30_000, () =>
      openChatStream({ apiKey: 'k', baseUrl: url, model: 'm' }, [{ role: 'user', content: 'Hallo' }], new AbortController().signal),
    );
    expect(result).toEqual({ ok: false, detail: 'no response in time' });
  });

  it('ElevenLabs: no status within 15 s aborts the synthesis', async () => {
    expect(SPEECH_HEADERS_TIMEOUT_MS).toBe(15_000);
    const speaking = whenTimersPass(SPEECH_HEADERS_TIMEOUT_MS, () =>
      requestSpeech({ apiKey: 'k', voiceId: 'v', baseUrl: url, model: 'eleven_multilingual_v2' }, { text: 'Hallo', voiceSettings: { stability: 0.5, similarity_boost: 0.5, style: 0, use_speaker_boost: true, speed: 1 }, format: 'pcm', previousText: '' }).then(
        () => 'answered',
        (error: unknown) => (error instanceof Error ? error.name : 'failed'),
      ),
    );
    expect(await speaking).toBe('AbortError');
  });

  it('ElevenLabs: the visitor leaving aborts it at once', async () => {
    const leaving = new AbortController();
    const speaking = requestSpeech({ apiKey: 'k', voiceId: 'v', baseUrl: url, model: 'eleven_multilingual_v2' }, { text: 'Hallo', voiceSettings: { stability: 0.5, similarity_boost: 0.5, style: 0, use_speaker_boost: true, speed: 1 }, format: 'pcm', previousText: '' }, leaving.signal);
    await vi.waitFor(() => expect(held.length).toBeGreaterThan(0), { interval: 5 });
    leaving.abort();
    await expect(speaking).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('the embeddings: no answer within 30 s, whatever deadline the caller has, is a failure', async () => {
    expect(EMBEDDING_TIMEOUT_MS).toBe(30_000);
    const embedding = whenTimersPass(EMBEDDING_TIMEOUT_MS, () =>
      embedTexts({ apiKey: 'k', baseUrl: url, model: 'm' }, ['Hallo'], new AbortController().signal).then(
        () => 'answered',
        (error: unknown) => (error instanceof Error ? error.message : 'failed'),
      ),
    );
    expect(await embedding).toBe('no answer in time');
  });
});
