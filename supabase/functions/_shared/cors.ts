/**
 * CORS for the browser-facing functions. The preflight echoes the headers the browser asks for
 * (the openai SDK sends its own x-stainless-* headers; `*` would not cover Authorization), and
 * the functions' own response headers are exposed so the browser can read them.
 */
export const exposedHeaders = ['x-conversation-id', 'x-coach-mode', 'x-playback-rate', 'x-pitch', 'x-tts-cache', 'x-sample-rate'];

export function corsHeaders(request?: Request): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
    'Access-Control-Allow-Headers':
      request?.headers.get('access-control-request-headers') ??
      'authorization, x-client-info, apikey, content-type, x-conversation-id',
    'Access-Control-Expose-Headers': exposedHeaders.join(', '),
    'Access-Control-Max-Age': '86400',
  };
}

/** The answer to a preflight request. */
export function preflight(request: Request): Response {
  return new Response(null, { status: 204, headers: corsHeaders(request) });
}
