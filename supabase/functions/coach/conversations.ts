/**
 * Anonymous conversation counting for the admin dashboard: one row per coach session with its
 * start, last activity, number of user messages and an optional rating. Nothing personal is
 * stored (no text, no address). Written with the service role, since visitors may not touch
 * `conversations` themselves.
 */
import { isRecord } from '../_shared/http.ts';
import { serviceFetch, type SupabaseEnv } from '../_shared/supabase.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu;
/** Optimistic updates retried this often when other requests of the same session interleave. */
const ATTEMPTS = 5;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

function rows(body: unknown): Record<string, unknown>[] {
  return Array.isArray(body) ? body.filter(isRecord) : [];
}

const returnRows = { prefer: 'return=representation' };

async function startConversation(supabase: SupabaseEnv): Promise<string> {
  const created = rows(
    await serviceFetch(supabase, '/rest/v1/conversations?select=id', {
      method: 'POST',
      body: { message_count: 1 },
      headers: returnRows,
    }),
  )[0];
  if (!isUuid(created?.id)) throw new Error('conversations insert returned no id');
  return created.id;
}

/**
 * Counts a user message in the conversation `id`; starts a new conversation when the id is missing
 * or unknown (an old tab, a wiped database). Returns the id the client should send next time.
 *
 * PostgREST cannot increment a column, so the count is read and written back on the condition that
 * it is unchanged, and retried when another request won the race. The new last activity never
 * goes backwards, as the clocks of the function and the database may differ by a little.
 */
export async function countMessage(supabase: SupabaseEnv, id: string | null): Promise<string> {
  if (!isUuid(id)) return startConversation(supabase);
  const filter = `id=eq.${encodeURIComponent(id)}`;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = rows(
      await serviceFetch(supabase, `/rest/v1/conversations?${filter}&select=message_count,last_message_at`),
    )[0];
    if (!current) return startConversation(supabase);
    const count = typeof current.message_count === 'number' ? current.message_count : 0;
    const previous = typeof current.last_message_at === 'string' ? Date.parse(current.last_message_at) : Number.NaN;
    // +1 ms: the database keeps microseconds, Date only milliseconds.
    const lastMessageAt = new Date(Number.isNaN(previous) ? Date.now() : Math.max(Date.now(), previous + 1));
    const updated = rows(
      await serviceFetch(supabase, `/rest/v1/conversations?${filter}&message_count=eq.${String(count)}&select=id`, {
        method: 'PATCH',
        body: { message_count: count + 1, last_message_at: lastMessageAt.toISOString() },
        headers: returnRows,
      }),
    );
    if (updated.length > 0) return id;
  }
  return id; // counted by the requests that kept winning; this one goes uncounted rather than failing
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
