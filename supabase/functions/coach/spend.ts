/**
 * What a coach answer may cost, reserved before the model is asked, and what it cost, settled
 * after (see ../_shared/guard.ts). Both count in model tokens, prompt and reply together, plus the
 * question's embedding for the hybrid search.
 *
 * Admission comes once the body has been read and the full-text search has found the passages,
 * so the reservation is the request's own: the prompt the model will be sent (persona, the
 * knowledge message of the passages found, the bounded history) at one token per UTF-8 byte
 * (../_shared/tokenBounds.ts), a full reply, and the question's embedding when the search still
 * needs it. The rare hybrid search that finds longer passages reserves the rest (`reserveMore`)
 * before the model is asked, or answers paused.
 */
import { promptTokenBound, textTokenBound } from '../_shared/tokenBounds.ts';
import type { ChatMessage, ChatRequest } from './chatRequest.ts';
import { embeddingInput } from './knowledge.ts';
import { MAX_TOKENS, type UsageReport } from './upstream.ts';

/** The most the model can bill for these messages: the prompt's bound and a full reply. */
export function answerBound(messages: readonly ChatMessage[]): number {
  return promptTokenBound(messages) + MAX_TOKENS;
}

/** The most the question's embedding can bill: its input's bytes. */
export function embeddingBound(request: Pick<ChatRequest, 'question' | 'history'>): number {
  return textTokenBound(embeddingInput(request));
}

/**
 * What the model billed: its reported usage, else (the stream was cut at the fourth sentence, the
 * visitor left, the model broke off) the upper bound, since a provider bills what it generated
 * before it noticed the connection closing.
 */
export function billedTokens(usage: UsageReport, messages: readonly ChatMessage[]): number {
  return usage.totalTokens ?? answerBound(messages);
}
