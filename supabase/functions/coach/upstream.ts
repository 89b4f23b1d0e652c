/**
 * The language model behind the coach: any OpenAI-compatible `chat/completions` endpoint
 * (OpenAI, or Ollama, LM Studio, vLLM through OPENAI_BASE_URL), called with plain fetch. The
 * function decides the model and the limits, whatever the browser asked for. Failure details
 * returned from here never contain the provider's answer, which may echo part of the key.
 */
import { REPLY_MAX_TOKENS } from '../_shared/budgetFit.ts';
import { isRecord } from '../_shared/http.ts';
import { readSseData } from '../_shared/sse.ts';
import type { ChatMessage } from './chatRequest.ts';

export const TEMPERATURE = 0.5;
export const MAX_TOKENS = REPLY_MAX_TOKENS;
/** How long the model may take to start answering before the coach gives up on it. */
const HEADERS_TIMEOUT_MS = 30_000;
/**
 * How long a whole answer may take: 500 tokens come in well under a minute from any usable model;
 * a stream that stalls is cut here (the visitor has the text so far) instead of holding the
 * connection, the stream slot and the reservation.
 */
export const ANSWER_TIMEOUT_MS = 90_000;

export interface ModelSettings {
  apiKey: string;
  baseUrl: string;
  model: string;
}

/** The model failed after it had started answering. */
export class UpstreamStreamError extends Error {}

/** Tokens the model reported for the request (prompt + completion); null until it reports them. */
export interface UsageReport {
  totalTokens: number | null;
}

export type UpstreamResult = { ok: true; deltas: AsyncGenerator<string>; usage: UsageReport } | { ok: false; detail: string };

/** `usage.total_tokens` of a completion or of the last stream event (`stream_options.include_usage`). */
function readUsage(value: unknown, usage: UsageReport): void {
  if (!isRecord(value) || !isRecord(value.usage)) return;
  const total = value.usage.total_tokens;
  if (typeof total === 'number' && Number.isFinite(total) && total >= 0) usage.totalTokens = total;
}

function firstChoice(value: unknown): Record<string, unknown> | null {
  if (!isRecord(value) || !Array.isArray(value.choices)) return null;
  const choice: unknown = value.choices[0];
  return isRecord(choice) ? choice : null;
}

/** The content pieces of an OpenAI chat completion event stream. */
async function* streamedContent(body: ReadableStream<Uint8Array>, usage: UsageReport): AsyncGenerator<string> {
  for await (const data of readSseData(body)) {
    if (data.trim() === '[DONE]') return;
    let event: unknown;
    try {
      event = JSON.parse(data);
    } catch {
      continue; // not an event we understand; the next one may be
    }
    if (isRecord(event) && event.error !== undefined) throw new UpstreamStreamError('the model reported an error mid-stream');
    readUsage(event, usage);
    const delta = firstChoice(event)?.delta;
    const content = isRecord(delta) ? delta.content : undefined;
    if (typeof content === 'string' && content !== '') yield content;
  }
}

/** A server that ignores `stream: true` answers one completion; its text becomes one delta. */
async function* completeContent(response: Response, usage: UsageReport): AsyncGenerator<string> {
  const completion: unknown = await response.json();
  readUsage(completion, usage);
  const message = firstChoice(completion)?.message;
  const content = isRecord(message) ? message.content : undefined;
  if (typeof content === 'string' && content !== '') yield content;
}

/** `deltas` passed through; `done` runs once they have ended, however. */
async function* untilDone(deltas: AsyncGenerator<string>, done: () => void): AsyncGenerator<string> {
  try {
    yield* deltas;
  } finally {
    done();
  }
}

/**
 * Starts a streamed completion. Resolves once the model has answered with its status, so the
 * caller can still reply with an error status; the text then arrives through `deltas`. Aborting
 * `signal` (the visitor left) closes the connection to the model.
 */
export async function openChatStream(settings: ModelSettings, messages: ChatMessage[], signal: AbortSignal): Promise<UpstreamResult> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  signal.addEventListener('abort', abort, { once: true });
  const timer = setTimeout(abort, HEADERS_TIMEOUT_MS);
  const whole = setTimeout(abort, ANSWER_TIMEOUT_MS);
  // The timer must not keep an instance (or a test's process) alive once the answer has ended.
  controller.signal.addEventListener('abort', () => clearTimeout(whole), { once: true });
  let response: Response;
  try {
    response = await fetch(`${settings.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${settings.apiKey}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify({
        model: settings.model,
        messages,
        temperature: TEMPERATURE,
        max_tokens: MAX_TOKENS,
        stream: true,
        // The last event then reports the tokens used, which the spend cap counts.
        stream_options: { include_usage: true },
      }),
      signal: controller.signal,
    });
  } catch {
    clearTimeout(whole);
    return { ok: false, detail: controller.signal.aborted ? 'no response in time' : 'network error' };
  } finally {
    clearTimeout(timer);
  }
  if (!response.ok) {
    clearTimeout(whole);
    await response.body?.cancel().catch(() => undefined);
    return { ok: false, detail: `HTTP ${String(response.status)}` };
  }
  const usage: UsageReport = { totalTokens: null };
  const body = response.body;
  const json = (response.headers.get('content-type') ?? '').includes('application/json');
  const content = !body ? completeContent(new Response('{}'), usage) : json ? completeContent(response, usage) : streamedContent(body, usage);
  return { ok: true, deltas: untilDone(content, () => clearTimeout(whole)), usage };
}
