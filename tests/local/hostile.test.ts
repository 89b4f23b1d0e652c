/**
 * Hostile input against the local stack over real HTTP: SQL in values and identifiers, forged and
 * expired tokens, malformed bodies, paths outside the API. After every test the data must be
 * exactly as before and the server must still answer.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ANON_KEY, LOCAL_JWT_SECRET, LOCAL_SERVICE_ROLE_KEY } from '../../supabase/local/config';
import { signJwt } from '../../supabase/local/jwt';
import { ADMIN, startHarness, type Harness } from './harness';

let harness: Harness;
let adminToken: string;
let documentId: string;
let baseline: Snapshot;

const drop = "'; drop table public.documents; --";

interface Snapshot {
  documents: number;
  users: number;
  authUsers: number;
  tables: number;
  title: string | undefined;
}

async function snapshot(): Promise<Snapshot> {
  const { rows } = await harness.stack.db.query<Omit<Snapshot, 'title'>>(
    `select (select count(*)::int from public.documents) as documents,
            (select count(*)::int from public.users) as users,
            (select count(*)::int from auth.users) as "authUsers",
            (select count(*)::int from pg_catalog.pg_tables where schemaname in ('public', 'auth')) as tables`,
  );
  const title = await harness.stack.db.query<{ title: string }>('select title from public.documents where id = $1', [documentId]);
  const counts = rows[0] ?? { documents: -1, users: -1, authUsers: -1, tables: -1 };
  return { ...counts, title: title.rows[0]?.title };
}

beforeAll(async () => {
  harness = await startHarness();
  const admin = await harness.signedIn(ADMIN.email, ADMIN.password);
  adminToken = (await admin.auth.getSession()).data.session?.access_token ?? '';
  const { data, error } = await admin.from('documents').insert({ title: 'Bestand', url: 'https://files.example/bestand.pdf' }).select('id').single();
  if (error) throw new Error(error.message);
  documentId = data.id;
  baseline = await snapshot();
});

afterEach(async () => {
  expect(await snapshot()).toEqual(baseline);
  // The server still serves ordinary requests.
  const { data, error } = await harness.anon().from('voice_configs').select('is_active').eq('is_active', true);
  expect(error).toBeNull();
  expect(data).toEqual([{ is_active: true }]);
});

afterAll(async () => {
  await harness.close();
});

function rest(path: string, init: RequestInit & { token?: string } = {}) {
  const headers = new Headers(init.headers);
  if (!headers.has('apikey')) headers.set('apikey', LOCAL_ANON_KEY);
  if (!headers.has('authorization')) headers.set('authorization', `Bearer ${init.token ?? adminToken}`);
  if (init.body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
  return fetch(`${harness.url}/rest/v1${path}`, { ...init, headers });
}

const q = encodeURIComponent;

async function expectError(response: Response, status: number, code?: string) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { code?: string; message?: string };
  if (code !== undefined) expect(body.code).toBe(code);
  return body;
}

describe('REST: SQL in values', () => {
  it('treats filter values as data, never as SQL', async () => {
    const admin = await harness.signedIn(ADMIN.email, ADMIN.password);
    for (const query of [
      admin.from('documents').select('id').eq('title', drop),
      admin.from('documents').select('id').like('title', `%${drop}%`),
      admin.from('documents').select('id').in('title', [drop, "') or ('1'='1"]),
      admin.from('documents').select('id').or(`title.eq.${q(drop)},title.eq."x') or true --"`),
      admin.from('documents').select('id').ilike('title', drop),
      admin.from('documents').select('id').neq('title', "x' or '1'='1").eq('title', "x' or '1'='1"),
    ]) {
      const { data, error } = await query;
      expect(error).toBeNull();
      expect(data).toEqual([]);
    }
    const typed = await admin.from('documents').select('id').eq('id', `${documentId}' or 1=1 --`);
    expect([typed.status, typed.error?.code]).toEqual([400, '22P02']);
    // Full text search operators are not offered locally: refused before any SQL is built.
    const tsquery = await admin.from('documents').select('id').textSearch('title', drop);
    expect([tsquery.status, tsquery.error?.code]).toEqual([400, 'PGRST100']);
  });

  it('treats function arguments and written values as data', async () => {
    const admin = await harness.signedIn(ADMIN.email, ADMIN.password);
    const search = await admin.rpc('search_knowledge', { query: `x'); ${drop}`, match_count: 3 });
    expect(search.error).toBeNull();
    expect(search.data).toEqual([]);
    const update = await admin.from('documents').update({ title: drop }).eq('id', '00000000-0000-4000-8000-000000000000').select('id');
    expect(update.error).toBeNull();
    expect(update.data).toEqual([]);
  });
});

describe('REST: SQL in identifiers', () => {
  it('refuses select lists, orders and filter columns that are not plain column names', async () => {
    const attempts = [
      `/documents?select=${q('id;drop table public.documents')}`,
      `/documents?select=${q('id,(select encrypted_password from auth.users)')}`,
      `/documents?select=${q('id::text);drop table public.documents;--')}`,
      `/documents?select=${q('id::text from auth.users --')}`,
      `/documents?select=${q('*,pg_sleep(1)')}`,
      `/documents?order=${q('id;drop table public.documents')}`,
      `/documents?order=${q('(select 1)')}`,
      `/documents?order=${q('title.desc;drop table public.documents')}`,
      `/documents?${q('title;drop table public.documents')}=eq.x`,
      `/documents?${q('title) or (1=1')}=eq.x`,
      `/documents?or=${q('(title.eq.x,1=1)')}`,
      `/documents?title=${q('eq.x);drop table public.documents;--')}&select=${q("id'")}`,
    ];
    for (const path of attempts) {
      const response = await rest(path);
      expect({ path, status: response.status }).toEqual({ path, status: 400 });
      await response.body?.cancel();
    }
  });

  it('looks quoted names up in the catalog instead of passing them to SQL', async () => {
    // Inside quotes a backslash escapes the next character, as in PostgREST.
    const select = await expectError(await rest(`/documents?select=${q('"id\\"; drop table public.documents; --"')}`), 400, '42703');
    expect(select.message).toBe('column documents.id"; drop table public.documents; -- does not exist');
    await expectError(await rest(`/documents?${q('"title\\" = \'\' or 1=1 --"')}=eq.x`), 400, '42703');
    await expectError(await rest(`/documents?order=${q('"title\\" desc; --"')}`), 400, '42703');
    // A doubled quote is not an escape: it ends the name, and the rest does not parse.
    await expectError(await rest(`/documents?select=${q('"id""; drop table public.documents; --"')}`), 400, 'PGRST100');
    await expectError(
      await rest(`/documents?columns=${q('"title); drop table public.documents; --"')}`, { method: 'POST', body: '[{"title":"x"}]' }),
      400,
      'PGRST204',
    );
    for (const [onConflict, code] of [
      ['"id") do update set title = \'x\' --"', 'PGRST100'],
      ['"id\\") do update set title = \'x\' --"', '42703'],
    ]) {
      await expectError(
        await rest(`/documents?on_conflict=${q(onConflict ?? '')}`, {
          method: 'POST',
          headers: { prefer: 'resolution=merge-duplicates' },
          body: JSON.stringify({ title: 'x', url: 'https://files.example/x.pdf' }),
        }),
        400,
        code,
      );
    }
    await expectError(await rest(`/documents?select=${q('id::text; drop table x')}`), 400);
  });

  it('does not reach tables or functions outside public', async () => {
    await expectError(await rest(`/${q('documents;drop table public.documents')}`), 404, 'PGRST205');
    await expectError(await rest(`/${q('auth.users')}`), 404, 'PGRST205');
    await expectError(await rest('/pg_user'), 404, 'PGRST205');
    await expectError(await rest('/documents/extra'), 404, 'PGRST125');
    await expectError(await rest(`/rpc/${q('admin_stats();drop table public.documents;--')}`, { method: 'POST', body: '{}' }), 404, 'PGRST202');
    await expectError(await rest('/rpc/pg_sleep', { method: 'POST', body: '{"seconds":1}' }), 404, 'PGRST202');
    await expectError(await rest('/rpc/document_passages', { method: 'POST', body: '{"source":"x"}' }), 404, 'PGRST202');
    await expectError(await rest('/users', { headers: { 'accept-profile': 'auth' } }), 406, 'PGRST106');
    await expectError(
      await rest('/rpc/search_knowledge', { method: 'POST', body: JSON.stringify({ query: 'x', 'match_count" int); drop table public.documents; --': 1 }) }),
      404,
      'PGRST202',
    );
  });
});

describe('REST: tokens', () => {
  const now = () => Math.floor(Date.now() / 1000);

  it('rejects a token signed with another secret and writes nothing', async () => {
    const forged = signJwt({ role: 'service_role', iss: 'supabase-demo', exp: now() + 3600 }, 'an-entirely-different-secret-of-32-chars');
    const read = await expectError(await rest('/documents?select=id', { token: forged }), 401, 'PGRST301');
    expect(read.message).toBe('No suitable key or wrong key type');
    const write = await rest('/documents', { method: 'POST', token: forged, body: JSON.stringify({ title: 'Gefälscht', url: 'https://evil.example/x.pdf' }) });
    expect(write.status).toBe(401);
    expect(write.headers.get('www-authenticate')).toContain('invalid_token');
    const del = await rest(`/documents?id=eq.${documentId}`, { method: 'DELETE', token: forged });
    expect(del.status).toBe(401);
    // A forged apikey alone does not get further either.
    const keyOnly = await fetch(`${harness.url}/rest/v1/documents`, { headers: { apikey: forged } });
    expect(keyOnly.status).toBe(401);
  });

  it('rejects unsigned and truncated tokens', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ role: 'service_role', exp: now() + 3600 })).toString('base64url');
    await expectError(await rest('/documents', { token: `${header}.${payload}.` }), 401, 'PGRST301');
    const truncated = await expectError(await rest('/documents', { token: `${header}.${payload}` }), 401, 'PGRST301');
    expect(truncated.message).toBe('Expected 3 parts in JWT; got 2');
  });

  it('rejects an expired token', async () => {
    const expired = signJwt({ role: 'service_role', iat: now() - 7200, exp: now() - 60 }, LOCAL_JWT_SECRET);
    const response = await rest('/documents', { token: expired });
    const body = await expectError(response, 401, 'PGRST303');
    expect(body.message).toBe('JWT expired');
  });

  it('never runs a request as a role other than anon, authenticated or service_role', async () => {
    for (const role of ['postgres', 'supabase_admin', 'authenticator']) {
      const token = signJwt({ role, exp: now() + 60 }, LOCAL_JWT_SECRET);
      await expectError(await rest('/documents', { token, method: 'DELETE' }), 403, '42501');
    }
  });

  it('asks for a key when there is none', async () => {
    const response = await fetch(`${harness.url}/rest/v1/documents`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ message: 'No API key found in request' });
  });
});

describe('REST: malformed requests', () => {
  it('rejects malformed and misshapen JSON bodies', async () => {
    for (const body of ['{"title":', '', 'null', '"text"', '[1,2]', '{"title":"a"}{"title":"b"}']) {
      await expectError(await rest('/documents', { method: 'POST', body }), 400, 'PGRST102');
    }
    await expectError(await rest(`/documents?id=eq.${documentId}`, { method: 'PATCH', body: '[{"title":"x"}]' }), 400, 'PGRST102');
    await expectError(await rest('/rpc/admin_stats', { method: 'POST', body: '{"a":' }), 400, 'PGRST102');
    await expectError(await rest('/documents', { method: 'POST', body: '[{"title":"a"},{"url":"b"}]' }), 400, 'PGRST102');
  });

  it('rejects unsupported methods, media types and limits', async () => {
    await expectError(await rest('/documents', { method: 'PUT', body: '{}' }), 405, 'PGRST117');
    await expectError(await rest('/documents', { headers: { accept: 'text/csv' } }), 406, 'PGRST107');
    await expectError(await rest('/documents?limit=1;drop'), 400, 'PGRST100');
    await expectError(await rest('/documents?offset=-1'), 400, 'PGRST100');
  });
});

describe('auth: hostile input', () => {
  function auth(path: string, init: RequestInit & { token?: string } = {}) {
    return fetch(`${harness.url}/auth/v1${path}`, {
      ...init,
      headers: {
        apikey: LOCAL_ANON_KEY,
        authorization: `Bearer ${init.token ?? LOCAL_ANON_KEY}`,
        'content-type': 'application/json',
        'x-supabase-api-version': '2024-01-01',
      },
    });
  }

  it('does not let SQL or odd types into a sign-in', async () => {
    for (const body of [
      { email: `${ADMIN.email}' --`, password: 'x' },
      { email: "' or '1'='1", password: "' or '1'='1" },
      { email: ADMIN.email, password: `${ADMIN.password}' or '1'='1` },
    ]) {
      const response = await auth('/token?grant_type=password', { method: 'POST', body: JSON.stringify(body) });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ code: 'invalid_credentials', message: 'Invalid login credentials' });
    }
    const typed = await auth('/token?grant_type=password', { method: 'POST', body: JSON.stringify({ email: { $ne: null }, password: 'x' }) });
    expect(typed.status).toBe(400);
    expect(await typed.json()).toMatchObject({ code: 'bad_json' });
    const malformed = await auth('/token?grant_type=password', { method: 'POST', body: '{"email":' });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ code: 'bad_json' });
    const refresh = await auth('/token?grant_type=refresh_token', { method: 'POST', body: JSON.stringify({ refresh_token: "' or 1=1 --" }) });
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toMatchObject({ code: 'refresh_token_not_found' });
  });

  it('refuses forged and escalated tokens on the admin API and creates nobody', async () => {
    const forged = signJwt({ role: 'service_role', exp: Math.floor(Date.now() / 1000) + 60 }, 'an-entirely-different-secret-of-32-chars');
    const body = JSON.stringify({ email: 'intruder@example.com', password: 'password-123', email_confirm: true, app_metadata: { role: 'admin' } });
    const withForged = await auth('/admin/users', { method: 'POST', token: forged, body });
    expect(withForged.status).toBe(403);
    expect(await withForged.json()).toMatchObject({ code: 'bad_jwt' });
    const withUser = await auth('/admin/users', { method: 'POST', token: adminToken, body });
    expect(withUser.status).toBe(403);
    expect(await withUser.json()).toMatchObject({ code: 'not_admin' });
    // Users cannot rewrite their own account (and with it app_metadata) either.
    const selfUpdate = await auth('/user', { method: 'PUT', token: adminToken, body: JSON.stringify({ app_metadata: { role: 'admin' } }) });
    expect(selfUpdate.status).toBe(405);
    const signup = await auth('/signup', { method: 'POST', body });
    expect(signup.status).toBe(422);
  });

  it('rejects oversized bodies and unknown user ids', async () => {
    const huge = await auth('/token?grant_type=password', {
      method: 'POST',
      body: JSON.stringify({ email: ADMIN.email, password: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(huge.status).toBe(413);
    const badId = await auth(`/admin/users/${q("1' or '1'='1")}`, { token: LOCAL_SERVICE_ROLE_KEY, method: 'DELETE' });
    expect(badId.status).toBe(404);
  });
});
