/**
 * The functions talk to the database, auth and storage with supabase-js, typed with the project's
 * `Database`. `SUPABASE_URL`, `SUPABASE_ANON_KEY` and `SUPABASE_SERVICE_ROLE_KEY` are set by the
 * platform. The bare specifier `@supabase/supabase-js` resolves to the npm package in Node (the
 * local stack imports the handlers) and through `../deno.json` under Deno (see docs/functions.md).
 */
import { createClient, isAuthRetryableFetchError, type SupabaseClient, type WebSocketLikeConstructor } from '@supabase/supabase-js';
import type { Database } from './database.types.ts';

export type ServiceClient = SupabaseClient<Database>;

export interface SupabaseEnv {
  url: string;
  anonKey: string;
  serviceKey: string;
}

export function supabaseEnv(env: Record<string, string>): SupabaseEnv {
  const url = env.SUPABASE_URL;
  const anonKey = env.SUPABASE_ANON_KEY;
  const serviceKey = env.SUPABASE_SERVICE_ROLE_KEY;
  if (!url || !anonKey || !serviceKey) {
    throw new Error('SUPABASE_URL, SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY must be set');
  }
  return { url: url.replace(/\/+$/, ''), anonKey, serviceKey };
}

/**
 * The functions never subscribe to realtime, but supabase-js builds its realtime client eagerly,
 * and that looks for a global WebSocket, which Node 20 (the local stack) lacks. This transport
 * satisfies the constructor and refuses to open a socket, in Node and Deno alike.
 */
function refuseRealtime(): never {
  throw new Error('The edge functions do not use realtime.');
}
const noRealtime = refuseRealtime as unknown as WebSocketLikeConstructor;

/*
 * NO_READ_RETRIES: postgrest-js retries a GET or HEAD that gets 503 or 520 up to three times
 * (after 1 s, 2 s and 4 s). The coach cannot make a visitor wait that long for a bookkeeping read,
 * and a failed read already has its fallback (no knowledge, the default voice), so every read in
 * the functions says `.retry(false)` and fails at once, as before supabase-js.
 */

/** One client per project and key for the life of the instance: no setup cost per request. */
const serviceClients = new Map<string, ServiceClient>();

/**
 * The service role client (bypasses row level security). Created once per project and key and
 * reused, as a deployed function instance serves many requests.
 */
export function serviceClient(env: Record<string, string>): ServiceClient {
  const { url, serviceKey } = supabaseEnv(env);
  const cacheKey = `${url}|${serviceKey}`;
  let client = serviceClients.get(cacheKey);
  if (!client) {
    client = createClient<Database>(url, serviceKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: noRealtime },
    });
    serviceClients.set(cacheKey, client);
  }
  return client;
}

export interface CallerUser {
  id: string;
  isAdmin: boolean;
}

/**
 * The signed-in user behind the request's bearer token, or null for the anon key, a missing or
 * an invalid token. GoTrue checks the token (`auth.getUser(token)` asks it), so a forged one never
 * counts as an admin.
 */
export async function callerUser(supabase: ServiceClient, request: Request): Promise<CallerUser | null> {
  const authorization = request.headers.get('authorization');
  if (!authorization?.toLowerCase().startsWith('bearer ')) return null;
  const token = authorization.slice('bearer '.length).trim();
  if (token === '') return null;
  const { data, error } = await supabase.auth.getUser(token);
  // No answer at all (status 0) is a failure of the function, not an unknown caller.
  if (isAuthRetryableFetchError(error) && error.status === 0) throw error;
  if (error) return null;
  return { id: data.user.id, isAdmin: data.user.app_metadata.role === 'admin' };
}
