/**
 * Anonymous conversation counting for the admin dashboard: one row per coach session with its
 * start, last activity, number of answered questions and an optional rating. Nothing personal is
 * stored (no text, no address). Written with the service role, since visitors may not touch
 * `conversations` themselves. A row exists only for a question that got an answer: the id is
 * decided when the question arrives, the count written once the answer has been given.
 *
 * The browser holds its conversation as `<id>.<signature>` (`x-conversation-id`): an HMAC-SHA256
 * of the id with a key only the function knows (COACH_CONVERSATION_SECRET, or one derived from the
 * service role key, which is secret on every project), so a visitor can continue and rate only a
 * conversation the coach gave it, never choose or guess another one.
 */
import type { ServiceClient } from '../_shared/supabase.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu;

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

function secretOf(env: Record<string, string>): string {
  const own = env.COACH_CONVERSATION_SECRET?.trim();
  if (own) return own;
  // Never the key itself: a value derived from it for this one purpose.
  return `coach-conversation|${env.SUPABASE_SERVICE_ROLE_KEY ?? ''}`;
}

function signingKey(env: Record<string, string>): Promise<CryptoKey> {
  const secret = secretOf(env);
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    keys.set(secret, key);
  }
  return key;
}

const base64Url = (bytes: ArrayBuffer): string =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/u, '');

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]+$/u.test(text)) return null;
  const base64 = text.replaceAll('-', '+').replaceAll('_', '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** The conversation as the browser holds it: `<id>.<signature>`. */
export async function signConversation(id: string, env: Record<string, string>): Promise<string> {
  const signature = await crypto.subtle.sign('HMAC', await signingKey(env), encoder.encode(id.toLowerCase()));
  return `${id.toLowerCase()}.${base64Url(signature)}`;
}

/** The id of a conversation this function signed, or null for anything else (made up, altered, unsigned). */
export async function verifyConversation(token: unknown, env: Record<string, string>): Promise<string | null> {
  if (typeof token !== 'string') return null;
  const [id = '', signature = '', ...rest] = token.split('.');
  if (rest.length > 0 || !UUID.test(id)) return null;
  const given = fromBase64Url(signature);
  if (given === null) return null;
  const valid = await crypto.subtle.verify('HMAC', await signingKey(env), given, encoder.encode(id.toLowerCase()));
  return valid ? id.toLowerCase() : null;
}

/**
 * The conversation a question belongs to: the one the browser sent back when the coach signed it
 * (stored or not yet: its first question may have gone unanswered), else a new one.
 */
export async function conversationFor(sent: string | null, env: Record<string, string>): Promise<{ id: string; token: string }> {
  const id = (await verifyConversation(sent, env)) ?? crypto.randomUUID();
  return { id, token: await signConversation(id, env) };
}

/**
 * Counts an answered question (`count_answered_question`, one atomic statement, so concurrent
 * questions of one session are all counted), creating the conversation with this id when it is
 * its first.
 */
export async function countAnswered(supabase: ServiceClient, id: string): Promise<void> {
  await supabase.rpc('count_answered_question', { conversation_id: id }).throwOnError();
}

/** Stores the visitor's 1–5 rating, once (the database keeps the first). */
export async function rateConversation(supabase: ServiceClient, id: string, rating: number): Promise<'rated' | 'already_rated' | 'not_found'> {
  const { data } = await supabase.rpc('rate_conversation', { p_conversation: id, p_rating: rating }).throwOnError();
  return data === 'rated' || data === 'already_rated' ? data : 'not_found';
}
