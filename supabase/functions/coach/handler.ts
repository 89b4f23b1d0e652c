/**
 * The live coach's server side: an OpenAI-compatible endpoint the browser's openai SDK talks to
 * (`<SUPABASE_URL>/functions/v1/coach` as its baseURL), so no provider key ever reaches the browser.
 *
 *   POST /coach/chat/completions  the reply to the conversation, streamed or in one piece
 *   GET  /coach/chat/completions  204, nothing read or counted: the page's warm-up while the
 *                                 greeting plays (the browser caches the preflight for this URL,
 *                                 and on Supabase an instance is started), so the first question
 *                                 pays neither
 *   POST /coach/rating            {conversationId, rating 1–5}: the visitor's rating, 204
 *
 * The function builds the prompt itself (persona, knowledge passages, bounded history) and counts
 * the conversation anonymously. Without OPENAI_API_KEY it answers from the knowledge base alone.
 * A question the knowledge could not answer is kept for the operator (openQuestions.ts).
 */
import { inBackground } from '../_shared/background.ts';
import { corsHeaders, preflight, refuseForeignOrigin, withAllowedOrigin } from '../_shared/cors.ts';
import { embeddingProvider, metered, type EmbeddingProvider } from '../_shared/embeddings.ts';
import { errorResponse, isRecord } from '../_shared/http.ts';
import { personaSystemPrompt } from '../_shared/persona.ts';
import { admit, type Gate } from '../_shared/guard.ts';
import { declaredTooLarge, MAX_JSON_BODY_BYTES, readJsonUpTo } from '../_shared/requestBody.ts';
import { serviceClient, type ServiceClient } from '../_shared/supabase.ts';
import { parseChatRequest, type ChatMessage, type ChatRequest } from './chatRequest.ts';
import { coachConfig, type CoachConfig } from './config.ts';
import { completionResponse } from './completion.ts';
import { conversationFor, countAnswered, isUuid, rateConversation } from './conversations.ts';
import { findPassages, knowledgeMessage, knowledgeTopics, previousUserTurn } from './knowledge.ts';
import { answerDeltas, OFFLINE_MODEL, offlineReply } from './offline.ts';
import { keepOpenQuestion } from './openQuestions.ts';
import { PAUSED_ANSWER, PAUSED_MODEL } from './paused.ts';
import { admissionReserve, answerBound, billedTokens } from './spend.ts';
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

/** What an admitted request holds until its answer has been given: spend, stream slot, conversation. */
interface Held {
  gate: Extract<Gate, { ok: true }>;
  /** The question's embedding, metered (null without a language model key). */
  embeddings: (EmbeddingProvider & { meter: { tokens: number } }) | null;
  supabase: ServiceClient;
  /** Tokens reserved at admission. */
  reserved: number;
}

/**
 * The answer's text as it streams. Afterwards (finished, cut, failed or cancelled) the request is
 * settled with what the model billed (its usage, else the upper bound) and the embedding, its
 * stream slot freed, and, when text reached the visitor, the question counted in its conversation
 * and `afterAnswered` started (not awaited: it must not hold the end of the reply either).
 */
async function* settledAfter(
  deltas: AsyncIterable<string> | Iterable<string>,
  held: Held,
  conversationId: string,
  bill: () => number,
  afterAnswered?: () => void,
): AsyncGenerator<string> {
  let answered = false;
  try {
    for await (const delta of deltas) {
      answered ||= delta.trim() !== '';
      yield delta;
    }
  } finally {
    if (answered) afterAnswered?.();
    await Promise.all([
      held.gate.settle(bill() + (held.embeddings?.meter.tokens ?? 0)).then(() => held.gate.release()),
      answered ? countAnswered(held.supabase, conversationId).catch(logged('counting the conversation', undefined)) : null,
    ]);
  }
}

/** The day's spend is used up (the caps', or this client's): the coach says so, as an ordinary answer. */
async function pausedAnswer(request: Request): Promise<Response> {
  // Read only to answer in the format asked for; at most the body cap, and nothing else is done.
  const body = await readJsonUpTo(request, MAX_JSON_BODY_BYTES);
  const stream = body.ok && isRecord(body.value) && body.value.stream === true;
  return completionResponse(answerDeltas(PAUSED_ANSWER), { model: PAUSED_MODEL, stream, headers: { 'x-coach-mode': 'paused' } });
}

const tooLarge = () =>
  errorResponse(413, `request body too large: at most ${String(MAX_JSON_BODY_BYTES)} bytes`, 'too_large');

/**
 * The answer to an admitted chat request. Everything it holds (reservation, stream slot) is given
 * back before it returns, except for a model answer, which hands them to its stream.
 */
async function chat(request: Request, config: CoachConfig, held: Held): Promise<Response> {
  const handed = { over: false };
  try {
    return await answer(request, config, held, () => {
      handed.over = true;
    });
  } finally {
    if (!handed.over) {
      await held.gate.settle(held.embeddings?.meter.tokens ?? 0);
      await held.gate.release();
    }
  }
}

