/**
 * The live coach's server side: an OpenAI-compatible endpoint the browser's openai SDK talks to
 * (`<SUPABASE_URL>/functions/v1/coach` as its baseURL), so no provider key ever reaches the browser.
 *
 *   POST /coach/chat/completions  the reply to the conversation, streamed or in one piece
 *   POST /coach/rating            {conversationId, rating 1–5}: the visitor's rating, 204
 *
 * The function builds the prompt itself (persona, knowledge passages, bounded history) and counts
 * the conversation anonymously. Without OPENAI_API_KEY it answers from the knowledge base alone.
 */
import { corsHeaders, preflight, withAllowedOrigin } from '../_shared/cors.ts';
import { embeddingProvider } from '../_shared/embeddings.ts';
import { errorResponse, isRecord, readJson } from '../_shared/http.ts';
import { personaSystemPrompt } from '../_shared/persona.ts';
import { admit, estimateTokens, recordSpend } from '../_shared/guard.ts';
import { serviceClient, type ServiceClient } from '../_shared/supabase.ts';
import { parseChatRequest, type ChatMessage, type ChatRequest } from './chatRequest.ts';
import { coachConfig, type CoachConfig } from './config.ts';
import { completionResponse } from './completion.ts';
import { countMessage, isUuid, rateConversation } from './conversations.ts';
import { findPassages, knowledgeMessage, knowledgeTopics, type Passage } from './knowledge.ts';
import { answerDeltas, OFFLINE_MODEL, offlineAnswer } from './offline.ts';
import { PAUSED_ANSWER, PAUSED_MODEL } from './paused.ts';
import { openChatStream, type UsageReport } from './upstream.ts';

type Route = 'chat' | 'rating';

/** The route below the function's name (`/coach/...`), trailing slashes ignored. */
function routeOf(pathname: string): Route | null {
  const rest = pathname.replace(/^\/[^/]+/u, '').replace(/\/+$/u, '');
  if (rest === '/chat/completions') return 'chat';
  if (rest === '/rating') return 'rating';
  return null;
}

/** Bookkeeping must not cost the visitor the answer: it is logged and the reply goes on. */
function logged<T>(what: string, fallback: T): (error: unknown) => T {
  return (error) => {
    console.error(`[coach] ${what} failed:`, error instanceof Error ? error.message : error);
    return fallback;
  };
}

/**
 * The model's text as it streams, and afterwards (finished, failed or cancelled) the tokens it cost
 * are added to today's spend: as the model reported them, else estimated from the texts.
 */
async function* counted(
  deltas: AsyncGenerator<string>,
  usage: UsageReport,
  messages: ChatMessage[],
  env: Record<string, string>,
  release: () => Promise<void>,
): AsyncGenerator<string> {
  let completion = '';
  try {
    for await (const delta of deltas) {
      completion += delta;
      yield delta;
    }
  } finally {
    const prompt = messages.map((message) => message.content).join('\n');
    const tokens = usage.totalTokens ?? estimateTokens(prompt) + estimateTokens(completion);
    await Promise.all([recordSpend(env, 'model_tokens', tokens), release()]);
  }
}

/** The request's text and the knowledge search for it, started while the request is admitted. */
interface Prepared {
  chatRequest: ChatRequest | null;
  passages: Promise<Passage[]>;
}

/**
 * The answer to a chat request. A model answer holds the client's stream slot (`release`) until
 * its text has streamed; every other outcome frees it before returning.
 */
async function chat(
  request: Request,
  prepared: Prepared,
  config: CoachConfig,
  supabase: ServiceClient,
  env: Record<string, string>,
  release: () => Promise<void>,
): Promise<Response> {
  const slot = { handedOver: false };
  try {
    return await answer(request, prepared, config, supabase, env, release, () => {
      slot.handedOver = true;
    });
  } finally {
    if (!slot.handedOver) await release();
  }
}

