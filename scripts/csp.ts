/**
 * The Content-Security-Policy of the built site (public/_headers), made for the deployment: the
 * browser may talk to exactly the Supabase project's origin (HTTPS and WebSocket), and, only in a
 * build with a Turnstile site key, load Cloudflare's widget (its script and its frame, from
 * challenges.cloudflare.com, as Cloudflare's Turnstile FAQ lists them). Without the key the policy
 * names no third party at all.
 */
export const TURNSTILE_ORIGIN = 'https://challenges.cloudflare.com';

export function deploymentCsp(headers: string, { supabaseUrl, turnstile }: { supabaseUrl: string; turnstile: boolean }): string {
  const supabase = new URL(supabaseUrl);
  const socket = `${supabase.protocol === 'https:' ? 'wss:' : 'ws:'}//${supabase.host}`;
  let result = headers.replace("connect-src 'self'", `connect-src 'self' ${supabase.origin} ${socket}`);
  if (turnstile) {
    result = result.replace("script-src 'self'", `script-src 'self' ${TURNSTILE_ORIGIN}`).replace("object-src 'none'", `frame-src ${TURNSTILE_ORIGIN}; object-src 'none'`);
  }
  return result;
}
