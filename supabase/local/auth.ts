/**
 * The subset of Supabase Auth (GoTrue) the app uses, on auth.users / auth.sessions /
 * auth.refresh_tokens: password sign-in, refresh token rotation, the current user, sign-out and
 * the admin user API for the service key. Status codes, error codes and messages are GoTrue's,
 * because auth-js turns them into the errors the app shows.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { json, remoteAddress } from './http';
import { bearerToken } from './shared';
import { signJwt, verifyJwt, type Claims } from './jwt';
import { hashPassword, passwordTooLong, verifyPassword } from './passwords';
import { createSignInLimits, type SignInLimits } from './signInLimits';
import type { Service, StackContext } from './types';

/** supabase/config.toml: refresh_token_reuse_interval = 10 (seconds). */
const REFRESH_TOKEN_REUSE_INTERVAL_SECONDS = 10;
/** GoTrue's default JWT admin roles (GOTRUE_JWT_ADMIN_ROLES). */
const ADMIN_ROLES = new Set(['service_role', 'supabase_admin']);
/** GoTrue rejects larger bodies before parsing them. */
const MAX_AUTH_BODY_BYTES = 1 << 20;
const INSTANCE_ID = '00000000-0000-0000-0000-000000000000';
const AUDIENCE = 'authenticated';
const API_VERSION_HEADER = 'x-supabase-api-version';
const API_VERSION_2024 = '2024-01-01';
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Json = Record<string, unknown>;
type Queryable = PGlite | Transaction;

/** An error GoTrue would answer with (apierrors.HTTPError). */
export class AuthApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
  ) {
    super(message);
  }
}

const badRequest = (code: string, message: string) => new AuthApiError(400, code, message);
const forbidden = (code: string, message: string) => new AuthApiError(403, code, message);

interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  invited_at: Date | null;
  phone: string | null;
  phone_confirmed_at: Date | null;
  confirmed_at: Date | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Json | null;
  raw_user_meta_data: Json | null;
  created_at: Date | null;
  updated_at: Date | null;
  banned_until: Date | null;
  deleted_at: Date | null;
  is_anonymous: boolean;
}

const USER_COLUMNS = `id, aud, role, email, encrypted_password, email_confirmed_at, invited_at, phone,
  phone_confirmed_at, confirmed_at, last_sign_in_at, raw_app_meta_data, raw_user_meta_data, created_at,
  updated_at, banned_until, deleted_at, is_anonymous`;

const iso = (value: Date | null) => (value ? value.toISOString() : undefined);

/** The user as GoTrue serialises models.User (omitempty fields left out when null). */
export function userJson(row: UserRow): Json {
  const body: Json = {
    id: row.id,
    aud: row.aud ?? '',
    role: row.role ?? '',
    email: row.email ?? '',
    email_confirmed_at: iso(row.email_confirmed_at),
    invited_at: iso(row.invited_at),
    phone: row.phone ?? '',
    phone_confirmed_at: iso(row.phone_confirmed_at),
    confirmed_at: iso(row.confirmed_at),
    last_sign_in_at: iso(row.last_sign_in_at),
    app_metadata: row.raw_app_meta_data ?? {},
    user_metadata: row.raw_user_meta_data ?? {},
    identities: [],
    created_at: iso(row.created_at) ?? new Date(0).toISOString(),
    updated_at: iso(row.updated_at) ?? new Date(0).toISOString(),
    banned_until: iso(row.banned_until),
    deleted_at: iso(row.deleted_at),
    is_anonymous: row.is_anonymous,
  };
  // Dropping the undefined fields is what omitempty does.
  return JSON.parse(JSON.stringify(body)) as Json;
}

function isBanned(row: UserRow): boolean {
  return row.banned_until !== null && row.banned_until.getTime() > Date.now();
}

