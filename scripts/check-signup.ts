/**
 * npm run check:signup -- <project URL> <anon key>: whether a deployed project (or the local
 * stack) lets anyone create an account. The site has no visitor accounts; operators are made
 * with `npm run admin:create`. It tries an e-mail sign-up with a made-up address under
 * `.invalid` (a domain that never exists) and reads the auth settings:
 *
 * - 422 signup_disabled: sign-up is closed (`[auth] enable_signup = false`, or "Allow new users
 *   to sign up" off in the dashboard). Anonymous sign-ins are then closed too.
 * - 403 from the before-user-created hook: sign-up is open for anonymous visitors only (the
 *   setting Turnstile needs), and an e-mail sign-up is refused.
 * - 400 captcha_failed: CAPTCHA protection is on, so a script without a Turnstile token cannot
 *   tell; the settings say whether sign-ups are enabled, and then the hook must be on
 *   (Authentication → Hooks → Before User Created → public.only_anonymous_sign_ups).
 * - 200: anyone can sign up. It exits 1 (and the test account it created should be deleted).
 */

export type SignupVerdict = 'closed' | 'anonymous-only' | 'behind-captcha' | 'open' | 'unknown';

export interface SignupCheck {
  verdict: SignupVerdict;
  /** What the project answered to the e-mail sign-up. */
  status: number;
  code: string;
  /** `disable_signup` and `external.anonymous_users` of /auth/v1/settings, when it answered. */
  settings: { disableSignup: boolean | null; anonymousUsers: boolean | null };
  lines: string[];
}

const field = (value: unknown, key: string): unknown => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined);
const flag = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null);

export async function checkSignup(url: string, anonKey: string): Promise<SignupCheck> {
  const base = url.replace(/\/+$/u, '');
  const headers = { apikey: anonKey, authorization: `Bearer ${anonKey}`, 'content-type': 'application/json' };
  const settingsBody: unknown = await fetch(`${base}/auth/v1/settings`, { headers })
    .then((response) => (response.ok ? (response.json() as Promise<unknown>) : null))
    .catch(() => null);
  const settings = { disableSignup: flag(field(settingsBody, 'disable_signup')), anonymousUsers: flag(field(field(settingsBody, 'external'), 'anonymous_users')) };

  const email = `signup-check-${crypto.randomUUID()}@example.invalid`;
  const response = await fetch(`${base}/auth/v1/signup`, { method: 'POST', headers, body: JSON.stringify({ email, password: crypto.randomUUID() }) });
  const body: unknown = await response.json().catch(() => null);
  const text = (...values: unknown[]) => String(values.find((value) => typeof value === 'string' || typeof value === 'number') ?? '');
  const code = text(field(body, 'error_code'), field(body, 'code'));
  const message = text(field(body, 'msg'), field(body, 'message'));

  const lines = [`e-mail sign-up: ${String(response.status)} ${code} ${message}`.trim(), `settings: disable_signup=${String(settings.disableSignup)}, anonymous sign-ins=${String(settings.anonymousUsers)}`];
  let verdict: SignupVerdict = 'unknown';
  if (response.status === 422 && code === 'signup_disabled') verdict = 'closed';
  else if (response.status === 403) verdict = 'anonymous-only';
  else if (response.status === 400 && code === 'captcha_failed') verdict = 'behind-captcha';
  else if (response.ok) verdict = 'open';

  if (verdict === 'closed') lines.push('closed: nobody can sign up (and no anonymous sign-in either).');
  if (verdict === 'anonymous-only') lines.push('closed to e-mail sign-ups by the before-user-created hook; anonymous sign-ins only.');
  if (verdict === 'behind-captcha') {
    lines.push(
      settings.disableSignup === true
        ? 'closed: sign-ups are disabled (CAPTCHA protection is on as well).'
        : 'CAPTCHA protection is on and sign-ups are enabled (anonymous sign-ins need that): make sure the before-user-created hook public.only_anonymous_sign_ups is on (Authentication → Hooks), or a visitor with a Turnstile token can sign up with an e-mail address.',
    );
  }
  if (verdict === 'open') lines.push(`OPEN: anyone can sign up. Close it (README, "Deploy") and delete the test account ${email}.`);
  if (verdict === 'unknown') lines.push('could not tell from this answer.');
  return { verdict, status: response.status, code, settings, lines };
}

async function main(): Promise<void> {
  const [url, anonKey] = process.argv.slice(2);
  if (!url || !anonKey) {
    console.error('usage: npm run check:signup -- <project URL, e.g. https://<ref>.supabase.co> <anon key>');
    process.exit(2);
  }
  const result = await checkSignup(url, anonKey);
  for (const line of result.lines) console.log(line);
  if (result.verdict === 'open' || result.verdict === 'unknown') process.exitCode = 1;
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) await main();
