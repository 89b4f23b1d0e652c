/** auth.users as GoTrue reads, writes and serialises it, and the admin user the stack ensures. */
import { randomBytes, randomUUID } from 'node:crypto';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { hashPassword, passwordTooLong } from '../passwords';
import type { StackContext } from '../types';
import { AuthApiError, badRequest } from './errors';
import { mergeMetadata, validateEmail, type Json } from './params';

export const INSTANCE_ID = '00000000-0000-0000-0000-000000000000';
export const AUDIENCE = 'authenticated';
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Queryable = PGlite | Transaction;

export interface UserRow {
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

export const USER_COLUMNS = `id, aud, role, email, encrypted_password, email_confirmed_at, invited_at, phone,
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

export function isBanned(row: UserRow): boolean {
  return row.banned_until !== null && row.banned_until.getTime() > Date.now();
}

export async function findUserById(db: Queryable, id: string): Promise<UserRow | null> {
  const result = await db.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1`, [id]);
  return result.rows[0] ?? null;
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const result = await db.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users
      where lower(email) = lower($1) and aud = $2 and is_sso_user = false
      order by created_at limit 1`,
    [email, AUDIENCE],
  );
  return result.rows[0] ?? null;
}

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
