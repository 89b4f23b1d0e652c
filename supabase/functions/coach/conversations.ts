/**
 * Anonymous conversation counting for the admin dashboard: one row per coach session with its
 * start, last activity, number of answered questions and an optional rating. Nothing personal is
 * stored (no text, no address). Written with the service role, since visitors may not touch
 * `conversations` themselves. A row exists only for a question that got an answer: the id is
 * decided when the question arrives, the count written once the answer has been given.
 */
import type { ServiceClient } from '../_shared/supabase.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/**
 * The conversation a question belongs to: the id the browser sent when a stored conversation has
 * it, else a new id (first question, an old tab, a wiped database, a made-up id). When the
 * look-up fails (logged), a well-formed id is kept rather than the answer delayed.
 */
export async function conversationFor(supabase: ServiceClient, sent: string | null): Promise<string> {
  if (!isUuid(sent)) return crypto.randomUUID();
  const { data: rows, error } = await supabase
    .from('conversations')
    .select('id')
    .eq('id', sent)
    .limit(1)
    .retry(false); // see NO_READ_RETRIES in ../_shared/supabase.ts
  if (error) {
    console.error('[coach] looking up the conversation failed:', error.message);
    return sent;
  }
  return rows.length > 0 ? sent : crypto.randomUUID();
}

/**
 * Counts an answered question (`count_answered_question`, one atomic statement, so concurrent
 * questions of one session are all counted), creating the conversation with this id when it is
 * its first.
 */
export async function countAnswered(supabase: ServiceClient, id: string): Promise<void> {
  await supabase.rpc('count_answered_question', { conversation_id: id }).throwOnError();
}

/** Stores (or replaces) the visitor's 1–5 rating; false when there is no such conversation. */
export async function rateConversation(supabase: ServiceClient, id: string, rating: number): Promise<boolean> {
  const { data: updated } = await supabase.from('conversations').update({ rating }).eq('id', id).select('id').throwOnError();
  return updated.length > 0;
}