async function answer(request: Request, config: CoachConfig, held: Held, handOver: () => void): Promise<Response> {
  const body = await readJsonUpTo(request, MAX_JSON_BODY_BYTES);
  if (!body.ok) return tooLarge();
  const chatRequest: ChatRequest | null = parseChatRequest(body.value);
  if (!chatRequest) {
    return errorResponse(400, 'messages must end with a user message that has text', 'invalid_request');
  }
  const { supabase } = held;
  const passages = await findPassages(supabase, held.embeddings, chatRequest, request.signal).catch(logged('the knowledge search', []));
  // The conversation's id is needed only for the response headers: it is looked up while the
  // model starts, not before it.
  const conversation = () => conversationFor(supabase, request.headers.get('x-conversation-id'));
  const headersWith = (conversationId: string): Record<string, string> => ({
    'x-coach-mode': config.openai ? 'model' : 'offline',
    'x-conversation-id': conversationId,
  });
  // The knowledge could not answer (offline: the honest reply, for want of a passage or because
  // the closest one does not answer; with a model: no passage above the search's floor). Once the
  // reply has been given, the question is kept for the operator, in the background.
  const keepUnanswered = () =>
    inBackground(keepOpenQuestion(supabase, chatRequest.question, held.gate.client, config.openQuestionsPerDay).catch(logged('keeping the open question', null)));

  if (!config.openai) {
    const [conversationId, topics] = await Promise.all([
      conversation(),
      knowledgeTopics(supabase).catch(logged('listing the knowledge', [])),
    ]);
    const reply = offlineReply(chatRequest.question, passages, topics, previousUserTurn(chatRequest));
    handOver();
    const unanswered = reply.kind !== 'answer' ? keepUnanswered : undefined;
    return completionResponse(settledAfter(answerDeltas(reply.text), held, conversationId, () => 0, unanswered), {
      model: OFFLINE_MODEL,
      stream: chatRequest.stream,
      headers: headersWith(conversationId),
    });
  }

  // Without a passage the model is told so, with what the knowledge base covers.
  const topics = passages.length === 0 ? await knowledgeTopics(supabase).catch(logged('listing the knowledge', [])) : [];
  const messages: ChatMessage[] = [
    { role: 'system', content: personaSystemPrompt },
    { role: 'system', content: knowledgeMessage(passages, topics) },
    ...chatRequest.history,
  ];
  // Admission reserved an allowance for the knowledge; a longer message reserves the rest first.
  const needed = answerBound(messages) + (held.embeddings?.meter.tokens ?? 0) - held.reserved;
  if (needed > 0 && !(await held.gate.reserveMore(needed))) {
    return completionResponse(answerDeltas(PAUSED_ANSWER), { model: PAUSED_MODEL, stream: chatRequest.stream, headers: { 'x-coach-mode': 'paused' } });
  }

  const stop = new AbortController();
  request.signal.addEventListener('abort', () => stop.abort(), { once: true });
  const opening = openChatStream(config.openai, messages, stop.signal);
  // One turn of the event loop first, so the model's request is on its way before the look-up.
  const looking = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(conversation);
  const [upstream, conversationId] = await Promise.all([opening, looking]);
  const headers = headersWith(conversationId);
  if (!upstream.ok) return errorResponse(502, `upstream_error: ${upstream.detail}`, 'upstream_error', headers);
  handOver();
  const usage: UsageReport = upstream.usage;
  const unanswered = passages.length === 0 ? keepUnanswered : undefined;
  return completionResponse(settledAfter(upstream.deltas, held, conversationId, () => billedTokens(usage, messages), unanswered), {
    model: config.openai.model,
    stream: chatRequest.stream,
    headers,
    onCancel: () => stop.abort(),
  });
}

async function rating(request: Request, supabase: ServiceClient): Promise<Response> {
  const read = await readJsonUpTo(request, MAX_JSON_BODY_BYTES);
  if (!read.ok) return tooLarge();
  const body = read.value;
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
  if (request.method === 'GET' && route === 'chat') return new Response(null, { status: 204 });
  if (request.method !== 'POST') {
    return errorResponse(405, 'method not allowed', 'method_not_allowed', { allow: route === 'chat' ? 'GET, POST, OPTIONS' : 'POST, OPTIONS' });
  }
  // Nothing is read, searched or spent for a page of another site, or for a body over the cap.
  const foreign = refuseForeignOrigin(request, env);
  if (foreign) return foreign;
  if (declaredTooLarge(request, MAX_JSON_BODY_BYTES)) return tooLarge();

  const config = coachConfig(env);
  const supabase = serviceClient(env);
  if (route === 'rating') {
    const gate = await admit(request, env, { fn: 'coach' });
    return gate.ok ? rating(request, supabase) : gate.response;
  }

  // Admission comes first: a refused request reads no body and searches nothing. Only a model
  // answer costs money (reserved at its most) and holds a stream slot; an offline answer is
  // counted as a request.
  const provider = config.openai ? embeddingProvider(env) : null;
  const reserved = config.openai ? admissionReserve(request, provider !== null) : 0;
  const gate = await admit(request, env, {
    fn: 'coach',
    reserve: config.openai ? { kind: 'model_tokens', amount: reserved } : undefined,
    stream: config.openai !== null,
  });
  if (!gate.ok) {
    return gate.reason === 'spend_cap_reached' || gate.reason === 'budget_exhausted' ? pausedAnswer(request) : gate.response;
  }
  return chat(request, config, { gate, supabase, embeddings: provider ? metered(provider) : null, reserved });
}
