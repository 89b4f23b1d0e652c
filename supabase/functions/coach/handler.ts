/**
 * The live coach's server side: an OpenAI-compatible endpoint the browser's openai SDK talks to
 * (`<SUPABASE_URL>/functions/v1/coach` as its baseURL), so no provider key ever reaches the browser.
 *
 *   POST /coach/chat/completions  the reply to the conversation, streamed or in one piece
 *   GET  /coach/chat/completions  204, nothing read or counted: the page's warm-up while the
 *                                 greeting plays (the browser caches the preflight for this URL,
 *                                 and on Supabase an instance is started), so the first question
 *                                 pays neither
 *   POST /coach/rating            {conversationId, rating 1–5}: the visitor's rating, once, 204
 *
 * The function builds the prompt itself (persona, knowledge passages, bounded history) and counts
 * the conversation anonymously. Without OPENAI_API_KEY it answers from the knowledge base alone.
 * A question the knowledge could not answer is kept for the operator (openQuestions.ts).
 */
import { inBackground } from '../_shared/background.ts';
import { reportBudgetFit } from '../_shared/budgetFit.ts';
import { corsHeaders, preflight, refuseForeignOrigin, withAllowedOrigin } from '../_shared/cors.ts';
import { embeddingProvider, metered, type EmbeddingProvider } from '../_shared/embeddings.ts';
import { errorResponse, isRecord } from '../_shared/http.ts';
import { personaSystemPrompt } from '../_shared/persona.ts';
import { admitCaller, identify, type Caller, type Gate } from '../_shared/guard.ts';
import { declaredTooLarge, MAX_JSON_BODY_BYTES, readJsonUpTo, type JsonRead } from '../_shared/requestBody.ts';
import { serviceClient, type ServiceClient } from '../_shared/supabase.ts';
import { parseChatRequest, type ChatMessage, type ChatRequest } from './chatRequest.ts';
import { coachConfig, type CoachConfig } from './config.ts';
import { completionResponse } from './completion.ts';
import { conversationFor, countAnswered, rateConversation, verifyConversation } from './conversations.ts';
import { knowledgeMessage, knowledgeTopics, previousUserTurn, startSearch, type Passage } from './knowledge.ts';
import { answerDeltas, OFFLINE_MODEL, offlineReply } from './offline.ts';
import { keepOpenQuestion } from './openQuestions.ts';
import { PAUSED_ANSWER, PAUSED_MODEL } from './paused.ts';
import { answerBound, billedTokens, embeddingBound } from './spend.ts';
import { openChatStream } from './upstream.ts';

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

type Admitted = Extract<Gate, { ok: true }>;

/** What the request is about, once its body has been read. */
interface Question {
  chat: ChatRequest;
  /** The conversation's id, and the signed form the browser keeps. */
  conversation: Promise<{ id: string; token: string }>;
}

/**
 * Everything that ends with the answer, done once however the answer ends (streamed to the end,
 * cut, failed, cancelled by the visitor before or after its first piece): the spend settled with
 * what the model billed (its usage, else the upper bound) and the embedding, the stream slot
 * freed, and, when text reached the visitor, the question counted in its conversation and
 * `afterAnswered` started (not awaited: it must not hold the end of the reply either).
 */
function answerEnd(gate: Admitted, supabase: ServiceClient, conversationId: string, bill: () => number, afterAnswered?: () => void) {
  let answered = false;
  let ended: Promise<unknown> | null = null;
  return {
    heard(delta: string) {
      answered ||= delta.trim() !== '';
    },
    end(): Promise<unknown> {
      if (ended === null && answered) afterAnswered?.();
      ended ??= Promise.all([
        gate.settle(bill()).then(() => gate.release()),
        answered ? countAnswered(supabase, conversationId).catch(logged('counting the conversation', undefined)) : null,
      ]);
      return ended;
    },
  };
}

/** The answer's pieces as they stream; its end (see answerEnd) once they have. */
async function* endingWith(deltas: AsyncIterable<string> | Iterable<string>, end: ReturnType<typeof answerEnd>): AsyncGenerator<string> {
  try {
    for await (const delta of deltas) {
      end.heard(delta);
      yield delta;
    }
  } finally {
    await end.end();
  }
}