async function findUserById(db: Queryable, id: string): Promise<UserRow | null> {
  const result = await db.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1`, [id]);
  return result.rows[0] ?? null;
}

async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const result = await db.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users
      where lower(email) = lower($1) and aud = $2 and is_sso_user = false
      order by created_at limit 1`,
    [email, AUDIENCE],
  );
  return result.rows[0] ?? null;
}

function isPlainObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads a JSON object body the way GoTrue's retrieveRequestParams does (bad JSON → 400 bad_json). */
async function readParams(request: Request): Promise<Json> {
  const text = await request.text();
  if (Buffer.byteLength(text, 'utf8') > MAX_AUTH_BODY_BYTES) {
    throw new AuthApiError(413, 'request_entity_too_large', `Request body too large (max ${MAX_AUTH_BODY_BYTES} bytes)`);
  }
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw badRequest('bad_json', `Could not parse request body as JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (parsed === null) return {};
  if (!isPlainObject(parsed)) {
    throw badRequest('bad_json', `Could not parse request body as JSON: json: cannot unmarshal ${Array.isArray(parsed) ? 'array' : typeof parsed} into Go value of type object`);
  }
  return parsed;
}

function stringParam(params: Json, key: string): string {
  const value = params[key];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') {
    throw badRequest('bad_json', `Could not parse request body as JSON: json: cannot unmarshal ${typeof value} into Go struct field .${key} of type string`);
  }
  return value;
}

function objectParam(params: Json, key: string): Json | null {
  const value = params[key];
  if (value === undefined || value === null) return null;
  if (!isPlainObject(value)) {
    throw badRequest('bad_json', `Could not parse request body as JSON: json: cannot unmarshal ${typeof value} into Go struct field .${key} of type map[string]interface {}`);
  }
  return value;
}

function validateEmail(email: string): string {
  if (email === '') throw badRequest('validation_failed', 'An email address is required');
  if (email.length > 255) throw badRequest('validation_failed', 'An email address is too long');
  if (!EMAIL_PATTERN.test(email)) throw badRequest('validation_failed', 'Unable to validate email address: invalid format');
  return email.toLowerCase();
}

/** GoTrue's UpdateAppMetaData/UpdateUserMetaData: merge, and a null value removes the key. */
function mergeMetadata(current: Json | null, update: Json): Json {
  const merged: Json = { ...(current ?? {}) };
  for (const [key, value] of Object.entries(update)) {
    if (value === null) Reflect.deleteProperty(merged, key);
    else merged[key] = value;
  }
  return merged;
}

function newRefreshToken(): string {
  return randomBytes(16).toString('base64url');
}

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

/** X-Supabase-Api-Version ≥ 2024-01-01 selects GoTrue's newer error body ({code, message}). */
function usesVersionedErrors(request: Request): boolean {
  const value = request.headers.get(API_VERSION_HEADER);
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) return false;
  return value >= API_VERSION_2024;
}

function errorResponse(request: Request, error: AuthApiError): Response {
  const headers: Record<string, string> = { 'x-sb-error-code': error.errorCode };
  if (usesVersionedErrors(request)) {
    headers[API_VERSION_HEADER] = API_VERSION_2024;
    return json(error.status, { code: error.errorCode, message: error.message }, headers);
  }
  return json(error.status, { code: error.status, error_code: error.errorCode, msg: error.message }, headers);
}

/** chi's default answers for paths and methods GoTrue has no route for. */
const notFound = () => new Response('404 page not found\n', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
const methodNotAllowed = () => new Response(null, { status: 405 });

// ---------------------------------------------------------------------------------------------
// Sessions and tokens
// ---------------------------------------------------------------------------------------------

interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Json;
}

function accessToken(ctx: StackContext, issuer: string, user: UserRow, sessionId: string, signedInAt: number): { token: string; expiresAt: number } {
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
    amr: [{ method: 'password', timestamp: signedInAt }],
    session_id: sessionId,
    is_anonymous: user.is_anonymous,
  };
  return { token: signJwt(claims, ctx.config.jwtSecret), expiresAt: exp };
}

function tokenResponse(ctx: StackContext, issuer: string, user: UserRow, sessionId: string, signedInAt: number, refreshToken: string): TokenResponse {
  const { token, expiresAt } = accessToken(ctx, issuer, user, sessionId, signedInAt);
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: ctx.config.jwtExpiry,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: userJson(user),
  };
}

async function passwordGrant(ctx: StackContext, limits: SignInLimits, request: Request, issuer: string): Promise<Response> {
  const params = await readParams(request);
  const email = stringParam(params, 'email');
  const phone = stringParam(params, 'phone');
  const password = stringParam(params, 'password');
  if (email !== '' && phone !== '') {
    throw badRequest('validation_failed', 'Only an email address or phone number should be provided on login.');
  }
  if (phone !== '') throw new AuthApiError(422, 'phone_provider_disabled', 'Phone logins are disabled');
  if (email === '') throw badRequest('validation_failed', 'missing email or phone');

  // The connection's address: what the stack also writes into the functions' trusted header.
  const giveBack = limits.reserve(remoteAddress(request) ?? 'unknown', email);
  if (!giveBack) throw new AuthApiError(429, 'over_request_rate_limit', 'Request rate limit reached');
  const user = await findUserByEmail(ctx.db, email);
  if (!user?.encrypted_password) throw badRequest('invalid_credentials', 'Invalid login credentials');
  if (isBanned(user)) throw badRequest('user_banned', 'User is banned');
  if (!(await verifyPassword(password, user.encrypted_password))) {
    throw badRequest('invalid_credentials', 'Invalid login credentials');
  }
  // Only wrong guesses use up the allowance.
  giveBack();
  if (!user.email_confirmed_at) throw badRequest('email_not_confirmed', 'Email not confirmed');

  const body = await ctx.db.transaction(async (tx) => {
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
  });
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

async function refreshGrant(ctx: StackContext, request: Request, issuer: string): Promise<Response> {
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

// ---------------------------------------------------------------------------------------------
// Authentication of the caller (requireAuthentication / requireAdminCredentials)
// ---------------------------------------------------------------------------------------------

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

async function requireAuthentication(ctx: StackContext, request: Request): Promise<Authenticated & { user: UserRow }> {
  const claims = parseClaims(ctx, extractBearer(request));
  const result = await loadUserAndSession(ctx, claims);
  if (!result.user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
  return { ...result, user: result.user };
}

async function requireAdmin(ctx: StackContext, request: Request): Promise<void> {
  const claims = parseClaims(ctx, extractBearer(request));
  if (typeof claims.session_id === 'string' && claims.session_id !== '' && claims.session_id !== INSTANCE_ID) {
    await loadUserAndSession(ctx, claims);
  }
  if (typeof claims.role !== 'string' || !ADMIN_ROLES.has(claims.role)) {
    throw forbidden('not_admin', 'User not allowed');
  }
}

// ---------------------------------------------------------------------------------------------
// Users
// ---------------------------------------------------------------------------------------------

export interface NewUser {
  email: string;
  password: string | null;
  emailConfirm: boolean;
  appMetadata: Json | null;
  userMetadata: Json | null;
}

/** Creates a user as GoTrue's admin API does; throws 422 email_exists for a taken address. */
export async function createUser(ctx: StackContext, input: NewUser): Promise<UserRow> {
  const email = validateEmail(input.email);
  if (await findUserByEmail(ctx.db, email)) {
    throw new AuthApiError(422, 'email_exists', 'A user with this email address has already been registered');
  }
  // Without a password GoTrue stores a random one: the account exists but cannot sign in with one.
  const password = input.password === null || input.password === '' ? randomBytes(48).toString('base64url') : input.password;
  if (passwordTooLong(password)) throw badRequest('validation_failed', 'bcrypt: password length exceeds 72 bytes');
  const hash = await hashPassword(password);
  const appMetadata = mergeMetadata({ provider: 'email', providers: ['email'] }, input.appMetadata ?? {});
  const id = randomUUID();
  try {
    await ctx.db.query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                               raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_sso_user, is_anonymous)
       values ($1, $2, $3, $3, $4, $5, case when $6::boolean then now() end, $7::jsonb, $8::jsonb, now(), now(), false, false)`,
      [INSTANCE_ID, id, AUDIENCE, email, hash, input.emailConfirm, JSON.stringify(appMetadata), JSON.stringify(input.userMetadata ?? {})],
    );
  } catch (error) {
    // Two creations racing for one address: the unique index decides.
    if ((error as { code?: unknown }).code === '23505') {
      throw new AuthApiError(422, 'email_exists', 'A user with this email address has already been registered');
    }
    throw error;
  }
  const created = await findUserById(ctx.db, id);
  if (!created) throw new AuthApiError(500, 'unexpected_failure', 'Database error creating new user');
  return created;
}

