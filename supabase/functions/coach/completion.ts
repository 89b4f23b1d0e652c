/**
 * Turns the coach's reply, a sequence of text pieces, into what an OpenAI client expects: server-
 * sent `chat.completion.chunk` events ending with a "stop" chunk and `[DONE]`, or one
 * `chat.completion` document. The reply is cut after its fourth sentence (the seed's 3–4
 * sentences; the model is asked for that, this makes sure), using the same sentence rules the
 * browser uses to pick what it speaks.
 */
import { corsHeaders } from '../_shared/cors.ts';
import { errorResponse, json } from '../_shared/http.ts';
import { createSentenceStream, limitSentences } from '../_shared/sentences.ts';
import { sseEvent } from '../_shared/sse.ts';

export const MAX_REPLY_SENTENCES = 4;

export interface CompletionOptions {
  /** The model name the client sees. */
  model: string;
  stream: boolean;
  /** Extra response headers (conversation id, coach mode). */
  headers: Record<string, string>;
  /** Called when the client stops reading, to stop producing the reply. */
  onCancel?: () => void;
}

/** The pieces of `deltas` up to the end of its `max`-th sentence; stops reading `deltas` there. */
export async function* limitToSentences(deltas: AsyncIterable<string> | Iterable<string>, max: number): AsyncGenerator<string> {
  const sentences = createSentenceStream();
  let sent = '';
  let count = 0;
  for await (const delta of deltas) {
    count += sentences.push(delta).length;
    if (count >= max) {
      const rest = limitSentences(sent + delta, max).slice(sent.length);
      if (rest !== '') yield rest;
      return; // leaving the loop closes `deltas`, and with it the connection to the model
    }
    sent += delta;
    yield delta;
  }
}

function completionId(): string {
  return `chatcmpl-${crypto.randomUUID().replaceAll('-', '')}`;
}

const upstreamInterrupted = { error: { message: 'upstream_error: the reply broke off', code: 'upstream_error' } };

function streamResponse(deltas: AsyncIterable<string>, options: CompletionOptions): Response {
  const id = completionId();
  const created = Math.floor(Date.now() / 1000);
  const encoder = new TextEncoder();
  const chunk = (delta: Record<string, string>, finishReason: 'stop' | null) =>
    encoder.encode(
      sseEvent(
        JSON.stringify({
          id,
          object: 'chat.completion.chunk',
          created,
          model: options.model,
          choices: [{ index: 0, delta, finish_reason: finishReason }],
        }),
      ),
    );
  const iterator = deltas[Symbol.asyncIterator]();
  let cancelled = false;

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      // OpenAI opens every stream with the role; the SDK's stream helpers rely on it.
      controller.enqueue(chunk({ role: 'assistant', content: '' }, null));
    },
    async pull(controller) {
      let next: IteratorResult<string>;
      try {
        next = await iterator.next();
      } catch {
        if (cancelled) return;
        // The status line is long gone: an error event is how the openai SDK learns of it.
        controller.enqueue(encoder.encode(sseEvent(JSON.stringify(upstreamInterrupted))));
        controller.close();
        return;
      }
      if (cancelled) return;
      if (next.done) {
        controller.enqueue(chunk({}, 'stop'));
        controller.enqueue(encoder.encode(sseEvent('[DONE]')));
        controller.close();
        return;
      }
      controller.enqueue(chunk({ content: next.value }, null));
    },
    async cancel() {
      cancelled = true;
      options.onCancel?.();
      await iterator.return?.();
    },
  });

  return new Response(body, {
    status: 200,
    headers: {
      ...corsHeaders(),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      ...options.headers,
    },
  });
}

async function jsonCompletion(deltas: AsyncIterable<string>, options: CompletionOptions): Promise<Response> {
  let content = '';
  try {
    for await (const delta of deltas) content += delta;
  } catch {
    return errorResponse(502, upstreamInterrupted.error.message, 'upstream_error', options.headers);
  }
  return json(
    200,
    {
      id: completionId(),
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: options.model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
    },
    options.headers,
  );
}

/** The reply, cut to MAX_REPLY_SENTENCES, as the client asked for it (streamed or in one piece). */
export function completionResponse(deltas: AsyncIterable<string> | Iterable<string>, options: CompletionOptions): Promise<Response> {
  const limited = limitToSentences(deltas, MAX_REPLY_SENTENCES);
  return options.stream ? Promise.resolve(streamResponse(limited, options)) : jsonCompletion(limited, options);
}