/** The day's spend is used up (the caps', or this client's, network's or session's): the coach says so, as an ordinary answer. */
function pausedAnswer(stream: boolean): Promise<Response> {
  return completionResponse(answerDeltas(PAUSED_ANSWER), { model: PAUSED_MODEL, stream, headers: { 'x-coach-mode': 'paused' } });
}

const tooLarge = () => errorResponse(413, `request body too large: at most ${String(MAX_JSON_BODY_BYTES)} bytes`, 'too_large');
const tooSlow = () => errorResponse(408, 'the request body did not arrive in time', 'body_timeout');
const unreadable = (read: Extract<JsonRead, { ok: false }>) => (read.problem === 'too_large' ? tooLarge() : tooSlow());

/**
 * The knowledge could not answer (offline: the honest reply, for want of a passage or because the
 * closest one does not answer; with a model: no passage above the search's floor). Once the reply
 * has been given, the question is kept for the operator, in the background.
 */
function keepUnanswered(supabase: ServiceClient, gate: Admitted, question: string, perDay: number): () => void {
  return () => inBackground(keepOpenQuestion(supabase, question, gate.client, perDay).catch(logged('keeping the open question', null)));
}

/** The answer without a language model: from the knowledge base alone, nothing spent. */
async function offline(request: Request, caller: Caller, env: Record<string, string>, openQuestionsPerDay: number, question: Question): Promise<Response> {
  const gate = await admitCaller(caller, env, { fn: 'coach' });
  if (!gate.ok) return gate.response;
  const supabase = serviceClient(env);
  const { chat } = question;
  const search = startSearch(supabase, null, chat, request.signal);
  const [found, topics, conversation] = await Promise.all([
    search.fullText.catch(logged('the knowledge search', { passages: [], final: true })),
    knowledgeTopics(supabase).catch(logged('listing the knowledge', [])),
    question.conversation,
  ]);
  const reply = offlineReply(chat.question, found.passages, topics, previousUserTurn(chat));
  const unanswered = reply.kind !== 'answer' ? keepUnanswered(supabase, gate, chat.question, openQuestionsPerDay) : undefined;
  const end = answerEnd(gate, supabase, conversation.id, () => 0, unanswered);
  return completionResponse(endingWith(answerDeltas(reply.text), end), {
    model: OFFLINE_MODEL,
    stream: chat.stream,
    headers: { 'x-coach-mode': 'offline', 'x-conversation-id': conversation.token },
    onCancel: () => void end.end(),
  });
}

/** The prompt for these passages: persona, knowledge (or, without a passage, what the knowledge base covers), history. */
async function promptWith(supabase: ServiceClient, passages: Passage[], chat: ChatRequest): Promise<ChatMessage[]> {
  const topics = passages.length === 0 ? await knowledgeTopics(supabase).catch(logged('listing the knowledge', [])) : [];
  return [{ role: 'system', content: personaSystemPrompt }, { role: 'system', content: knowledgeMessage(passages, topics) }, ...chat.history];
}

/**
 * The model's answer. The full-text search runs first (it costs the database only); admission
 * then reserves exactly this prompt, a full reply and, when the hybrid search still needs it, the
 * question's embedding. Everything held is given back before this returns, except for a model
 * answer, which hands it to its stream.
 */
