/**
 * `stt-stream`: speech to text while the visitor speaks. The page opens
 * `wss://<project>/functions/v1/stt-stream?jwt=<anon key or session token>` at the voice onset,
 * streams the microphone as 16 kHz PCM and gets the partial and final words back (protocol.ts);
 * the function relays to the streaming transcriber (scribe.ts) with the provider key, which never
 * leaves it, and counts the seconds streamed against the shared budgets (relay.ts).
 *
 * `GET /stt-stream` (no upgrade) → `{ available, everyBrowser }`: whether a streaming transcriber is
 * configured, and whether the operator sends every browser's voice through it (the admin's
 * "every browser through the provider" switch) rather than the browser's own recogniser.
 *
 * A browser cannot set headers on a WebSocket, so the gateway's JWT check is off for this function
 * (config.toml, `verify_jwt = false`) and the function checks the token itself, as Supabase's
 * WebSocket guide shows: the `jwt` query parameter must be the project's anon key or a session
 * token GoTrue accepts. It then stands in the `Authorization` header of the request the guard sees,
 * as on the other functions.
 */
import { preflight, refuseForeignOrigin, withAllowedOrigin } from '../_shared/cors.ts';
import { errorResponse, json } from '../_shared/http.ts';
import { callerUser, serviceClient } from '../_shared/supabase.ts';
import { wantsWebSocket, type SocketRuntime } from '../_shared/webSocket.ts';
import { relayStream } from './relay.ts';
import { streamProvider } from './scribe.ts';

/** Whether the operator sends every browser's voice through the provider (off when unreadable). */
async function voiceInputViaProvider(env: Record<string, string>): Promise<boolean> {
  try {
    const { data } = await serviceClient(env).from('system_settings').select('voice_input_via_provider').retry(false).maybeSingle().throwOnError();
    return data?.voice_input_via_provider === true;
  } catch (error) {
    console.error('[stt-stream] reading the voice input setting failed:', error instanceof Error ? error.message : error);
    return false;
  }
}

/** The request the guard and GoTrue see: the token from the query as the bearer token. */
function withBearer(request: Request, token: string): Request {
  const headers = new Headers(request.headers);
  headers.set('authorization', `Bearer ${token}`);
  headers.set('apikey', token);
  return new Request(request.url, { method: 'GET', headers });
}

export async function handle(request: Request, env: Record<string, string>, runtime?: SocketRuntime): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname.replace(/\/+$/u, '') !== '/stt-stream') return withAllowedOrigin(request, env, errorResponse(404, 'Not found', 'not_found'));
  if (request.method === 'OPTIONS') return preflight(request);
  if (request.method !== 'GET') {
    return withAllowedOrigin(request, env, errorResponse(405, 'Method not allowed', 'method_not_allowed', { Allow: 'GET, OPTIONS' }));
  }
  if (!wantsWebSocket(request)) {
    const everyBrowser = await voiceInputViaProvider(env);
    return withAllowedOrigin(request, env, json(200, { available: streamProvider(env) !== null, everyBrowser }));
  }

  // WebSockets know no CORS: a page of another site is refused here, before anything is spent.
  const foreign = refuseForeignOrigin(request, env);
  if (foreign) return foreign;
  const token = url.searchParams.get('jwt')?.trim() ?? '';
  if (token === '') return errorResponse(401, 'Missing authorization', 'unauthorized');
  const admission = withBearer(request, token);
  if (token !== env.SUPABASE_ANON_KEY) {
    let user;
    try {
      user = await callerUser(serviceClient(env), admission);
    } catch {
      return errorResponse(503, 'Authentication is unavailable', 'auth_unavailable');
    }
    if (!user) return errorResponse(401, 'Invalid JWT', 'unauthorized');
  }
  if (!runtime) return errorResponse(501, 'WebSocket upgrades are not supported here', 'not_supported');
  return relayStream(request, admission, env, runtime, streamProvider(env));
}
