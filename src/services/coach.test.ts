import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vi } from 'vitest';
import { env } from '../config/env';
import { CoachCallError, preloadCoach, sendRating, startCoachReply, warmUpCoach } from './coach';
import { installFetch, jsonResponse, sseResponse, type FetchHandler, type RecordedRequest } from '../../tests/support/browser/browserFakes';

// The SDK client lives for the page's lifetime, so the fake fetch stays installed for the whole
// file and each test swaps only what it answers.
let answer: FetchHandler = () => jsonResponse(500, {});
let requests: RecordedRequest[] = [];
beforeAll(() => {
  requests = installFetch((request) => answer(request));
});
afterAll(() => {
  vi.unstubAllGlobals();
});

const coachUrl = `${env.VITE_SUPABASE_URL}/functions/v1/coach`;

async function collect(deltas: AsyncIterable<string>): Promise<string[]> {
  const pieces: string[] = [];
  for await (const piece of deltas) pieces.push(piece);
  return pieces;
}

describe('startCoachReply', () => {
  it('streams the reply from the coach function with the anon key and reads its headers', async () => {
    requests.length = 0;
    answer = () => sseResponse(['Atme ', 'tief ein.', ' Dann geht es besser.'], { 'x-conversation-id': 'c-42', 'x-coach-mode': 'model' });
    const reply = await startCoachReply([{ role: 'user', content: 'Ich bin gestresst.' }]);
    expect(reply.conversationId).toBe('c-42');
    expect(reply.mode).toBe('model');
    expect(await collect(reply.deltas)).toEqual(['Atme ', 'tief ein.', ' Dann geht es besser.']);

    const [request] = requests;
    expect(request?.url).toBe(`${coachUrl}/chat/completions`);
    expect(request?.headers.get('authorization')).toBe(`Bearer ${env.VITE_SUPABASE_ANON_KEY}`);
    expect(request?.headers.get('x-conversation-id')).toBeNull();
    const body = JSON.parse(request?.body ?? '') as { messages: unknown; stream: boolean };
    expect(body.stream).toBe(true);
    expect(body.messages).toEqual([{ role: 'user', content: 'Ich bin gestresst.' }]);
  });

  it('sends the conversation id and the history on later calls; reads the offline mode', async () => {
    requests.length = 0;
    answer = () => sseResponse(['Aus dem Wissen.'], { 'x-conversation-id': 'c-42', 'x-coach-mode': 'offline' });
    const history = [
      { role: 'user', content: 'Eins' },
      { role: 'assistant', content: 'Antwort' },
      { role: 'user', content: 'Zwei' },
    ] as const;
    const reply = await startCoachReply(history, { conversationId: 'c-42' });
    expect(reply.mode).toBe('offline');
    await collect(reply.deltas);
    expect(requests[0]?.headers.get('x-conversation-id')).toBe('c-42');
    expect((JSON.parse(requests[0]?.body ?? '') as { messages: unknown }).messages).toEqual(history);
  });

  it('fails with CoachCallError when the function answers an error, without retrying', async () => {
    requests.length = 0;
    answer = () => jsonResponse(502, { error: { message: 'upstream_error 500', code: 'upstream_error' } });
    await expect(startCoachReply([{ role: 'user', content: 'Hallo' }])).rejects.toEqual(
      expect.objectContaining({ name: 'CoachCallError', status: 502 }),
    );
    expect(requests).toHaveLength(1);
  });

  it('fails with CoachCallError when the network fails', async () => {
    answer = () => {
      throw new TypeError('Failed to fetch');
    };
    await expect(startCoachReply([{ role: 'user', content: 'Hallo' }])).rejects.toBeInstanceOf(CoachCallError);
  });

  it('yields nothing for a reply without content', async () => {
    answer = () => sseResponse([], { 'x-conversation-id': 'c-1' });
    const reply = await startCoachReply([{ role: 'user', content: 'Hallo' }]);
    expect(await collect(reply.deltas)).toEqual([]);
  });

  it('passes an abort through as an abort, not as a failed call', async () => {
    const controller = new AbortController();
    controller.abort();
    answer = () => sseResponse(['x']);
    await expect(startCoachReply([{ role: 'user', content: 'Hallo' }], { signal: controller.signal })).rejects.not.toBeInstanceOf(
      CoachCallError,
    );
  });
});

describe('warmUpCoach', () => {
  it("sends the function one warm-up GET to the first question's URL through the SDK, once per page view", async () => {
    requests.length = 0;
    answer = () => new Response(null, { status: 204 });
    await preloadCoach();
    // Loading the SDK sends nothing.
    expect(requests).toHaveLength(0);
    await Promise.all([warmUpCoach(), warmUpCoach()]);
    expect(requests).toHaveLength(1);
    const [warmUp] = requests;
    expect(warmUp?.method).toBe('GET');
    expect(warmUp?.url).toBe(`${coachUrl}/chat/completions`);
    expect(warmUp?.headers.get('authorization')).toBe(`Bearer ${env.VITE_SUPABASE_ANON_KEY}`);
    // The SDK's own headers, as the first question sends them: the preflight cached for this
    // request must cover that one.
    answer = () => sseResponse(['Hallo.']);
    await collect((await startCoachReply([{ role: 'user', content: 'Hallo' }])).deltas);
    const question = requests.at(-1);
    const sdkHeaders = (headers: Headers | undefined) => [...(headers?.keys() ?? [])].filter((name) => name.startsWith('x-stainless-')).sort();
    expect(sdkHeaders(question?.headers)).not.toEqual([]);
    expect(sdkHeaders(question?.headers).filter((name) => !sdkHeaders(warmUp?.headers).includes(name))).toEqual([]);
    await warmUpCoach();
    expect(requests.filter((request) => request.method === 'GET')).toHaveLength(1);
  });
});

describe('sendRating', () => {
  it('posts the rating for the conversation', async () => {
    requests.length = 0;
    answer = () => new Response(null, { status: 204 });
    await sendRating('c-42', 4);
    expect(requests[0]?.url).toBe(`${coachUrl}/rating`);
    expect(requests[0]?.method).toBe('POST');
    expect(requests[0]?.headers.get('authorization')).toBe(`Bearer ${env.VITE_SUPABASE_ANON_KEY}`);
    expect(JSON.parse(requests[0]?.body ?? '')).toEqual({ conversationId: 'c-42', rating: 4 });
  });

  it('rejects when the function refuses', async () => {
    answer = () => jsonResponse(404, { error: { message: 'not found', code: 'not_found' } });
    await expect(sendRating('unknown', 3)).rejects.toMatchObject({ name: 'FunctionCallError', status: 404, code: 'not_found' });
  });
});
