/**
 * The one way the browser calls the project's edge functions (`tts`, `stt`, `embed`,
 * `system-settings`, the coach's rating; the coach's chat goes through the openai SDK pointed at
 * `functionUrl('coach')`). It sends the headers as supabase-js's `functions.invoke` does (`apikey`
 * with the public anon key, `Authorization` with the signed-in user's token or the anon key),
 * reads the functions' error body `{ error: { message, code } }` into a FunctionCallError, and
 * hands the response over as it is, so a caller may read its body as a stream. Kept apart from
 * supabase.ts so that the coach, which talks to its functions over plain HTTP, does not pull the
 * Supabase client into its chunk.
 */
import { env } from '../config/env';

/** The URL of one of the project's edge functions, or of a route under it ('coach', 'rating'). */
export function functionUrl(name: string, path?: string): string {
  const base = `${env.VITE_SUPABASE_URL.replace(/\/+$/, '')}/functions/v1/${name}`;
  return path ? `${base}/${path}` : base;
}

/**
 * A call that failed: refused or failed by the function (`status`; `code` and `catalogueMessage`
 * from its error body when it sent one), or never answered (`status` null: the network). An abort
 * is not one: it rejects with the signal's own error.
 */
export class FunctionCallError extends Error {
  override readonly name = 'FunctionCallError';
  constructor(
    readonly functionName: string,
    readonly status: number | null,
    /** The function's error code ('not_configured', 'empty_audio', …), or null. */
    readonly code: string | null,
    /** The function's own message (a catalogue text), or null. */
    readonly catalogueMessage: string | null,
    detail?: string,
  ) {
    super(catalogueMessage ?? detail ?? (status === null ? `${functionName} unreachable` : `${functionName} answered ${String(status)}`));
  }
}

export interface FunctionCall {
  method?: 'GET' | 'POST';
  /** A route under the function ('rating', 'usage'). */
  path?: string;
  /** The signed-in user's access token; the public anon key otherwise. */
  accessToken?: string;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as it is, with `contentType`. */
  body?: BodyInit;
  contentType?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** `{ error: { message, code } }` of a failed call, as far as the body has it. */
function errorBody(body: unknown): { message: string | null; code: string | null } {
  if (typeof body !== 'object' || body === null || !('error' in body)) return { message: null, code: null };
  const { error } = body;
  if (typeof error !== 'object' || error === null) return { message: null, code: null };
  return {
    message: 'message' in error && typeof error.message === 'string' ? error.message : null,
    code: 'code' in error && typeof error.code === 'string' ? error.code : null,
  };
}

/**
 * Calls a function and resolves with its response once it answered with a 2xx status (its body
 * unread); rejects with FunctionCallError otherwise, and with the signal's error when aborted.
 */
export async function callFunction(name: string, call: FunctionCall = {}): Promise<Response> {
  const { method = call.json === undefined && call.body === undefined ? 'GET' : 'POST', accessToken, signal } = call;
  const headers: Record<string, string> = {
    apikey: env.VITE_SUPABASE_ANON_KEY,
    Authorization: `Bearer ${accessToken ?? env.VITE_SUPABASE_ANON_KEY}`,
    ...(call.json !== undefined ? { 'Content-Type': 'application/json' } : {}),
    ...(call.contentType ? { 'Content-Type': call.contentType } : {}),
    ...call.headers,
  };
  let response: Response;
  try {
    response = await fetch(functionUrl(name, call.path), {
      method,
      headers,
      body: call.json !== undefined ? JSON.stringify(call.json) : (call.body ?? null),
      signal: signal ?? null,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new FunctionCallError(name, null, null, null, error instanceof Error ? error.message : String(error));
  }
  if (response.ok) return response;
  const { message, code } = errorBody(await response.json().catch(() => null));
  throw new FunctionCallError(name, response.status, code, message);
}

/** callFunction's answer read as a JSON object ({} for an empty body or one that is no object). */
export async function callFunctionJson(name: string, call: FunctionCall = {}): Promise<Record<string, unknown>> {
  const response = await callFunction(name, call);
  const body: unknown = await response.json().catch(() => null);
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

const probes = new Map<string, Promise<boolean | null>>();

/**
 * Whether a function has its provider (`GET <function>` answers `{ available }`), asked once per
 * page view: true or false as it says, null when the question failed or got no such answer (what
 * that means is the caller's to say).
 */
export function providerAvailable(name: string): Promise<boolean | null> {
  let probe = probes.get(name);
  if (!probe) {
    probe = callFunctionJson(name).then(
      ({ available }) => (typeof available === 'boolean' ? available : null),
      () => null,
    );
    probes.set(name, probe);
  }
  return probe;
}

/** A call found the function without its provider (`not_configured`): so it stays for the page view. */
export function providerMissing(name: string): void {
  probes.set(name, Promise.resolve(false));
}
