/**
 * The functions talk to the database and auth over the same HTTP APIs the browser uses (PostgREST,
 * GoTrue, Storage), with plain fetch: no client library, so Deno and Node run this unchanged.
 * `SUPABASE_URL`, `SUPABASE_ANON_KEY` and `SUPABASE_SERVICE_ROLE_KEY` are set by the platform.
 */
import { isRecord } from './http.ts';

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

export class SupabaseRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A PostgREST / Storage request with the service role (bypasses row level security). */
export async function serviceFetch(
  supabase: SupabaseEnv,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<unknown> {
  const response = await fetch(`${supabase.url}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      apikey: supabase.serviceKey,
      authorization: `Bearer ${supabase.serviceKey}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? (JSON.parse(text) as unknown) : null;
  } catch {
    body = text;
  }
  if (!response.ok) {
    const message = isRecord(body) && typeof body.message === 'string' ? body.message : `HTTP ${String(response.status)}`;
    throw new SupabaseRequestError(response.status, message);
  }
  return body;
}

/** Calls a Postgres function through PostgREST (`/rest/v1/rpc/<name>`) with the service role. */
export function rpc(supabase: SupabaseEnv, name: string, args: Record<string, unknown>): Promise<unknown> {
  return serviceFetch(supabase, `/rest/v1/rpc/${name}`, { method: 'POST', body: args });
}

export interface CallerUser {
  id: string;
  isAdmin: boolean;
}

/**
 * The signed-in user behind the request's bearer token, or null for the anon key, a missing or
 * an invalid token. GoTrue checks the token, so a forged one never counts as an admin.
 */
export async function callerUser(supabase: SupabaseEnv, request: Request): Promise<CallerUser | null> {
  const authorization = request.headers.get('authorization');
  if (!authorization?.toLowerCase().startsWith('bearer ')) return null;
  const response = await fetch(`${supabase.url}/auth/v1/user`, {
    headers: { apikey: supabase.anonKey, authorization },
  });
  if (!response.ok) return null;
  const user = (await response.json()) as unknown;
  if (!isRecord(user) || typeof user.id !== 'string') return null;
  const appMetadata = isRecord(user.app_metadata) ? user.app_metadata : {};
  return { id: user.id, isAdmin: appMetadata.role === 'admin' };
}