/**
 * Makes sure a confirmed user with this e-mail exists. An existing user keeps their password (it
 * may have been changed since) but gets the given app_metadata keys. Returns the user's id.
 */
export async function ensureUser(
  ctx: StackContext,
  options: { email: string; password: string; appMetadata?: Json },
): Promise<string> {
  const appMetadata = options.appMetadata ?? {};
  const existing = await findUserByEmail(ctx.db, options.email);
  if (!existing) {
    try {
      const created = await createUser(ctx, {
        email: options.email,
        password: options.password,
        emailConfirm: true,
        appMetadata,
        userMetadata: null,
      });
      return created.id;
    } catch (error) {
      if (!(error instanceof AuthApiError && error.errorCode === 'email_exists')) throw error;
    }
  }
  const user = existing ?? (await findUserByEmail(ctx.db, options.email));
  if (!user) throw new Error(`ensureUser: could not create ${options.email}`);
  await ctx.db.query(
    `update auth.users
        set raw_app_meta_data = coalesce(raw_app_meta_data, '{}'::jsonb) || $2::jsonb, updated_at = now()
      where id = $1 and not (coalesce(raw_app_meta_data, '{}'::jsonb) @> $2::jsonb)`,
    [user.id, JSON.stringify(appMetadata)],
  );
  await ctx.db.query(
    `update auth.users set email_confirmed_at = now(), updated_at = now() where id = $1 and email_confirmed_at is null`,
    [user.id],
  );
  return user.id;
}

