/**
 * `POST /token?grant_type=password` (failed attempts limited, see ../signInLimits.ts) and
 * `?grant_type=refresh_token` (rotation with GoTrue's reuse interval and reuse detection).
 */
import { json, remoteAddress } from '../../http';
import { verifyPassword } from '../../passwords';
import type { StackContext } from '../../types';
import { AuthApiError, badRequest } from '../errors';
import { readParams, stringParam } from '../params';
import { verifyCaptcha } from '../captcha';
import { issueSession, newRefreshToken, tokenResponse, type TokenResponse } from '../sessions';
import type { KnownAddresses } from '../knownAddresses';
import type { SignInLimits } from '../signInLimits';
import { findUserByEmail, findUserById, INSTANCE_ID, isBanned } from '../users';

/** supabase/config.toml: refresh_token_reuse_interval = 10 (seconds). */
const REFRESH_TOKEN_REUSE_INTERVAL_SECONDS = 10;

export async function passwordGrant(
  ctx: StackContext,
  limits: SignInLimits,
  known: KnownAddresses,
  request: Request,
  issuer: string,
): Promise<Response> {
  const params = await readParams(request);
  // With CAPTCHA protection on, GoTrue checks the token before the credentials.
  verifyCaptcha(ctx.config.captchaSecret ?? null, params);
  const email = stringParam(params, 'email');
  const phone = stringParam(params, 'phone');
  const password = stringParam(params, 'password');
  if (email !== '' && phone !== '') {
    throw badRequest('validation_failed', 'Only an email address or phone number should be provided on login.');
  }
  if (phone !== '') throw new AuthApiError(422, 'phone_provider_disabled', 'Phone logins are disabled');
  if (email === '') throw badRequest('validation_failed', 'missing email or phone');

  // The connection's address: what the stack also writes into the functions' trusted header.
  const address = remoteAddress(request) ?? 'unknown';
  const user = await findUserByEmail(ctx.db, email);
  const knownAddress = user !== null && (await known.has(user.id, address));
  const giveBack = limits.reserve(address, email, { knownAddress });
  if (!giveBack) throw new AuthApiError(429, 'over_request_rate_limit', 'Request rate limit reached');
  if (!user?.encrypted_password) throw badRequest('invalid_credentials', 'Invalid login credentials');
  if (isBanned(user)) throw badRequest('user_banned', 'User is banned');
  if (!(await verifyPassword(password, user.encrypted_password))) {
    throw badRequest('invalid_credentials', 'Invalid login credentials');
  }
  // Only wrong guesses use up the allowance; the address is now one this account signs in from.
  giveBack();
  await known.remember(user.id, address);
  if (!user.email_confirmed_at) throw badRequest('email_not_confirmed', 'Email not confirmed');

  const body = await ctx.db.transaction((tx) => issueSession(ctx, tx, issuer, user));
  return json(200, body);
}

interface RefreshRow {
  id: string;
  token: string;
  user_id: string;
  revoked: boolean;
  updated_at: Date | null;
  session_id: string | null;
  session_exists: boolean;
  session_created_at: Date | null;
}

type RefreshOutcome = { ok: true; body: TokenResponse } | { ok: false; error: AuthApiError };

export async function refreshGrant(ctx: StackContext, request: Request, issuer: string): Promise<Response> {
  const params = await readParams(request);
  const given = stringParam(params, 'refresh_token');
  if (given === '') {
    // GoTrue answers this one as an OAuth error.
    return json(400, { error: 'invalid_request', error_description: 'refresh_token required' });
  }

  // Errors that must keep their side effects (revoking a stolen token's family) are returned,
  // not thrown, so the transaction still commits.
  const outcome = await ctx.db.transaction(async (tx): Promise<RefreshOutcome> => {
    const found = await tx.query<RefreshRow>(
      `select rt.id::text as id, rt.token, rt.user_id, coalesce(rt.revoked, false) as revoked, rt.updated_at, rt.session_id,
              s.id is not null as session_exists, s.created_at as session_created_at
         from auth.refresh_tokens rt
         left join auth.sessions s on s.id = rt.session_id
        where rt.token = $1`,
      [given],
    );
    const row = found.rows[0];
    if (!row) return { ok: false, error: badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found') };
    const user = await findUserById(tx, row.user_id);
    if (!user) return { ok: false, error: badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found') };
    if (isBanned(user)) return { ok: false, error: badRequest('user_banned', 'Invalid Refresh Token: User Banned') };
    if (!row.session_exists || row.session_id === null) {
      await tx.query('delete from auth.refresh_tokens where id = $1::bigint', [row.id]);
      return { ok: false, error: badRequest('session_not_found', 'Invalid Refresh Token: No Valid Session Found') };
    }
    const sessionId = row.session_id;

    let issued = '';
    if (row.revoked) {
      const active = await tx.query<{ token: string; parent: string | null }>(
        `select token, parent from auth.refresh_tokens
          where session_id = $1 and coalesce(revoked, false) = false
          order by id desc limit 1`,
        [sessionId],
      );
      const current = active.rows[0];
      if (current && current.parent === row.token) {
        // The client lost the answer to its last refresh: hand out the token it missed.
        issued = current.token;
      } else {
        const revokedAt = row.updated_at?.getTime() ?? 0;
        if (Date.now() > revokedAt + REFRESH_TOKEN_REUSE_INTERVAL_SECONDS * 1000) {
          // A revoked token used again outside the grace period: treat the session as stolen.
          await tx.query(
            `update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and revoked = false`,
            [sessionId],
          );
          return { ok: false, error: badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used') };
        }
      }
    }

    if (issued === '') {
      issued = newRefreshToken();
      await tx.query(`update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1::bigint`, [row.id]);
      await tx.query(
        `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
         values ($1, $2, $3, false, now(), now(), $4, $5)`,
        [INSTANCE_ID, issued, user.id, row.token, sessionId],
      );
    }
    await tx.query(`update auth.sessions set refreshed_at = now() at time zone 'utc', updated_at = now() where id = $1`, [sessionId]);
    const signedInAt = Math.floor((row.session_created_at?.getTime() ?? Date.now()) / 1000);
    return { ok: true, body: tokenResponse(ctx, issuer, user, sessionId, signedInAt, issued) };
  });
  if (!outcome.ok) throw outcome.error;
  return json(200, outcome.body);
}
