/**
 * Which browser pages may use the local stack. Its keys are public demo values, so while it runs
 * any web page the operator opens could otherwise call REST, auth and storage on 127.0.0.1 with
 * the service key and read or change everything. The stack answers only the site's own origins:
 * those in ALLOWED_ORIGINS (comma-separated, the setting the functions use too), or, when that is
 * unset, pages on a loopback host (the site served by `npm start`, `npm run dev`, the tests).
 * Requests without an Origin header (curl, scripts, the tests' Node clients: tools on this
 * machine) are not pages and go through.
 */

const LOOPBACK_PAGE = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/u;

/** The origins named by ALLOWED_ORIGINS, without trailing slashes; empty when unset. */
export function listedOrigins(env: Record<string, string | undefined>): string[] {
  return (env.ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((entry) => entry.trim().replace(/\/+$/u, ''))
    .filter((entry) => entry !== '');
}

/** Whether a request with this Origin header (null: none) may be answered. */
export function originAllowed(origin: string | null, env: Record<string, string | undefined>): boolean {
  if (origin === null) return true;
  const listed = listedOrigins(env);
  return listed.length > 0 ? listed.includes(origin) : LOOPBACK_PAGE.test(origin);
}