async function adminListUsers(ctx: StackContext, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const parse = (name: string, fallback: number): number => {
    const raw = url.searchParams.get(name) ?? '';
    if (raw === '') return fallback;
    if (!/^\d+$/.test(raw)) {
      throw badRequest('validation_failed', `Bad Pagination Parameters: strconv.ParseUint: parsing "${raw}": invalid syntax`);
    }
    return Number(raw);
  };
  const page = Math.max(parse('page', 1), 1);
  const perPage = parse('per_page', 50);
  const total = await ctx.db.query<{ count: number }>(
    `select count(*)::int as count from auth.users where aud = $1`,
    [AUDIENCE],
  );
  const count = total.rows[0]?.count ?? 0;
  const rows = await ctx.db.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users where aud = $1 order by created_at desc, id limit $2 offset $3`,
    [AUDIENCE, perPage, (page - 1) * perPage],
  );
  const totalPages = perPage === 0 ? 0 : Math.ceil(count / perPage);
  const link = (target: number) => {
    const next = new URL(url.pathname, url.origin);
    next.search = url.search;
    next.searchParams.set('page', String(target));
    return `<${next.pathname}${next.search}>`;
  };
  let header = '';
  if (totalPages > page) header += `${link(page + 1)}; rel="next", `;
  header += `${link(totalPages)}; rel="last"`;
  return json(200, { users: rows.rows.map(userJson), aud: AUDIENCE }, { link: header, 'x-total-count': String(count) });
}

async function loadUserParam(ctx: StackContext, id: string): Promise<UserRow> {
  if (!UUID_PATTERN.test(id)) throw new AuthApiError(404, 'validation_failed', 'user_id must be an UUID');
  const user = await findUserById(ctx.db, id);
  if (!user) throw new AuthApiError(404, 'user_not_found', 'User not found');
  return user;
}

async function adminUpdateUser(ctx: StackContext, request: Request, user: UserRow): Promise<Response> {
  const params = await readParams(request);
  const email = stringParam(params, 'email');
  const password = stringParam(params, 'password');
  const appMetadata = objectParam(params, 'app_metadata');
  const userMetadata = objectParam(params, 'user_metadata');
  const emailConfirm = params.email_confirm === true;

  if (email !== '') {
    const normalized = validateEmail(email);
    const other = await findUserByEmail(ctx.db, normalized);
    if (other && other.id !== user.id) {
      throw new AuthApiError(422, 'email_exists', 'A user with this email address has already been registered');
    }
  }
  if (password !== '' && passwordTooLong(password)) throw badRequest('validation_failed', 'bcrypt: password length exceeds 72 bytes');
  const hash = password === '' ? null : await hashPassword(password);

  await ctx.db.transaction(async (tx) => {
    if (email !== '') await tx.query('update auth.users set email = $2 where id = $1', [user.id, email.toLowerCase()]);
    if (hash !== null) await tx.query('update auth.users set encrypted_password = $2 where id = $1', [user.id, hash]);
    if (appMetadata) {
      await tx.query('update auth.users set raw_app_meta_data = $2::jsonb where id = $1', [
        user.id,
        JSON.stringify(mergeMetadata(user.raw_app_meta_data, appMetadata)),
      ]);
    }
    if (userMetadata) {
      await tx.query('update auth.users set raw_user_meta_data = $2::jsonb where id = $1', [
        user.id,
        JSON.stringify(mergeMetadata(user.raw_user_meta_data, userMetadata)),
      ]);
    }
    if (emailConfirm) {
      await tx.query('update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()) where id = $1', [user.id]);
    }
    await tx.query('update auth.users set updated_at = now() where id = $1', [user.id]);
  });
  const updated = await findUserById(ctx.db, user.id);
  return json(200, updated ? userJson(updated) : {});
}

async function adminRoutes(ctx: StackContext, request: Request, rest: string[]): Promise<Response> {
  await requireAdmin(ctx, request);
  const method = request.method;
  if (rest[0] !== 'users') return notFound();
  if (rest.length === 1) {
    if (method === 'GET') return adminListUsers(ctx, request);
    if (method === 'POST') {
      const params = await readParams(request);
      const email = stringParam(params, 'email');
      if (email === '' && stringParam(params, 'phone') === '') {
        throw badRequest('validation_failed', 'Cannot create a user without either an email or phone');
      }
      if (email === '') throw new AuthApiError(422, 'phone_provider_disabled', 'Phone signups are disabled');
      const user = await createUser(ctx, {
        email,
        password: stringParam(params, 'password'),
        emailConfirm: params.email_confirm === true,
        appMetadata: objectParam(params, 'app_metadata'),
        userMetadata: objectParam(params, 'user_metadata'),
      });
      return json(200, userJson(user));
    }
    return methodNotAllowed();
  }
  if (rest.length !== 2) return notFound();
  const user = await loadUserParam(ctx, rest[1] ?? '');
  if (method === 'GET') return json(200, userJson(user));
  if (method === 'PUT') return adminUpdateUser(ctx, request, user);
  if (method === 'DELETE') {
    // Deleting the user deletes its sessions and refresh tokens (foreign keys) and, through the
    // trigger, its public profile.
    await ctx.db.query('delete from auth.users where id = $1', [user.id]);
    return json(200, {});
  }
  return methodNotAllowed();
}

// ---------------------------------------------------------------------------------------------
// The service
// ---------------------------------------------------------------------------------------------

async function route(ctx: StackContext, limits: SignInLimits, request: Request, path: string): Promise<Response> {
  const segments = path.split('/').filter((segment) => segment !== '');
  const method = request.method;
  const url = new URL(request.url);
  const issuer = `${url.origin}/auth/v1`;
  const [head, ...rest] = segments;

  switch (head) {
    case 'health':
      if (rest.length || method !== 'GET') return rest.length ? notFound() : methodNotAllowed();
      return json(200, { version: 'local', name: 'GoTrue', description: 'GoTrue is a user registration and authentication API' });
    case 'settings':
      if (rest.length || method !== 'GET') return rest.length ? notFound() : methodNotAllowed();
      return json(200, {
        external: { email: true, phone: false, anonymous_users: false },
        disable_signup: true,
        mailer_autoconfirm: false,
        phone_autoconfirm: false,
        sms_provider: '',
        saml_enabled: false,
      });
    case 'token': {
      if (rest.length) return notFound();
      if (method !== 'POST') return methodNotAllowed();
      const grantType = url.searchParams.get('grant_type') ?? '';
      if (grantType === 'password') return passwordGrant(ctx, limits, request, issuer);
      if (grantType === 'refresh_token') return refreshGrant(ctx, request, issuer);
      if (grantType === 'id_token' || grantType === 'pkce' || grantType === 'web3') {
        throw badRequest('validation_failed', `${grantType} grant is not available on this instance`);
      }
      throw badRequest('invalid_credentials', 'unsupported_grant_type');
    }
    case 'signup': {
      if (rest.length) return notFound();
      if (method !== 'POST') return methodNotAllowed();
      const params = await readParams(request);
      if (stringParam(params, 'email') === '' && stringParam(params, 'phone') === '') {
        throw new AuthApiError(422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
      }
      throw new AuthApiError(422, 'signup_disabled', 'Signups not allowed for this instance');
    }
    case 'user': {
      if (rest.length) return notFound();
      // Users changing their own e-mail or password (PUT /user) is not offered locally.
      if (method !== 'GET') return methodNotAllowed();
      const { user } = await requireAuthentication(ctx, request);
      return json(200, userJson(user));
    }
    case 'logout': {
      if (rest.length) return notFound();
      if (method !== 'POST') return methodNotAllowed();
      const scope = url.searchParams.get('scope') ?? '';
      if (!['', 'global', 'local', 'others'].includes(scope)) {
        throw badRequest('validation_failed', `Unsupported logout scope "${scope}"`);
      }
      const { user, sessionId } = await requireAuthentication(ctx, request);
      if (sessionId !== null && scope === 'local') {
        await ctx.db.query('delete from auth.sessions where id = $1', [sessionId]);
      } else if (sessionId !== null && scope === 'others') {
        await ctx.db.query('delete from auth.sessions where user_id = $1 and id <> $2', [user.id, sessionId]);
      } else {
        await ctx.db.query('delete from auth.sessions where user_id = $1', [user.id]);
      }
      return new Response(null, { status: 204 });
    }
    case 'admin':
      return adminRoutes(ctx, request, rest);
    default:
      return notFound();
  }
}

export function createAuthService(ctx: StackContext): Service {
  const limits = createSignInLimits(ctx.config.signInRateLimit);
  return {
    async handle(request, path) {
      try {
        return await route(ctx, limits, request, path);
      } catch (error) {
        if (error instanceof AuthApiError) return errorResponse(request, error);
        console.error('[supabase-local auth]', error);
        return errorResponse(request, new AuthApiError(500, 'unexpected_failure', 'Internal Server Error'));
      }
    },
  };
}
