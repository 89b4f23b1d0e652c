/**
 * What a coach answer may cost, reserved before it is asked for, and what it cost, settled after
 * (see ../_shared/guard.ts). Both count in model tokens, prompt and reply together, plus the
 * question's embedding for the hybrid search.
 *
 * Admission happens before the body is read, so its reservation bounds the request by its size:
 * the history's text is never longer in UTF-8 bytes than the JSON body that carries it, and
 * tokens never outnumber bytes (../_shared/tokenBounds.ts). The knowledge passages are not known
 * then either; an allowance covers them, and the rare longer knowledge message reserves the rest
 * once the prompt is built (`reserveMore`), before the model is asked.
 */
import { personaSystemPrompt } from '../_shared/persona.ts';
import { declaredBodyBytes, MAX_JSON_BODY_BYTES } from '../_shared/requestBody.ts';
import { promptTokenBound, TOKENS_PER_MESSAGE } from '../_shared/tokenBounds.ts';
import { MAX_HISTORY_MESSAGES, MAX_MESSAGE_CHARS, type ChatMessage } from './chatRequest.ts';
import { MAX_TOKENS, type UsageReport } from './upstream.ts';

/** Tokens held for the knowledge message at admission: five passages of usual length with their markers. */
export const KNOWLEDGE_TOKEN_ALLOWANCE = 8000;

/** The question's embedding input: the question and the previous user turn, 3 bytes a UTF-16 unit at most. */
const EMBEDDING_INPUT_BOUND = 2 * MAX_MESSAGE_CHARS * 3;

/** The most a chat request with this body can cost, before the body is read. */
export function admissionReserve(request: Request, withEmbedding: boolean): number {
  const body = Math.min(declaredBodyBytes(request) ?? MAX_JSON_BODY_BYTES, MAX_JSON_BODY_BYTES);
  const prompt =
    promptTokenBound([{ content: personaSystemPrompt }]) +
    TOKENS_PER_MESSAGE +
    KNOWLEDGE_TOKEN_ALLOWANCE +
    MAX_HISTORY_MESSAGES * TOKENS_PER_MESSAGE +
    body;
  return prompt + MAX_TOKENS + (withEmbedding ? Math.min(body, EMBEDDING_INPUT_BOUND) : 0);
}

/** The most the model can bill for these messages: the prompt's bound and a full reply. */
export function answerBound(messages: readonly ChatMessage[]): number {
  return promptTokenBound(messages) + MAX_TOKENS;
}

/**
 * What the model billed: its reported usage, else (the stream was cut at the fourth sentence, the
 * visitor left, the model broke off) the upper bound, since a provider bills what it generated
 * before it noticed the connection closing.
 */
export function billedTokens(usage: UsageReport, messages: readonly ChatMessage[]): number {
  return usage.totalTokens ?? answerBound(messages);
}
