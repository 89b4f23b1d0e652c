/**
 * Anonymous conversation counting for the admin dashboard: one row per coach session with its
 * start, last activity, number of user messages and an optional rating. Nothing personal is
 * stored (no text, no address). Written with the service role, since visitors may not touch
 * `conversations` themselves.
 */
import { isRecord } from '../_shared/http.ts';
import { rpc, serviceFetch, type SupabaseEnv } from '../_shared/supabase.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

function rows(body: unknown): Record<string, unknown>[] {
  return Array.isArray(body) ? body.filter(isRecord) : [];
}

const returnRows = { prefer: 'return=representation' };

/**
 * Counts a user message in the conversation `id`, or starts a new conversation when the id is
 * missing or unknown (an old tab, a wiped database): one atomic SQL call
 * (`count_conversation_message`), so concurrent messages of one session are all counted. Returns
 * the id the client should send next time.
 */
export async function countMessage(supabase: SupabaseEnv, id: string | null): Promise<string> {
  const counted = await rpc(supabase, 'count_conversation_message', { conversation_id: isUuid(id) ? id : null });
  if (!isUuid(counted)) throw new Error('count_conversation_message returned no id');
  return counted;
}

/** Stores (or replaces) the visitor's 1–5 rating; false when there is no such conversation. */
export async function rateConversation(supabase: SupabaseEnv, id: string, rating: number): Promise<boolean> {
  const updated = rows(
    await serviceFetch(supabase, `/rest/v1/conversations?id=eq.${encodeURIComponent(id)}&select=id`, {
      method: 'PATCH',
      body: { rating },
      headers: returnRows,
    }),
  );
  return updated.length > 0;
}