async function answer(
  request: Request,
  { chatRequest, passages: searched }: Prepared,
  config: CoachConfig,
  supabase: ServiceClient,
  env: Record<string, string>,
  release: () => Promise<void>,
  handOver: () => void,
): Promise<Response> {
  if (!chatRequest) {
    return errorResponse(400, 'messages must end with a user message that has text', 'invalid_request');
  }

  const passages = await searched;
  // The count only has to be known for the response headers: it runs while the model starts, not
  // before it (nor beside the search, which the model waits for).
  const count = () => countMessage(supabase, request.headers.get('x-conversation-id')).catch(logged('counting the conversation', null));
  const headersWith = (conversationId: string | null): Record<string, string> => ({
    'x-coach-mode': config.openai ? 'model' : 'offline',
    ...(conversationId ? { 'x-conversation-id': conversationId } : {}),
  });

  if (!config.openai) {
    const [conversationId, topics] = await Promise.all([count(), knowledgeTopics(supabase).catch(logged('listing the knowledge', []))]);
    const headers = headersWith(conversationId);
    const answer = offlineAnswer(chatRequest.question, passages, topics);
    return completionResponse(answerDeltas(answer), { model: OFFLINE_MODEL, stream: chatRequest.stream, headers });
  }

  // Without a passage the model is told so, with what the knowledge base covers.
  const topics = passages.length === 0 ? await knowledgeTopics(supabase).catch(logged('listing the knowledge', [])) : [];
  const messages: ChatMessage[] = [
    { role: 'system', content: personaSystemPrompt },
    { role: 'system', content: knowledgeMessage(passages, topics) },
    ...chatRequest.history,
  ];
  const stop = new AbortController();
  request.signal.addEventListener('abort', () => stop.abort(), { once: true });
  const opening = openChatStream(config.openai, messages, stop.signal);
  // One turn of the event loop first, so the model's request is on its way before the count's.
  const counting = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(count);
  const [upstream, conversationId] = await Promise.all([opening, counting]);
  const headers = headersWith(conversationId);
  if (!upstream.ok) return errorResponse(502, `upstream_error: ${upstream.detail}`, 'upstream_error', headers);
  handOver();
  return completionResponse(counted(upstream.deltas, upstream.usage, messages, env, release), {
    model: config.openai.model,
    stream: chatRequest.stream,
    headers,
    onCancel: () => stop.abort(),
  });
}

async function rating(request: Request, supabase: ServiceClient): Promise<Response> {
  const body = await readJson(request);
  const value = isRecord(body) ? body.rating : undefined;
  if (!isRecord(body) || !isUuid(body.conversationId) || typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 5) {
    return errorResponse(400, 'expected {conversationId: uuid, rating: integer 1–5}', 'invalid_request');
  }
  if (!(await rateConversation(supabase, body.conversationId, value))) {
    return errorResponse(404, 'conversation not found', 'not_found');
  }
  return new Response(null, { status: 204, headers: corsHeaders() });
}

export async function handle(request: Request, env: Record<string, string>): Promise<Response> {
  return withAllowedOrigin(request, env, await respond(request, env));
}

async function respond(request: Request, env: Record<string, string>): Promise<Response> {
  if (request.method === 'OPTIONS') return preflight(request);
  const route = routeOf(new URL(request.url).pathname);
  if (!route) return errorResponse(404, 'not found: use POST /coach/chat/completions or /coach/rating', 'not_found');
  if (request.method !== 'POST') return errorResponse(405, 'method not allowed', 'method_not_allowed', { allow: 'POST, OPTIONS' });

  const config = coachConfig(env);
  const supabase = serviceClient(env);
  if (route === 'rating') {
    const gate = await admit(request, env, { fn: 'coach', spends: [] });
    return gate.ok ? rating(request, supabase) : gate.response;
  }

  // Only a model answer costs money and holds a stream slot; the offline answer is counted as a request.
  const admission = admit(request, env, { fn: 'coach', spends: config.openai ? ['model_tokens'] : [], stream: config.openai !== null });
  // The knowledge search is a database round trip or two on the way to the first word, so it runs
  // while the request is admitted; only the question's embedding (money) waits for the admission.
  const chatRequest = parseChatRequest(await readJson(request));
  const refused = new AbortController();
  const passages = chatRequest
    ? findPassages(
        supabase,
        embeddingProvider(env),
        chatRequest,
        AbortSignal.any([request.signal, refused.signal]),
        admission.then((gate) => gate.ok),
      ).catch(logged('the knowledge search', []))
    : Promise.resolve([]);
  const gate = await admission;
  if (!gate.ok) {
    refused.abort();
    if (gate.reason !== 'spend_cap_reached') return gate.response;
    // The day's budget is spent: the coach says so in its own words, as an ordinary answer.
    return completionResponse(answerDeltas(PAUSED_ANSWER), {
      model: PAUSED_MODEL,
      stream: chatRequest?.stream ?? false,
      headers: { 'x-coach-mode': 'paused' },
    });
  }
  return chat(request, { chatRequest, passages }, config, supabase, env, gate.release);
}
