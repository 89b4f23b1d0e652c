/**
 * What the coach takes from a client's chat request, and nothing more. The browser holds no
 * secret, so anything it sends is untrusted: system messages, model, temperature and max_tokens are
 * ignored (the function sets its own), and the history is bounded so a client cannot inflate the
 * prompt (and the bill).
 */
import { isRecord } from '../_shared/http.ts';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  /** User and assistant messages, oldest first, bounded; the last one is the question. */
  history: ChatMessage[];
  /** The latest user message: what the knowledge base is searched for. */
  question: string;
  /** OpenAI's semantics: server-sent events only when the client asks for `stream: true`. */
  stream: boolean;
}

export const MAX_HISTORY_MESSAGES = 20;
export const MAX_MESSAGE_CHARS = 2000;

/** The first `max` characters, without splitting a surrogate pair (an emoji) in half. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? max - 1 : max;
  return text.slice(0, end);
}

function conversationMessage(value: unknown): ChatMessage | null {
  if (!isRecord(value) || typeof value.content !== 'string') return null;
  if (value.role !== 'user' && value.role !== 'assistant') return null;
  return { role: value.role, content: cut(value.content, MAX_MESSAGE_CHARS) };
}

/** The bounded request, or null when it has no non-blank user message last. */
export function parseChatRequest(body: unknown): ChatRequest | null {
  if (!isRecord(body) || !Array.isArray(body.messages)) return null;
  const history = (body.messages as unknown[])
    .map(conversationMessage)
    .filter((message): message is ChatMessage => message !== null)
    .slice(-MAX_HISTORY_MESSAGES);
  const last = history.at(-1);
  if (last?.role !== 'user' || last.content.trim() === '') return null;
  return { history, question: last.content.trim(), stream: body.stream === true };
}
