/**
 * Access tokens as GoTrue issues them, and the caller's token checked the way GoTrue's
 * requireAuthentication and requireAdminCredentials do.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Transaction } from '@electric-sql/pglite';
import { signJwt, verifyJwt, type Claims } from '../jwt';
import { bearerToken } from '../shared';
import type { StackContext } from '../types';
import { AuthApiError, badRequest, forbidden } from './errors';
import type { Json } from './params';
import { AUDIENCE, findUserById, INSTANCE_ID, isBanned, UUID_PATTERN, userJson, type UserRow } from './users';

/** GoTrue's default JWT admin roles (GOTRUE_JWT_ADMIN_ROLES). */
const ADMIN_ROLES = new Set(['service_role', 'supabase_admin']);

export function newRefreshToken(): string {
  return randomBytes(16).toString('base64url');
}

export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Json;
}

/** How the session was signed into, as GoTrue's `amr` claim names it. */
export type SignInMethod = 'password' | 'anonymous';

function accessToken(
  ctx: StackContext,
  issuer: string,
  user: UserRow,
  sessionId: string,
  signedInAt: number,
  method: SignInMethod,
): { token: string; expiresAt: number } {
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + ctx.config.jwtExpiry;
  const claims: Claims = {
    aud: user.aud ?? AUDIENCE,
    exp,
    iat,
    iss: issuer,
    sub: user.id,
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    role: user.role ?? AUDIENCE,
    aal: 'aal1',
    amr: [{ method, timestamp: signedInAt }],
    session_id: sessionId,
    is_anonymous: user.is_anonymous,
  };
  return { token: signJwt(claims, ctx.config.jwtSecret), expiresAt: exp };
}

export function tokenResponse(
  ctx: StackContext,
  issuer: string,
  user: UserRow,
  sessionId: string,
  signedInAt: number,
  refreshToken: string,
): TokenResponse {
  const { token, expiresAt } = accessToken(ctx, issuer, user, sessionId, signedInAt, user.is_anonymous ? 'anonymous' : 'password');
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: ctx.config.jwtExpiry,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: userJson(user),
  };
}

/** A new session for `user` (its refresh token, last sign-in now) and the tokens GoTrue answers with. */
export async function issueSession(ctx: StackContext, tx: Transaction, issuer: string, user: UserRow): Promise<TokenResponse> {
  const sessionId = randomUUID();
  const refreshToken = newRefreshToken();
  await tx.query(`insert into auth.sessions (id, user_id, created_at, updated_at) values ($1, $2, now(), now())`, [sessionId, user.id]);
  await tx.query(
    `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, session_id)
     values ($1, $2, $3, false, now(), now(), $4)`,
    [INSTANCE_ID, refreshToken, user.id, sessionId],
  );
  await tx.query(`update auth.users set last_sign_in_at = now() where id = $1`, [user.id]);
  const fresh = (await findUserById(tx, user.id)) ?? user;
  return tokenResponse(ctx, issuer, fresh, sessionId, Math.floor(Date.now() / 1000), refreshToken);
}

interface Authenticated {
  claims: Claims;
  user: UserRow | null;
  sessionId: string | null;
}

function extractBearer(request: Request): string {
  const token = bearerToken(request);
  if (!token) throw new AuthApiError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  return token;
}

function parseClaims(ctx: StackContext, token: string): Claims {
  const verified = verifyJwt(token, ctx.config.jwtSecret);
  if (verified.ok) return verified.claims;
  // The messages of golang-jwt, which GoTrue passes through.
  const reason = {
    malformed: 'token is malformed: could not JSON decode token',
    signature: 'token signature is invalid: signature is invalid',
    expired: 'token has invalid claims: token is expired',
  }[verified.reason];
  throw forbidden('bad_jwt', `invalid JWT: unable to parse or verify signature, ${reason}`);
}

async function loadUserAndSession(ctx: StackContext, claims: Claims): Promise<Authenticated> {
  const sub = typeof claims.sub === 'string' ? claims.sub : '';
  if (sub === '') throw forbidden('bad_jwt', 'invalid claim: missing sub claim');
  if (!UUID_PATTERN.test(sub)) throw badRequest('bad_jwt', 'invalid claim: sub claim must be a UUID');
  const user = await findUserById(ctx.db, sub);
  if (!user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
  const sessionClaim = typeof claims.session_id === 'string' ? claims.session_id : '';
  let sessionId: string | null = null;
  if (sessionClaim !== '' && sessionClaim !== INSTANCE_ID) {
    if (!UUID_PATTERN.test(sessionClaim)) throw forbidden('bad_jwt', 'invalid claim: session_id claim must be a UUID');
    const session = await ctx.db.query<{ id: string }>('select id from auth.sessions where id = $1', [sessionClaim]);
    if (!session.rows[0]) throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist');
    sessionId = sessionClaim;
  }
  if (isBanned(user)) throw forbidden('user_banned', 'User is banned');
  return { claims, user, sessionId };
}

export async function requireAuthentication(ctx: StackContext, request: Request): Promise<Authenticated & { user: UserRow }> {
  const claims = parseClaims(ctx, extractBearer(request));
  const result = await loadUserAndSession(ctx, claims);
  if (!result.user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
  return { ...result, user: result.user };
}

export async function requireAdmin(ctx: StackContext, request: Request): Promise<void> {
  const claims = parseClaims(ctx, extractBearer(request));
  if (typeof claims.session_id === 'string' && claims.session_id !== '' && claims.session_id !== INSTANCE_ID) {
    await loadUserAndSession(ctx, claims);
  }
  if (typeof claims.role !== 'string' || !ADMIN_ROLES.has(claims.role)) {
    throw forbidden('not_admin', 'User not allowed');
  }
}