async function modelAnswer(
  request: Request,
  caller: Caller,
  env: Record<string, string>,
  config: NonNullable<CoachConfig['openai']>,
  openQuestionsPerDay: number,
  question: Question,
): Promise<Response> {
  const supabase = serviceClient(env);
  const { chat } = question;
  const provider: EmbeddingProvider | null = embeddingProvider(env);
  const embeddings = provider ? metered(provider) : null;
  const search = startSearch(supabase, embeddings, chat, request.signal);
  const found = await search.fullText.catch(logged('the knowledge search', { passages: [] as Passage[], final: true }));
  let passages = found.passages;
  let messages = await promptWith(supabase, passages, chat);
  const reserved = answerBound(messages) + (found.final || !embeddings ? 0 : embeddingBound(chat));
  const gate = await admitCaller(caller, env, { fn: 'coach', reserve: { kind: 'model_tokens', amount: reserved }, stream: true });
  if (!gate.ok) {
    return gate.reason === 'spend_cap_reached' || gate.reason === 'budget_exhausted' ? pausedAnswer(chat.stream) : gate.response;
  }
  const embedded = () => embeddings?.meter.tokens ?? 0;
  const handed = { over: false };
  try {
    if (!found.final) {
      const fused = await search.hybrid().catch(logged('the hybrid search', null));
      if (fused !== null) {
        passages = fused;
        messages = await promptWith(supabase, passages, chat);
      }
      // Longer passages than the full-text search found: the rest is reserved before the model is asked.
      const needed = answerBound(messages) + embedded() - reserved;
      if (needed > 0 && !(await gate.reserveMore(needed))) return await pausedAnswer(chat.stream);
    }
    const stop = new AbortController();
    request.signal.addEventListener('abort', () => stop.abort(), { once: true });
    const opening = openChatStream(config, messages, stop.signal);
    // One turn of the event loop first, so the model's request is on its way before the signature.
    const signing = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => question.conversation);
    const [upstream, conversation] = await Promise.all([opening, signing]);
    const headers = { 'x-coach-mode': 'model', 'x-conversation-id': conversation.token };
    if (!upstream.ok) return errorResponse(502, `upstream_error: ${upstream.detail}`, 'upstream_error', headers);
    const unanswered = passages.length === 0 ? keepUnanswered(supabase, gate, chat.question, openQuestionsPerDay) : undefined;
    const end = answerEnd(gate, supabase, conversation.id, () => billedTokens(upstream.usage, messages) + embedded(), unanswered);
    handed.over = true;
    return await completionResponse(endingWith(upstream.deltas, end), {
      model: config.model,
      stream: chat.stream,
      headers,
      // Cancelled before its first piece was pulled, the stream never ran: its end comes from here.
      onCancel: () => {
        stop.abort();
        void end.end();
      },
    });
  } finally {
    if (!handed.over) {
      await gate.settle(embedded());
      await gate.release();
    }
  }
}

async function rating(request: Request, caller: Caller, env: Record<string, string>): Promise<Response> {
  const read = await readJsonUpTo(request, MAX_JSON_BODY_BYTES);
  if (!read.ok) return unreadable(read);
  const gate = await admitCaller(caller, env, { fn: 'coach' });
  if (!gate.ok) return gate.response;
  const body = read.value;
  const value = isRecord(body) ? body.rating : undefined;
  if (!isRecord(body) || typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 5) {
    return errorResponse(400, 'expected {conversationId, rating: integer 1–5}', 'invalid_request');
  }
  // Only a conversation this coach signed can be rated: a made-up id is as unknown as a deleted one.
  const id = await verifyConversation(body.conversationId, env);
  const outcome = id === null ? 'not_found' : await rateConversation(serviceClient(env), id, value);
  if (outcome === 'not_found') return errorResponse(404, 'conversation not found', 'not_found');
  if (outcome === 'already_rated') return errorResponse(409, 'this conversation has been rated already', 'already_rated');
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

  reportBudgetFit('coach', env);
  // Who is asking, without a round trip: no address, no session where one is required, or the
  // instance's first filter refuses before the body is read.
  const caller = identify(request, env, 'coach');
  if (!caller.ok) return caller.response;
  if (route === 'rating') return rating(request, caller, env);

  const read = await readJsonUpTo(request, MAX_JSON_BODY_BYTES);
  if (!read.ok) return unreadable(read);
  const chat = parseChatRequest(read.value);
  if (!chat) return errorResponse(400, 'messages must end with a user message that has text', 'invalid_request');
  const question: Question = { chat, conversation: conversationFor(request.headers.get('x-conversation-id'), env) };
  const config = coachConfig(env);
  return config.openai
    ? modelAnswer(request, caller, env, config.openai, config.openQuestionsPerDay, question)
    : offline(request, caller, env, config.openQuestionsPerDay, question);
}
