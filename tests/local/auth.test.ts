/**
 * The local auth server (GoTrue subset), driven over real HTTP with supabase-js and raw fetch:
 * password sign-in, refresh token rotation, sign-out, the current user, the admin user API and
 * the error bodies auth-js turns into the messages the app shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureUser } from '../../supabase/local/auth';
import { LOCAL_ANON_KEY, LOCAL_JWT_SECRET, LOCAL_SERVICE_ROLE_KEY } from '../../supabase/local/config';
import { signJwt } from '../../supabase/local/jwt';
import { ADMIN, clientAt, startHarness, type Harness } from './harness';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
});

afterAll(async () => {
  await harness.close();
});

const decode = (token: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

function authFetch(path: string, init: RequestInit & { key?: string; token?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set('apikey', init.key ?? LOCAL_ANON_KEY);
  headers.set('authorization', `Bearer ${init.token ?? init.key ?? LOCAL_ANON_KEY}`);
  if (init.body !== undefined) headers.set('content-type', 'application/json');
  return fetch(`${harness.url}/auth/v1${path}`, { ...init, headers });
}

/** Moves the moment a refresh token was revoked back, past the reuse interval (10 s). */
async function ageRefreshToken(token: string, seconds: number) {
  await harness.stack.db.query(
    `update auth.refresh_tokens set updated_at = updated_at - make_interval(secs => $2) where token = $1`,
    [token, seconds],
  );
}

