import type { CoachMessage, CoachMode } from '../../../services/coach';

/**
 * The chat panel's state: the messages shown, the conversation they belong to, and the rating.
 *
 * "The end" of a conversation is the visitor's choice: the 'Gespräch beenden' button (shown once
 * the coach has counted a conversation) stops listening and speaking and offers the optional 1–5
 * rating. Writing or speaking again afterwards starts a new conversation (a new id, a fresh
 * history), below a divider, so the earlier messages stay readable.
 */
export type ChatEntry =
  | { id: string; role: 'user'; content: string }
  /**
   * 'greeting' is the spoken welcome, 'reply' a streamed answer (part of the history sent to the
   * coach), 'error' a catalogue message shown in the coach's place (never sent back).
   */
  | { id: string; role: 'assistant'; content: string; kind: 'greeting' | 'reply' | 'error'; streaming: boolean }
  | { id: string; role: 'divider' };

export type RatingState =
  | { status: 'none' }
  | { status: 'sending' | 'sent' | 'failed'; value: number };

export interface ChatState {
  open: boolean;
  entries: ChatEntry[];
  conversationId: string | null;
  mode: CoachMode | null;
  ended: boolean;
  rating: RatingState;
}

export type ChatEvent =
  | { type: 'OPEN'; greeting: string }
  | { type: 'USER'; id: string; text: string }
  | { type: 'REPLY_START'; id: string }
  | { type: 'REPLY_TEXT'; id: string; text: string }
  | { type: 'REPLY_END'; id: string }
  /** Shows a catalogue message as the coach's answer (replacing an empty reply). */
  | { type: 'REPLY_ERROR'; id: string; message: string }
  | { type: 'META'; conversationId: string | null; mode: CoachMode }
  | { type: 'END' }
  | { type: 'RATING'; status: 'sending' | 'sent' | 'failed'; value: number };

export const initialChatState: ChatState = {
  open: false,
  entries: [],
  conversationId: null,
  mode: null,
  ended: false,
  rating: { status: 'none' },
};

function updateReply(entries: ChatEntry[], id: string, change: (entry: Extract<ChatEntry, { kind: string }>) => ChatEntry): ChatEntry[] {
  return entries.map((entry) => (entry.id === id && entry.role === 'assistant' ? change(entry) : entry));
}

export function chatReducer(state: ChatState, event: ChatEvent): ChatState {
  switch (event.type) {
    case 'OPEN':
      if (state.open) return state;
      return {
        ...state,
        open: true,
        entries: [{ id: 'greeting', role: 'assistant', content: event.greeting, kind: 'greeting', streaming: false }],
      };
    case 'USER': {
      const user: ChatEntry = { id: event.id, role: 'user', content: event.text };
      if (!state.ended) return { ...state, entries: [...state.entries, user] };
      return {
        ...state,
        entries: [...state.entries, { id: `divider-${event.id}`, role: 'divider' }, user],
        conversationId: null,
        ended: false,
        rating: { status: 'none' },
      };
    }
    case 'REPLY_START':
      return {
        ...state,
        entries: [...state.entries, { id: event.id, role: 'assistant', content: '', kind: 'reply', streaming: true }],
      };
    case 'REPLY_TEXT':
      return { ...state, entries: updateReply(state.entries, event.id, (entry) => ({ ...entry, content: event.text })) };
    case 'REPLY_END':
      return { ...state, entries: updateReply(state.entries, event.id, (entry) => ({ ...entry, streaming: false })) };
    case 'REPLY_ERROR':
      return {
        ...state,
        entries: updateReply(state.entries, event.id, (entry) => ({
          ...entry,
          content: event.message,
          kind: 'error',
          streaming: false,
        })),
      };
    case 'META':
      return { ...state, conversationId: event.conversationId ?? state.conversationId, mode: event.mode };
    case 'END':
      return state.conversationId === null ? state : { ...state, ended: true };
    case 'RATING':
      return { ...state, rating: { status: event.status, value: event.value } };
  }
}

/**
 * What the coach gets for a new message: the current conversation's messages (after the last
 * divider; catalogue messages and empty replies left out) and the new one, with the id to count
 * it under. After the visitor ended the conversation, a new one starts.
 */
export function nextRequest(state: ChatState, text: string): { history: CoachMessage[]; conversationId: string | null } {
  if (state.ended) return { history: [{ role: 'user', content: text }], conversationId: null };
  const lastDivider = state.entries.findLastIndex((entry) => entry.role === 'divider');
  const history: CoachMessage[] = [];
  for (const entry of state.entries.slice(lastDivider + 1)) {
    if (entry.role === 'user') history.push({ role: 'user', content: entry.content });
    else if (entry.role === 'assistant' && entry.kind !== 'error' && entry.content.trim() !== '') {
      history.push({ role: 'assistant', content: entry.content });
    }
  }
  history.push({ role: 'user', content: text });
  return { history, conversationId: state.conversationId };
}
