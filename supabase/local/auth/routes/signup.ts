/**
 * `POST /signup`, as GoTrue answers it (internal/api/api.go, signup.go, anonymous.go). The site
 * has no visitor accounts: operators are created with the admin API (`npm run admin:create`).
 *
 * - Without CAPTCHA protection (no TURNSTILE_SECRET_KEY, the local default) sign-ups are
 *   disabled, as `[auth] enable_signup = false` in config.toml: an e-mail or phone sign-up is
 *   422 signup_disabled, an anonymous one 422 anonymous_provider_disabled.
 * - With it, anonymous sign-ins are on (GoTrue allows them only while sign-ups are enabled), every
 *   sign-up first needs a Turnstile token (./captcha.ts), anonymous sign-ins are limited per
 *   address (`[auth.rate_limit] anonymous_users`, 30 an hour), and the before-user-created hook
 *   `public.only_anonymous_sign_ups` (migration …_spend_scopes.sql, the same function the hosted
 *   project calls) refuses every sign-up that is not anonymous.
 */
import { randomUUID } from 'node:crypto';
import { json, remoteAddress } from '../../http';
import type { StackContext } from '../../types';
import { verifyCaptcha } from '../captcha';
import { AuthApiError } from '../errors';
import { objectParam, readParams, stringParam, type Json } from '../params';
import { issueSession } from '../sessions';
import { createTokenBuckets, type TokenBuckets } from '../signInLimits';
import { AUDIENCE, findUserById, INSTANCE_ID } from '../users';

/** config.toml's `[auth.rate_limit] anonymous_users`: anonymous sign-ins per hour and address (GoTrue's bucket: that rate, that burst). */
export const ANONYMOUS_SIGN_INS_PER_HOUR = 30;

export function createAnonymousLimits(perHour = ANONYMOUS_SIGN_INS_PER_HOUR): TokenBuckets {
  return createTokenBuckets(perHour / 3600, perHour);
}

/** The before-user-created hook: null to go on, or the error GoTrue answers with. */
async function beforeUserCreated(ctx: StackContext, user: Json): Promise<AuthApiError | null> {
  const { rows } = await ctx.db.query<{ answer: Json | null }>('select public.only_anonymous_sign_ups($1::jsonb) as answer', [
    JSON.stringify({ metadata: { name: 'before-user-created' }, user }),
  ]);
  const error = rows[0]?.answer?.error;
  if (typeof error !== 'object' || error === null) return null;
  const { http_code: status, message } = error as { http_code?: unknown; message?: unknown };
  if (typeof message !== 'string' || message === '') return null;
  return new AuthApiError(typeof status === 'number' ? status : 400, '', message);
}

export async function signup(ctx: StackContext, anonymousLimits: TokenBuckets, request: Request, issuer: string): Promise<Response> {
  const params = await readParams(request);
  const secret = ctx.config.captchaSecret ?? null;
  verifyCaptcha(secret, params);
  const signUpsEnabled = secret !== null;
  const anonymous = stringParam(params, 'email') === '' && stringParam(params, 'phone') === '';
  if (!anonymous) {
    if (!signUpsEnabled) throw new AuthApiError(422, 'signup_disabled', 'Signups not allowed for this instance');
    const refused = await beforeUserCreated(ctx, { is_anonymous: false, email: stringParam(params, 'email'), phone: stringParam(params, 'phone') });
    throw refused ?? new AuthApiError(422, 'signup_disabled', 'Signups not allowed for this instance');
  }
  if (!signUpsEnabled) throw new AuthApiError(422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
  if (!anonymousLimits.take(remoteAddress(request) ?? 'unknown')) throw new AuthApiError(429, 'over_request_rate_limit', 'Request rate limit reached');
  const refused = await beforeUserCreated(ctx, { is_anonymous: true });
  if (refused) throw refused;

  const data = objectParam(params, 'data') ?? {};
  const body = await ctx.db.transaction(async (tx) => {
    const id = randomUUID();
    await tx.query(
      `insert into auth.users (instance_id, id, aud, role, raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_sso_user, is_anonymous)
       values ($1, $2, $3, $3, '{}'::jsonb, $4::jsonb, now(), now(), false, true)`,
      [INSTANCE_ID, id, AUDIENCE, JSON.stringify(data)],
    );
    const user = await findUserById(tx, id);
    if (!user) throw new AuthApiError(500, 'unexpected_failure', 'Database error creating anonymous user');
    return issueSession(ctx, tx, issuer, user);
  });
  return json(200, body);
}