describe('password sign-in', () => {
  it('signs the admin in with a GoTrue session and a JWT PostgREST accepts', async () => {
    const client = harness.anon();
    const { data, error } = await client.auth.signInWithPassword(ADMIN);
    expect(error).toBeNull();
    const session = data.session;
    expect(session).not.toBeNull();
    if (!session) return;
    expect(session.token_type).toBe('bearer');
    expect(session.expires_in).toBe(3600);
    expect(session.refresh_token).toMatch(/^\S{16,}$/);
    expect(session.user.email).toBe(ADMIN.email);
    expect(session.user.last_sign_in_at).toEqual(expect.any(String));

    const claims = decode(session.access_token);
    expect(claims).toMatchObject({
      sub: session.user.id,
      role: 'authenticated',
      aud: 'authenticated',
      email: ADMIN.email,
      iss: `${harness.url}/auth/v1`,
      app_metadata: { role: 'admin', provider: 'email', providers: ['email'] },
      user_metadata: {},
    });
    expect(claims.session_id).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
    expect(Number(claims.exp) - Number(claims.iat)).toBe(3600);
    expect(session.expires_at).toBe(claims.exp);
  });

  it('returns the signed-in user from /user with app_metadata', async () => {
    const client = await harness.signedIn(ADMIN.email, ADMIN.password);
    const { data, error } = await client.auth.getUser();
    expect(error).toBeNull();
    expect(data.user).toMatchObject({
      email: ADMIN.email,
      aud: 'authenticated',
      role: 'authenticated',
      app_metadata: { role: 'admin' },
      identities: [],
    });
    expect(data.user?.email_confirmed_at).toEqual(expect.any(String));
  });

  it('rejects a wrong password and an unknown e-mail alike', async () => {
    for (const credentials of [
      { email: ADMIN.email, password: 'wrong-password' },
      { email: 'nobody@example.com', password: ADMIN.password },
    ]) {
      const { data, error } = await harness.anon().auth.signInWithPassword(credentials);
      expect(data.session).toBeNull();
      expect(error?.message).toBe('Invalid login credentials');
      expect(error?.status).toBe(400);
      expect(error?.code).toBe('invalid_credentials');
    }
  });

  it('matches the e-mail without regard to case', async () => {
    const { error } = await harness.anon().auth.signInWithPassword({ email: ADMIN.email.toUpperCase(), password: ADMIN.password });
    expect(error).toBeNull();
  });

  it('answers older clients with the legacy error body', async () => {
    const response = await fetch(`${harness.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: LOCAL_ANON_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN.email, password: 'nope' }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-sb-error-code')).toBe('invalid_credentials');
    expect(await response.json()).toEqual({ code: 400, error_code: 'invalid_credentials', msg: 'Invalid login credentials' });
  });

  it('refuses sign-ups, as the project has them switched off', async () => {
    const { error } = await harness.anon().auth.signUp({ email: 'new@example.com', password: 'password-123' });
    expect(error?.status).toBe(422);
    expect(error?.code).toBe('signup_disabled');
    expect(error?.message).toBe('Signups not allowed for this instance');
    const { rows } = await harness.stack.db.query(`select 1 from auth.users where email = 'new@example.com'`);
    expect(rows).toHaveLength(0);
  });

  it("limits failed attempts per address with GoTrue's burst of 30 by default", async () => {
    const client = clientAt('127.0.0.31');
    try {
      // At once, so the refill (150 per 5 minutes) cannot hand out more than a few extra attempts.
      const statuses = await Promise.all(
        Array.from({ length: 45 }, (_, index) =>
          client
            .fetch(`${harness.url}/auth/v1/token?grant_type=password`, {
              method: 'POST',
              headers: { apikey: LOCAL_ANON_KEY, 'content-type': 'application/json' },
              body: JSON.stringify({ email: `guess-${String(index)}@example.com`, password: 'wrong' }),
            })
            .then((response) => response.status),
        ),
      );
      const refused = statuses.filter((status) => status === 429).length;
      expect(statuses.filter((status) => status === 400).length).toBeGreaterThanOrEqual(30);
      expect(refused).toBeGreaterThan(0);
      expect(refused + statuses.filter((status) => status === 400).length).toBe(45);
    } finally {
      await client.close();
    }
  });
});

describe('sessions', () => {
  it('rotates the refresh token and rejects the old one once its grace period is over', async () => {
    const client = await harness.signedIn(ADMIN.email, ADMIN.password);
    const first = (await client.auth.getSession()).data.session;
    expect(first).not.toBeNull();
    if (!first) return;

    const { data, error } = await client.auth.refreshSession();
    expect(error).toBeNull();
    const second = data.session;
    expect(second?.refresh_token).toBeDefined();
    expect(second?.refresh_token).not.toBe(first.refresh_token);
    expect(decode(second?.access_token ?? '').session_id).toBe(decode(first.access_token).session_id);

    // Within the reuse interval GoTrue hands a client that lost the answer the token it missed.
    const retry = await harness.anon().auth.refreshSession({ refresh_token: first.refresh_token });
    expect(retry.error).toBeNull();
    expect(retry.data.session?.refresh_token).toBe(second?.refresh_token);

    // Once the session has moved on, the old token is only accepted within the reuse interval.
    const third = await client.auth.refreshSession();
    expect(third.error).toBeNull();
    expect(third.data.session?.refresh_token).not.toBe(second?.refresh_token);
    await ageRefreshToken(first.refresh_token, 60);
    const reused = await harness.anon().auth.refreshSession({ refresh_token: first.refresh_token });
    expect(reused.data.session).toBeNull();
    expect(reused.error?.message).toBe('Invalid Refresh Token: Already Used');
    expect(reused.error?.code).toBe('refresh_token_already_used');

    // Reuse is treated as theft: every token of the session is revoked.
    const { rows } = await harness.stack.db.query<{ revoked: boolean }>(
      `select revoked from auth.refresh_tokens where session_id = $1`,
      [decode(first.access_token).session_id],
    );
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.every((row) => row.revoked)).toBe(true);
  });

  it('rejects an unknown refresh token', async () => {
    const { error } = await harness.anon().auth.refreshSession({ refresh_token: 'not-a-token' });
    expect(error?.message).toBe('Invalid Refresh Token: Refresh Token Not Found');
    expect(error?.code).toBe('refresh_token_not_found');
  });

  it('signs out: the refresh token and the session are gone', async () => {
    const client = await harness.signedIn(ADMIN.email, ADMIN.password);
    const session = (await client.auth.getSession()).data.session;
    expect(session).not.toBeNull();
    if (!session) return;

    const { error } = await client.auth.signOut();
    expect(error).toBeNull();
    expect((await client.auth.getSession()).data.session).toBeNull();

    const refreshed = await harness.anon().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(refreshed.error?.message).toBe('Invalid Refresh Token: Refresh Token Not Found');

    // The access token is still signed, but its session no longer exists.
    const user = await harness.anon().auth.getUser(session.access_token);
    expect(user.data.user).toBeNull();
    expect(user.error?.name).toBe('AuthSessionMissingError');
  });

  it('signs out only the current session with scope local', async () => {
    const first = await harness.signedIn(ADMIN.email, ADMIN.password);
    const second = await harness.signedIn(ADMIN.email, ADMIN.password);
    expect((await first.auth.signOut({ scope: 'local' })).error).toBeNull();
    expect((await second.auth.getUser()).error).toBeNull();
    expect((await second.auth.refreshSession()).error).toBeNull();
  });
});

describe('bearer tokens on /user', () => {
  it('refuses the anon key, a forged token and an expired token', async () => {
    const anon = await authFetch('/user');
    expect(anon.status).toBe(403);
    expect(await anon.json()).toMatchObject({ error_code: 'bad_jwt', msg: 'invalid claim: missing sub claim' });

    const client = await harness.signedIn(ADMIN.email, ADMIN.password);
    const claims = decode((await client.auth.getSession()).data.session?.access_token ?? '');
    const forged = signJwt(claims, 'another-secret-with-at-least-32-characters!');
    const forgedResponse = await authFetch('/user', { token: forged });
    expect(forgedResponse.status).toBe(403);
    expect(await forgedResponse.json()).toMatchObject({ error_code: 'bad_jwt' });

    const now = Math.floor(Date.now() / 1000);
    const expired = signJwt({ ...claims, iat: now - 7200, exp: now - 3600 }, LOCAL_JWT_SECRET);
    const expiredResponse = await authFetch('/user', { token: expired });
    expect(expiredResponse.status).toBe(403);
    const body = (await expiredResponse.json()) as { error_code: string; msg: string };
    expect(body.error_code).toBe('bad_jwt');
    expect(body.msg).toContain('token is expired');

    const missing = await fetch(`${harness.url}/auth/v1/user`, { headers: { apikey: LOCAL_ANON_KEY } });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ error_code: 'no_authorization' });
  });

  it('answers unknown routes and methods as GoTrue does', async () => {
    const unknown = await authFetch('/does-not-exist');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe('404 page not found\n');
    expect((await authFetch('/token?grant_type=password')).status).toBe(405);
    const grant = await authFetch('/token?grant_type=magic', { method: 'POST', body: '{}' });
    expect(grant.status).toBe(400);
  });
});

describe('admin API', () => {
  it('creates, lists and deletes users with the service key', async () => {
    const service = harness.service();
    const email = 'operator@example.com';
    const created = await service.auth.admin.createUser({
      email,
      password: 'password-123',
      email_confirm: true,
      app_metadata: { role: 'admin' },
      user_metadata: { name: 'Operator' },
    });
    expect(created.error).toBeNull();
    const user = created.data.user;
    expect(user).toMatchObject({
      email,
      app_metadata: { role: 'admin', provider: 'email', providers: ['email'] },
      user_metadata: { name: 'Operator' },
    });
    expect(user?.email_confirmed_at).toEqual(expect.any(String));

    // The auth.users trigger keeps the public profile in step.
    const profile = await harness.stack.db.query<{ email: string; role: string }>(`select email, role from public.users where id = $1`, [user?.id]);
    expect(profile.rows).toEqual([{ email, role: 'admin' }]);

    const duplicate = await service.auth.admin.createUser({ email: email.toUpperCase(), password: 'password-123', email_confirm: true });
    expect(duplicate.error?.status).toBe(422);
    expect(duplicate.error?.code).toBe('email_exists');
    expect(duplicate.error?.message).toBe('A user with this email address has already been registered');

    const listed = await service.auth.admin.listUsers();
    expect(listed.error).toBeNull();
    expect(listed.data.users.map((entry) => entry.email)).toEqual(expect.arrayContaining([email, ADMIN.email]));

    const signedIn = await harness.signedIn(email, 'password-123');
    expect((await signedIn.auth.getUser()).data.user?.app_metadata.role).toBe('admin');

    const removed = await service.auth.admin.deleteUser(user?.id ?? '');
    expect(removed.error).toBeNull();
    const gone = await harness.stack.db.query(`select 1 from public.users where id = $1`, [user?.id]);
    expect(gone.rows).toHaveLength(0);
    const again = await harness.anon().auth.signInWithPassword({ email, password: 'password-123' });
    expect(again.error?.message).toBe('Invalid login credentials');
    // Its sessions went with it.
    expect((await signedIn.auth.getUser()).data.user).toBeNull();
  });

  it('does not confirm e-mail addresses unless asked, so such users cannot sign in', async () => {
    const created = await harness.service().auth.admin.createUser({ email: 'pending@example.com', password: 'password-123' });
    expect(created.error).toBeNull();
    expect(created.data.user?.email_confirmed_at).toBeUndefined();
    const { error } = await harness.anon().auth.signInWithPassword({ email: 'pending@example.com', password: 'password-123' });
    expect(error?.code).toBe('email_not_confirmed');
  });

  it('refuses the anon key and signed-in users, even admins', async () => {
    const anon = await harness.anon().auth.admin.createUser({ email: 'intruder@example.com', password: 'password-123' });
    expect(anon.error?.status).toBe(403);
    expect(anon.error?.code).toBe('not_admin');
    expect(anon.error?.message).toBe('User not allowed');

    const admin = await harness.signedIn(ADMIN.email, ADMIN.password);
    const token = (await admin.auth.getSession()).data.session?.access_token ?? '';
    const response = await authFetch('/admin/users', { token });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error_code: 'not_admin' });

    const { rows } = await harness.stack.db.query(`select 1 from auth.users where email = 'intruder@example.com'`);
    expect(rows).toHaveLength(0);
  });

  it('validates what it is given', async () => {
    const invalid = await authFetch('/admin/users', { method: 'POST', key: LOCAL_SERVICE_ROLE_KEY, body: JSON.stringify({ email: 'not-an-address' }) });
    expect(invalid.status).toBe(400);
    const missing = await authFetch('/admin/users/00000000-0000-4000-8000-000000000000', { key: LOCAL_SERVICE_ROLE_KEY });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error_code: 'user_not_found' });
    const badJson = await authFetch('/admin/users', { method: 'POST', key: LOCAL_SERVICE_ROLE_KEY, body: '{"email":' });
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ error_code: 'bad_json' });
  });
});

describe('ensureUser', () => {
  it('is idempotent: keeps the password and adds missing app_metadata', async () => {
    const ctx = { db: harness.stack.db, config: harness.stack.config, filesDir: '', origin: () => harness.url };
    const email = 'seeded@example.com';
    const id = await ensureUser(ctx, { email, password: 'first-password', appMetadata: {} });
    expect(await ensureUser(ctx, { email, password: 'second-password', appMetadata: { role: 'admin' } })).toBe(id);

    const { rows } = await harness.stack.db.query<{ raw_app_meta_data: Record<string, unknown> }>(
      `select raw_app_meta_data from auth.users where email = $1`,
      [email],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.raw_app_meta_data).toMatchObject({ role: 'admin', provider: 'email' });
    expect((await harness.anon().auth.signInWithPassword({ email, password: 'first-password' })).error).toBeNull();
    expect((await harness.anon().auth.signInWithPassword({ email, password: 'second-password' })).error?.message).toBe(
      'Invalid login credentials',
    );
  });
});
