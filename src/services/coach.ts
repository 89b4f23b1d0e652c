/**
 * The live coach's calls: the chat (an OpenAI-compatible endpoint of the project's `coach`
 * function, through the `openai` SDK) and the conversation rating (edgeFunctions.ts, as every
 * other call of a function).
 *
 * The SDK runs in the browser with `dangerouslyAllowBrowser`. That flag guards against shipping a
 * secret OpenAI key to visitors; here the "API key" is the project's public anon key (it is in
 * every page anyway and only identifies the project), and the SDK talks to our function, not to
 * OpenAI. The real provider key stays on the server, in the function's environment.
 *
 * The SDK is imported lazily, so it lands only in the coach route's chunks.
 */
import type OpenAI from 'openai';
import { env } from '../config/env';
import { callFunction, functionUrl } from './edgeFunctions';
import { visitorToken } from './visitorSession';

export interface CoachMessage {
  role: 'user' | 'assistant';
  content: string;
}

/** 'offline': the function has no language model and answers from the knowledge base alone. */
export type CoachMode = 'model' | 'offline';

export interface CoachReply {
  /** The conversation this reply belongs to; send it with the next message. */
  conversationId: string | null;
  mode: CoachMode;
  /** The reply's text, piece by piece as it streams. Throws CoachCallError if the stream breaks. */
  deltas: AsyncIterable<string>;
}

/** The call failed (network, refused, server error). Aborts are rethrown as they are. */
export class CoachCallError extends Error {
  override readonly name = 'CoachCallError';
  constructor(
    detail: string,
    readonly status: number | null,
  ) {
    super(detail);
  }
}

let client: Promise<OpenAI> | null = null;

function coachClient(): Promise<OpenAI> {
  client ??= import('openai').then(
    ({ default: OpenAIClient }) =>
      new OpenAIClient({
        baseURL: functionUrl('coach'),
        apiKey: env.VITE_SUPABASE_ANON_KEY,
        dangerouslyAllowBrowser: true,
        // A visitor waits for the answer: no silent retries with back-off; the page says what failed.
        maxRetries: 0,
        timeout: 30_000,
      }),
    (error: unknown) => {
      client = null;
      throw error;
    },
  );
  return client;
}

/**
 * Starts loading the SDK ahead of the first question (the page calls it when the chat opens);
 * resolves when it is loaded, or could not be (the question then says so).
 */
export function preloadCoach(): Promise<void> {
  return coachClient().then(
    () => undefined,
    () => undefined,
  );
}

let warmedUp = false;

/**
 * Gets the first question's way ready: one request to the function through the SDK (`GET
 * …/coach/chat/completions`, answered 204 with nothing read or counted). Its CORS preflight is the
 * one the first question would need (same URL, the SDK's same headers), so the browser has it
 * cached by then; on Supabase it also starts an instance of the function. Once per page view; the
 * session calls it once the greeting sounds, so that it does not compete with the greeting.
 * Resolves when the request is answered (at once when it was sent before).
 */
export function warmUpCoach(): Promise<void> {
  if (warmedUp) return Promise.resolve();
  warmedUp = true;
  return coachClient()
    .then((openai) => openai.get('/chat/completions', { maxRetries: 0 }))
    .then(
      () => undefined,
      () => undefined,
    );
}

function isAbort(error: unknown, signal?: AbortSignal): boolean {
  return signal?.aborted === true || (error instanceof Error && error.name === 'AbortError');
}

function callError(error: unknown): CoachCallError {
  const status = typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number' ? error.status : null;
  return new CoachCallError(error instanceof Error ? error.message : String(error), status);
}

async function* textOf(
  stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>,
  signal?: AbortSignal,
): AsyncGenerator<string> {
  try {
    for await (const chunk of stream) {
      const content = chunk.choices[0]?.delta.content;
      if (content) yield content;
    }
  } catch (error) {
    if (isAbort(error, signal)) throw error;
    throw callError(error);
  }
}

/**
 * Asks the coach. `messages` is the conversation so far, ending with the visitor's message; the
 * function adds the persona and the knowledge itself and ignores any system message or model
 * choice from the browser.
 */
export async function startCoachReply(
  messages: readonly CoachMessage[],
  { conversationId, signal }: { conversationId?: string | null; signal?: AbortSignal } = {},
): Promise<CoachReply> {
  try {
    const [openai, token] = await Promise.all([coachClient(), visitorToken()]);
    const { data, response } = await openai.chat.completions
      .create(
        // The function decides the model; the SDK's type only needs a name here.
        { model: 'coach', messages: messages.map(({ role, content }) => ({ role, content })), stream: true },
        {
          signal: signal ?? null,
          // The visitor's session where Turnstile asks for one (./visitorSession.ts), else the anon key.
          headers: { Authorization: `Bearer ${token}`, ...(conversationId ? { 'x-conversation-id': conversationId } : {}) },
        },
      )
      .withResponse();
    return {
      conversationId: response.headers.get('x-conversation-id') ?? conversationId ?? null,
      mode: response.headers.get('x-coach-mode') === 'offline' ? 'offline' : 'model',
      deltas: textOf(data, signal),
    };
  } catch (error) {
    if (isAbort(error, signal)) throw error;
    throw callError(error);
  }
}

/**
 * Rates a conversation 1–5, once: the coach keeps the first rating (a second one is refused, 409).
 * Made as the visitor (./visitorSession.ts). Rejects with FunctionCallError or VisitorSessionError.
 */
export async function sendRating(conversationId: string, rating: number): Promise<void> {
  await callFunction('coach', { path: 'rating', json: { conversationId, rating }, accessToken: await visitorToken() });
}
