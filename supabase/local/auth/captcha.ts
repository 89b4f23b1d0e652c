/**
 * Supabase Auth's CAPTCHA protection with Cloudflare Turnstile, offline. GoTrue's verifyCaptcha
 * middleware (internal/api/middleware.go) guards `/signup` and the password grant of `/token`: it
 * reads `gotrue_meta_security.captcha_token` from the body and asks Turnstile's siteverify with the
 * secret. The local stack never calls out, so it accepts only Cloudflare's documented test secrets
 * (developers.cloudflare.com/turnstile/troubleshooting/testing) and answers as siteverify does for
 * them: the "always passes" secret accepts the dummy token the test site keys hand the browser,
 * the "always fails" secret refuses every token, and the third one says the token was spent.
 */
import { AuthApiError, badRequest } from './errors';
import type { Json } from './params';

/** Cloudflare's test secrets, by what siteverify answers for them. */
export const TURNSTILE_TEST_SECRETS = {
  passes: '1x0000000000000000000000000000000AA',
  fails: '2x0000000000000000000000000000000AA',
  spent: '3x0000000000000000000000000000000AA',
} as const;

/** What the test site keys (1x00000000000000000000AA and the others) hand the browser. */
export const TURNSTILE_DUMMY_TOKEN = 'XXXX.DUMMY.TOKEN.XXXX';

export class TurnstileSecretError extends Error {
  constructor() {
    super(
      'TURNSTILE_SECRET_KEY is set to a real secret, but the local stack never calls Cloudflare: use one of Cloudflare\'s test secrets ' +
        `(${TURNSTILE_TEST_SECRETS.passes} always passes) with the test site key 1x00000000000000000000AA, or leave it unset.`,
    );
  }
}

/** The secret as the local stack can use it: null when unset; a real one cannot be checked offline. */
export function captchaSecret(value: string | undefined): string | null {
  const secret = value?.trim() ?? '';
  if (secret === '') return null;
  if (!(Object.values(TURNSTILE_TEST_SECRETS) as string[]).includes(secret)) throw new TurnstileSecretError();
  return secret;
}

/** siteverify's answer for a token under one of the test secrets. */
export function siteverify(secret: string, token: string): { success: boolean; errorCodes: string[] } {
  if (secret === TURNSTILE_TEST_SECRETS.passes && token === TURNSTILE_DUMMY_TOKEN) return { success: true, errorCodes: [] };
  if (secret === TURNSTILE_TEST_SECRETS.spent) return { success: false, errorCodes: ['timeout-or-duplicate'] };
  return { success: false, errorCodes: ['invalid-input-response'] };
}

/** GoTrue's verifyCaptcha: throws its 400 captcha_failed unless the body carries a token siteverify accepts. */
export function verifyCaptcha(secret: string | null, params: Json): void {
  if (secret === null) return;
  const security = params.gotrue_meta_security;
  const raw = typeof security === 'object' && security !== null ? (security as Record<string, unknown>).captcha_token : undefined;
  const token = typeof raw === 'string' ? raw.trim() : '';
  if (token === '') throw badRequest('captcha_failed', 'captcha protection: request disallowed (no captcha_token found)');
  const answer = siteverify(secret, token);
  if (!answer.success) {
    throw new AuthApiError(400, 'captcha_failed', `captcha protection: request disallowed (${answer.errorCodes.join(', ')})`);
  }
}
