/** The admin user API (`/admin/users[/<id>]`) for the service key, as GoTrue's admin.go answers it. */
import { json } from '../../http';
import { hashPassword, passwordTooLong } from '../../passwords';
import type { StackContext } from '../../types';
import { AuthApiError, badRequest, methodNotAllowed, notFound } from '../errors';
import { mergeMetadata, objectParam, readParams, stringParam, validateEmail } from '../params';
import { requireAdmin } from '../sessions';
import { AUDIENCE, createUser, findUserByEmail, findUserById, USER_COLUMNS, userJson, UUID_PATTERN, type UserRow } from '../users';

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

export async function adminRoutes(ctx: StackContext, request: Request, rest: string[]): Promise<Response> {
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
