/**
 * Anonymous conversation counting for the admin dashboard: one row per coach session with its
 * start, last activity, number of user messages and an optional rating. Nothing personal is
 * stored (no text, no address). Written with the service role, since visitors may not touch
 * `conversations` themselves.
 */
import type { ServiceClient } from '../_shared/supabase.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/**
 * Counts a user message in the conversation `id`, or starts a new conversation when the id is
 * missing or unknown (an old tab, a wiped database): one atomic SQL call
 * (`count_conversation_message`), so concurrent messages of one session are all counted. Returns
 * the id the client should send next time.
 */
export async function countMessage(supabase: ServiceClient, id: string | null): Promise<string> {
  // Without an id the function's default (null) starts a new conversation.
  const { data: counted } = await supabase
    .rpc('count_conversation_message', isUuid(id) ? { conversation_id: id } : {})
    .throwOnError();
  if (!isUuid(counted)) throw new Error('count_conversation_message returned no id');
  return counted;
}

/** Stores (or replaces) the visitor's 1–5 rating; false when there is no such conversation. */
export async function rateConversation(supabase: ServiceClient, id: string, rating: number): Promise<boolean> {
  const { data: updated } = await supabase.from('conversations').update({ rating }).eq('id', id).select('id').throwOnError();
  return updated.length > 0;
}
