/**
 * The visitor's session, where the operator wants a human check: with a Cloudflare Turnstile
 * secret among the functions' secrets (TURNSTILE_SECRET_KEY; the same secret goes into Supabase
 * Auth's CAPTCHA protection, which checks the token), the functions that spend money serve only a
 * request that carries a signed-in user's access token, which the page gets by signing in
 * anonymously with a Turnstile token (`auth.signInAnonymously({ options: { captchaToken } })`).
 * The budgets then key on that session as well as on the address.
 *
 * The token's signature is checked by the gateway before the function runs (`verify_jwt = true`
 * for coach, tts and stt in supabase/config.toml; the local stack's functions host does the same),
 * so here its claims are read, not checked again: the anon key is a valid JWT too, and only a
 * user's token (role `authenticated`, a user id, not expired) counts as a session.
 */

/** Whether the spending functions require a visitor session (the operator set Turnstile's secret). */
export function sessionRequired(env: Record<string, string>): boolean {
  return (env.TURNSTILE_SECRET_KEY?.trim() ?? '') !== '';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu;

function base64UrlJson(part: string): unknown {
  try {
    const base64 = part.replaceAll('-', '+').replaceAll('_', '/');
    const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)))) as unknown;
  } catch {
    return null;
  }
}

/**
 * The budget key of the signed-in user behind the request (`session:<user id>`), or null for the
 * anon key, a service key, an expired or unreadable token.
 */
export function visitorSession(request: Request, nowSeconds = Math.floor(Date.now() / 1000)): string | null {
  const authorization = request.headers.get('authorization') ?? '';
  if (!/^bearer /iu.test(authorization)) return null;
  const parts = authorization.slice('bearer '.length).trim().split('.');
  if (parts.length !== 3) return null;
  const claims = base64UrlJson(parts[1] ?? '');
  if (typeof claims !== 'object' || claims === null) return null;
  const { role, sub, exp } = claims as Record<string, unknown>;
  if (role !== 'authenticated' || typeof sub !== 'string' || !UUID.test(sub)) return null;
  if (typeof exp !== 'number' || exp <= nowSeconds) return null;
  return `session:${sub.toLowerCase()}`;
}
