/**
 * CORS for the browser-facing functions. The preflight grants the headers the browser asks for
 * (the openai SDK sends its own x-stainless-* headers; `*` would not cover Authorization) together
 * with every header the site's own requests use, so one cached preflight (Max-Age) covers the
 * next requests too: the coach's second question adds `x-conversation-id`, and a grant of only
 * the first question's headers would cost it another round trip before its first word. The
 * functions' own response headers are exposed so the browser can read them.
 */
export const exposedHeaders = ['x-conversation-id', 'x-coach-mode', 'x-playback-rate', 'x-pitch', 'x-tts-cache', 'x-sample-rate'];

/** The request headers the site's calls send (supabase-js, the coach, speech to text). */
export const allowedRequestHeaders = [
  'authorization',
  'x-client-info',
  'apikey',
  'content-type',
  'x-conversation-id',
  'x-audio-duration',
  'x-previous-text',
];

function grantedHeaders(requested: string | null | undefined): string {
  const asked = (requested ?? '')
    .split(',')
    .map((header) => header.trim().toLowerCase())
    .filter((header) => header !== '');
  return [...new Set([...asked, ...allowedRequestHeaders])].join(', ');
}

export function corsHeaders(request?: Request): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
    'Access-Control-Allow-Headers': grantedHeaders(request?.headers.get('access-control-request-headers')),
    'Access-Control-Expose-Headers': exposedHeaders.join(', '),
    'Access-Control-Max-Age': '86400',
  };
}

/** The answer to a preflight request. */
export function preflight(request: Request): Response {
  return new Response(null, { status: 204, headers: corsHeaders(request) });
}

/**
 * Whether a browser page at `origin` may read the functions' answers: the origins listed in
 * ALLOWED_ORIGINS (comma-separated, e.g. `https://www.example.de,https://example.de`), or, when
 * that is unset, the local site on any loopback port. A courtesy against other websites embedding
 * the coach, not a guard: any script outside a browser ignores CORS (the limits are the guard).
 */
export function originAllowed(origin: string, env: Record<string, string>): boolean {
  const listed = (env.ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((entry) => entry.trim().replace(/\/+$/u, ''))
    .filter((entry) => entry !== '');
  if (listed.length > 0) return listed.includes(origin);
  return /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/u.test(origin);
}

/**
 * The functions that spend money answer a page from another origin with 403 before doing
 * anything: the browser would withhold the answer from that page anyway, so the work (and the
 * provider's bill) would buy nothing. Requests without Origin (not from a browser page) go on:
 * for scripts outside a browser the limits and budgets are the guard.
 */
export function refuseForeignOrigin(request: Request, env: Record<string, string>): Response | null {
  const origin = request.headers.get('origin');
  if (origin === null || originAllowed(origin, env)) return null;
  return new Response(JSON.stringify({ error: { message: 'origin not allowed', code: 'origin_not_allowed' } }), {
    status: 403,
    headers: { 'content-type': 'application/json; charset=utf-8', vary: 'Origin' },
  });
}

/**
 * The response with its CORS grant narrowed to the request's origin: an allowed origin is echoed
 * (with Vary: Origin), any other origin gets no grant, so the browser withholds the answer from
 * that page. Requests without Origin (not from a browser page) keep the headers as they are.
 */
export function withAllowedOrigin(request: Request, env: Record<string, string>, response: Response): Response {
  const origin = request.headers.get('origin');
  if (origin === null) return response;
  const headers = new Headers(response.headers);
  headers.append('vary', 'Origin');
  if (originAllowed(origin, env)) headers.set('access-control-allow-origin', origin);
  else {
    headers.delete('access-control-allow-origin');
    headers.delete('access-control-allow-headers');
    headers.delete('access-control-allow-methods');
    headers.delete('access-control-expose-headers');
  }
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
