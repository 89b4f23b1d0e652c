/**
 * The local REST API (PostgREST subset), driven with supabase-js as the app uses it and with raw
 * fetch where the wire format matters: reads, counts, writes, functions, error bodies, and every
 * cell of the row level security matrix seen through the API.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY } from '../../supabase/local/config';
import type { Database } from '../../src/types/database';
import { ADMIN, startHarness, type Harness } from './harness';

type Client = SupabaseClient<Database>;

let harness: Harness;
let admin: Client;
let member: Client;
let anon: Client;
let service: Client;
let adminId: string;

const passage =
  'Achtsamkeit im Coaching hilft Klientinnen, ihre Gedanken wahrzunehmen, ohne sie sofort zu bewerten. ' +
  'Atemübungen und kurze Pausen stärken die Selbstregulation im Alltag.';

beforeAll(async () => {
  harness = await startHarness();
  [admin, member] = await Promise.all([harness.signedIn(ADMIN.email, ADMIN.password), harness.user('member@example.com')]);
  anon = harness.anon();
  service = harness.service();
  adminId = (await admin.auth.getUser()).data.user?.id ?? '';
});

afterAll(async () => {
  await harness.close();
});

function rest(path: string, init: RequestInit & { key?: string; token?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set('apikey', init.key ?? LOCAL_ANON_KEY);
  headers.set('authorization', `Bearer ${init.token ?? init.key ?? LOCAL_ANON_KEY}`);
  if (init.body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
  return fetch(`${harness.url}/rest/v1${path}`, { ...init, headers });
}

let counter = 0;
async function createDocument(overrides: Partial<Database['public']['Tables']['documents']['Insert']> = {}) {
  counter += 1;
  const { data, error } = await admin
    .from('documents')
    .insert({ title: `Dokument ${counter}`, url: `https://files.example/doc-${counter}.pdf`, storage_path: `doc-${counter}.pdf`, ...overrides })
    .select()
    .single();
  if (error) throw new Error(error.message);
  return data;
}

async function documentCount(): Promise<number> {
  const { rows } = await harness.stack.db.query<{ count: number }>('select count(*)::int as count from public.documents');
  return rows[0]?.count ?? -1;
}

describe('reads and writes as the admin panel makes them', () => {
  it('inserts a document and returns it with .select().single()', async () => {
    const { data, error, status } = await admin
      .from('documents')
      .insert({ title: 'Leitfaden', url: 'https://files.example/leitfaden.pdf', file_size: 1234 })
      .select()
      .single();
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(data).toMatchObject({ title: 'Leitfaden', status: 'PROCESSING', type: 'PDF', file_size: 1234, created_by: adminId, error: null });
    expect(data?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(data?.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?\+00:00$/);
  });

  it('lists documents newest first', async () => {
    const older = await createDocument();
    await harness.stack.db.query(`update public.documents set created_at = now() - interval '1 day' where id = $1`, [older.id]);
    const newer = await createDocument();
    const { data, error } = await admin.from('documents').select('*').order('created_at', { ascending: false });
    expect(error).toBeNull();
    const ids = (data ?? []).map((row) => row.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    const times = (data ?? []).map((row) => Date.parse(row.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('updates and deletes with filters and returns the rows', async () => {
    const doc = await createDocument();
    const updated = await admin.from('documents').update({ status: 'ERROR', error: 'Kaputt' }).eq('id', doc.id).select('id,status,error');
    expect(updated.error).toBeNull();
    expect(updated.data).toEqual([{ id: doc.id, status: 'ERROR', error: 'Kaputt' }]);

    const removed = await admin.from('documents').delete().eq('id', doc.id).select('id');
    expect(removed.error).toBeNull();
    expect(removed.data).toEqual([{ id: doc.id }]);
    expect((await admin.from('documents').select('id').eq('id', doc.id)).data).toEqual([]);
  });

  it('refuses an update or delete without any filter, as pg-safeupdate does on Supabase', async () => {
    const doc = await createDocument();
    const update = await admin.from('documents').update({ title: 'Alle' });
    expect(update.status).toBe(400);
    expect(update.error).toMatchObject({ code: '21000', message: 'UPDATE requires a WHERE clause' });
    const removal = await admin.from('documents').delete();
    expect(removal.status).toBe(400);
    expect(removal.error).toMatchObject({ code: '21000', message: 'DELETE requires a WHERE clause' });
    expect((await admin.from('documents').select('id,title').eq('id', doc.id)).data).toEqual([{ id: doc.id, title: doc.title }]);
    // A condition that matches every row is a condition: it passes.
    const removed = await admin.from('documents').delete().eq('id', doc.id).neq('title', '').select('id');
    expect(removed.data).toEqual([{ id: doc.id }]);
  });

  it('changes the active voice configuration where is_active = true', async () => {
    const { data, error } = await admin
      .from('voice_configs')
      .update({ stability: 0.5, pitch: 1.25 })
      .eq('is_active', true)
      .select()
      .single();
    expect(error).toBeNull();
    expect(data).toMatchObject({ stability: 0.5, pitch: 1.25, is_active: true });
    const active = await anon.from('voice_configs').select('stability,pitch').eq('is_active', true).single();
    expect(active.data).toEqual({ stability: 0.5, pitch: 1.25 });
  });

  it('counts rows with head requests', async () => {
    await service.from('conversations').insert([{ message_count: 3, rating: 5 }, { message_count: 1 }]);
    const expected = async (table: string) => {
      const { rows } = await harness.stack.db.query<{ count: number }>(`select count(*)::int as count from public.${table}`);
      return rows[0]?.count;
    };
    for (const table of ['users', 'conversations', 'documents'] as const) {
      const { count, data, error, status } = await admin.from(table).select('id', { count: 'exact', head: true });
      expect(error).toBeNull();
      expect(status).toBe(200);
      expect(data).toBeNull();
      expect(count).toBe(await expected(table));
      expect(count).toBeGreaterThan(0);
    }
  });

  it('answers with Content-Range and 206 for a partial page', async () => {
    await createDocument();
    await createDocument();
    const total = await documentCount();
    const response = await rest('/documents?select=id&order=created_at.desc&limit=1&offset=1', {
      token: (await admin.auth.getSession()).data.session?.access_token ?? '',
      headers: { prefer: 'count=exact' },
    });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`1-1/${total}`);
    expect(((await response.json()) as unknown[]).length).toBe(1);

    const empty = await rest('/documents?select=id', { headers: { prefer: 'count=exact' } });
    expect(empty.status).toBe(200);
    expect(empty.headers.get('content-range')).toBe('*/0');
    expect(await empty.json()).toEqual([]);
  });

  it('filters, orders, aliases and pages as PostgREST does', async () => {
    const a = await createDocument({ title: 'Alpha Handbuch', file_size: 10 });
    const b = await createDocument({ title: 'Beta Handbuch', file_size: 20 });
    const c = await createDocument({ title: 'Gamma (Notizen), Teil 1', file_size: null });

    const ilike = await admin.from('documents').select('name:title').ilike('title', '%handbuch').in('id', [a.id, b.id, c.id]).order('title');
    expect(ilike.data).toEqual([{ name: 'Alpha Handbuch' }, { name: 'Beta Handbuch' }]);

    const quoted = await admin.from('documents').select('id').in('title', ['Gamma (Notizen), Teil 1', 'Beta Handbuch']);
    expect(new Set(quoted.data?.map((row) => row.id))).toEqual(new Set([b.id, c.id]));

    const nulls = await admin
      .from('documents')
      .select('id')
      .in('id', [a.id, b.id, c.id])
      .order('file_size', { ascending: false, nullsFirst: true });
    expect(nulls.data?.map((row) => row.id)).toEqual([c.id, b.id, a.id]);

    const isNull = await admin.from('documents').select('id').is('file_size', null).eq('id', c.id);
    expect(isNull.data).toEqual([{ id: c.id }]);

    const range = await admin.from('documents').select('id').in('id', [a.id, b.id, c.id]).gte('file_size', 10).lt('file_size', 20);
    expect(range.data).toEqual([{ id: a.id }]);

    const or = await admin.from('documents').select('id').or(`id.eq.${a.id},title.like.Beta*`).order('title');
    expect(or.data).toEqual([{ id: a.id }, { id: b.id }]);

    const not = await admin.from('documents').select('id').in('id', [a.id, b.id]).not('title', 'like', 'Alpha*');
    expect(not.data).toEqual([{ id: b.id }]);

    const page = await admin.from('documents').select('id').in('id', [a.id, b.id, c.id]).order('title').range(1, 1);
    expect(page.data).toEqual([{ id: b.id }]);
  });

  it('gives one object for .single() and 406 when there is none', async () => {
    const none = await admin.from('documents').select('id').eq('title', 'gibt es nicht').single();
    expect(none.status).toBe(406);
    expect(none.error).toMatchObject({ code: 'PGRST116', details: 'The result contains 0 rows' });
    const maybe = await admin.from('documents').select('id').eq('title', 'gibt es nicht').maybeSingle();
    expect(maybe.error).toBeNull();
    expect(maybe.data).toBeNull();
  });

  it('rolls an insert back when .single() cannot return exactly one row', async () => {
    const before = await documentCount();
    const { error, status } = await admin
      .from('documents')
      .insert([
        { title: 'Eins', url: 'https://files.example/1.pdf' },
        { title: 'Zwei', url: 'https://files.example/2.pdf' },
      ])
      .select()
      .single();
    expect(status).toBe(406);
    expect(error?.code).toBe('PGRST116');
    expect(await documentCount()).toBe(before);
  });

  it('inserts several rows, missing keys as null or (missing=default) as defaults', async () => {
    const { data, error } = await admin
      .from('documents')
      .insert([
        { title: 'Mit Größe', url: 'https://files.example/a.pdf', file_size: 5 },
        { title: 'Ohne Größe', url: 'https://files.example/b.pdf' },
      ])
      .select('title,file_size,status');
    expect(error).toBeNull();
    expect(data).toEqual([
      { title: 'Mit Größe', file_size: 5, status: 'PROCESSING' },
      { title: 'Ohne Größe', file_size: null, status: 'PROCESSING' },
    ]);

    // The column list includes status for both rows: without missing=default null violates not-null.
    const rows = [
      { title: 'Fertig', url: 'https://files.example/c.pdf', status: 'COMPLETED' as const },
      { title: 'Neu', url: 'https://files.example/d.pdf' },
    ];
    const nullMissing = await admin.from('documents').insert(rows);
    expect(nullMissing.error?.code).toBe('23502');
    const defaults = await admin.from('documents').insert(rows, { defaultToNull: false }).select('title,status');
    expect(defaults.error).toBeNull();
    expect(defaults.data).toEqual([
      { title: 'Fertig', status: 'COMPLETED' },
      { title: 'Neu', status: 'PROCESSING' },
    ]);
  });

  it('upserts on the primary key or a unique column', async () => {
    const doc = await createDocument();
    const merged = await admin
      .from('documents')
      .upsert({ id: doc.id, title: 'Neuer Titel', url: doc.url }, { onConflict: 'id' })
      .select('id,title');
    expect(merged.error).toBeNull();
    expect(merged.data).toEqual([{ id: doc.id, title: 'Neuer Titel' }]);
    const ignored = await admin
      .from('documents')
      .upsert({ title: 'Doppelt', url: 'https://files.example/x.pdf', storage_path: doc.storage_path }, { onConflict: 'storage_path', ignoreDuplicates: true })
      .select('id');
    expect(ignored.error).toBeNull();
    expect(ignored.data).toEqual([]);
  });
});

describe('functions', () => {
  it('admin_stats returns the dashboard numbers as JSON', async () => {
    const { data, error } = await admin.rpc('admin_stats');
    expect(error).toBeNull();
    const { rows } = await harness.stack.db.query<{ users: number; completed: number }>(
      `select (select count(*)::int from public.users) as users,
              (select count(*)::int from public.documents where status = 'COMPLETED') as completed`,
    );
    expect(data).toMatchObject({ totalUsers: rows[0]?.users, documentsProcessed: rows[0]?.completed });
    expect(typeof (data as Record<string, unknown>).activeConversations).toBe('number');
    const fromService = await service.rpc('admin_stats');
    expect(fromService.error).toBeNull();
  });

  it('ingests text and finds it with search_knowledge, by POST and by GET', async () => {
    const doc = await createDocument({ title: 'Achtsamkeit' });
    const ingested = await admin.rpc('ingest_document_text', { document_id: doc.id, text: passage });
    expect(ingested.error).toBeNull();
    expect(ingested.data).toBe(1);

    const found = await admin.rpc('search_knowledge', { query: 'Achtsamkeit im Alltag', match_count: 3 });
    expect(found.error).toBeNull();
    expect(found.data?.[0]).toMatchObject({ document_id: doc.id, document_title: 'Achtsamkeit', chunk_ordinal: 1, content: passage });

    const viaGet = await admin.rpc('search_knowledge', { query: 'Atemübungen' }, { get: true });
    expect(viaGet.error).toBeNull();
    expect(viaGet.data?.map((row) => row.document_id)).toContain(doc.id);

    const chunks = await admin.from('document_chunks').select('document_id,ordinal').eq('document_id', doc.id);
    expect(chunks.error).toBeNull();
    expect(chunks.data).toEqual([{ document_id: doc.id, ordinal: 1 }]);

    const selected = await admin.rpc('search_knowledge', { query: 'Atemübungen', match_count: 5 }).select('document_id');
    expect(selected.data?.[0]).toEqual({ document_id: doc.id });

    const { rows } = await harness.stack.db.query<{ status: string }>('select status::text from public.documents where id = $1', [doc.id]);
    expect(rows[0]?.status).toBe('COMPLETED');
  });

  it('refuses to run a function that writes in a GET request', async () => {
    const doc = await createDocument();
    const { error, status } = await admin.rpc('ingest_document_text', { document_id: doc.id, text: passage }, { get: true });
    expect(status).toBe(405);
    expect(error?.code).toBe('PGRST101');
  });

  it('reports unknown functions and arguments', async () => {
    const unknown = await admin.rpc('admin_statz' as 'admin_stats');
    expect(unknown.status).toBe(404);
    // PostgREST's "Perhaps you meant" hints are left out locally.
    expect(unknown.error).toMatchObject({
      code: 'PGRST202',
      message: 'Could not find the function public.admin_statz without parameters in the schema cache',
      hint: null,
    });
    const wrongArgs = await admin.rpc('search_knowledge', { question: 'x' } as unknown as { query: string });
    expect(wrongArgs.status).toBe(404);
    expect(wrongArgs.error?.message).toBe('Could not find the function public.search_knowledge(question) in the schema cache');
    const internal = await service.rpc('document_passages' as 'admin_stats');
    expect(internal.status).toBe(404);
  });
});

describe('row level security through the API', () => {
  it('hides documents, passages, profiles and conversations from visitors and non-admins', async () => {
    const doc = await createDocument();
    await admin.rpc('ingest_document_text', { document_id: doc.id, text: passage });
    for (const client of [anon, member]) {
      for (const table of ['documents', 'document_chunks', 'users', 'conversations'] as const) {
        const { data, error, status } = await client.from(table).select('*');
        expect(error).toBeNull();
        expect(status).toBe(200);
        expect(data).toEqual([]);
      }
      const counted = await client.from('documents').select('id', { count: 'exact', head: true });
      expect(counted.count).toBe(0);
    }
    // The admin sees them.
    for (const table of ['documents', 'document_chunks', 'users', 'conversations'] as const) {
      const { data } = await admin.from(table).select('*');
      expect(data?.length).toBeGreaterThan(0);
    }
  });

  it('refuses inserts: 401 for visitors, 403 for signed-in users', async () => {
    const doc = await createDocument();
    const attempts = [
      { table: 'documents', row: { title: 'Fremd', url: 'https://evil.example/x.pdf' } },
      { table: 'document_chunks', row: { document_id: doc.id, ordinal: 99, content: 'Fremd' } },
      { table: 'voice_configs', row: { is_active: false } },
      { table: 'conversations', row: { message_count: 1 } },
    ] as const;
    for (const [client, status] of [
      [anon, 401],
      [member, 403],
    ] as const) {
      for (const attempt of attempts) {
        const { error, status: got } = await client.from(attempt.table).insert(attempt.row as never);
        expect({ table: attempt.table, status: got, code: error?.code }).toEqual({ table: attempt.table, status, code: '42501' });
      }
    }
    const { rows } = await harness.stack.db.query(`select 1 from public.documents where title = 'Fremd'`);
    expect(rows).toHaveLength(0);
  });

  it('lets updates and deletes of visitors and non-admins change nothing', async () => {
    const doc = await createDocument({ title: 'Unangetastet' });
    const before = await documentCount();
    for (const client of [anon, member]) {
      const updated = await client.from('documents').update({ title: 'Geändert' }).eq('id', doc.id).select();
      expect(updated.error).toBeNull();
      expect(updated.data).toEqual([]);
      const everything = await client.from('documents').update({ title: 'Geändert' }).neq('title', '').select('id');
      expect(everything.data).toEqual([]);
      const deleted = await client.from('documents').delete().eq('id', doc.id).select();
      expect(deleted.error).toBeNull();
      expect(deleted.data).toEqual([]);
      const all = await client.from('conversations').delete().gte('message_count', 0);
      expect(all.error).toBeNull();
      const voice = await client.from('voice_configs').update({ pitch: 2 }).eq('is_active', true).select();
      expect(voice.data).toEqual([]);
    }
    expect(await documentCount()).toBe(before);
    const { rows } = await harness.stack.db.query<{ title: string }>('select title from public.documents where id = $1', [doc.id]);
    expect(rows[0]?.title).toBe('Unangetastet');
    const conversations = await service.from('conversations').select('id', { count: 'exact', head: true });
    expect(conversations.count).toBeGreaterThan(0);
    const voice = await service.from('voice_configs').select('pitch').eq('is_active', true).single();
    expect(voice.data?.pitch).not.toBe(2);
  });

  it('shows visitors the active voice only, and lets only admins add voices', async () => {
    const inactive = await admin.from('voice_configs').insert({ is_active: false, pitch: 0.75 }).select('id').single();
    expect(inactive.error).toBeNull();
    for (const client of [anon, member]) {
      const { data } = await client.from('voice_configs').select('id,is_active');
      expect(data).toHaveLength(1);
      expect(data?.[0]?.is_active).toBe(true);
    }
    const all = await admin.from('voice_configs').select('id');
    expect(all.data?.map((row) => row.id)).toContain(inactive.data?.id);
  });

  it('lets only the service role write conversations', async () => {
    const byAdmin = await admin.from('conversations').insert({ message_count: 1 });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.error?.code).toBe('42501');
    const byService = await service.from('conversations').insert({ message_count: 2, rating: 4 }).select('message_count,rating').single();
    expect(byService.error).toBeNull();
    expect(byService.data).toEqual({ message_count: 2, rating: 4 });
  });

  it('keeps the statistics and passages from visitors and non-admins', async () => {
    const anonStats = await anon.rpc('admin_stats');
    expect(anonStats.status).toBe(401);
    expect(anonStats.error?.code).toBe('42501');
    const memberStats = await member.rpc('admin_stats');
    expect(memberStats.status).toBe(403);
    expect(memberStats.error?.code).toBe('42501');

    const anonSearch = await anon.rpc('search_knowledge', { query: 'Achtsamkeit' });
    expect(anonSearch.status).toBe(401);
    const memberSearch = await member.rpc('search_knowledge', { query: 'Achtsamkeit' });
    expect(memberSearch.error).toBeNull();
    expect(memberSearch.data).toEqual([]);

    const doc = await createDocument();
    const memberIngest = await member.rpc('ingest_document_text', { document_id: doc.id, text: passage });
    expect(memberIngest.status).toBe(403);
    expect(memberIngest.error?.code).toBe('42501');
  });
});

describe('errors as PostgREST answers them', () => {
  it('maps constraint violations and bad input to PostgREST statuses', async () => {
    const doc = await createDocument();
    const unique = await admin.from('documents').insert({ title: 'Kopie', url: doc.url, storage_path: doc.storage_path });
    expect([unique.status, unique.error?.code]).toEqual([409, '23505']);
    const check = await admin.from('documents').insert({ title: '', url: 'https://files.example/leer.pdf' });
    expect([check.status, check.error?.code]).toEqual([400, '23514']);
    const notNull = await admin.from('documents').insert({ title: 'Ohne URL' } as never);
    expect([notNull.status, notNull.error?.code]).toEqual([400, '23502']);
    const foreign = await admin.from('document_chunks').insert({ document_id: '00000000-0000-4000-8000-000000000000', ordinal: 1, content: 'x' });
    expect([foreign.status, foreign.error?.code]).toEqual([409, '23503']);
    const syntax = await admin.from('documents').select('id').eq('id', 'keine-uuid');
    expect([syntax.status, syntax.error?.code]).toEqual([400, '22P02']);
    const enumValue = await admin.from('documents').select('id').eq('status', 'FERTIG' as 'COMPLETED');
    expect([enumValue.status, enumValue.error?.code]).toEqual([400, '22P02']);
  });

  it('reports unknown tables, columns and operators', async () => {
    const table = await admin.from('documentz' as 'documents').select('*');
    expect(table.status).toBe(404);
    expect(table.error).toMatchObject({
      code: 'PGRST205',
      message: "Could not find the table 'public.documentz' in the schema cache",
      hint: null,
    });
    const column = await admin.from('documents').select('titel');
    expect([column.status, column.error?.code, column.error?.message]).toEqual([400, '42703', 'column documents.titel does not exist']);
    const insertColumn = await admin.from('documents').insert({ titel: 'x' } as never);
    expect([insertColumn.status, insertColumn.error?.code]).toEqual([400, 'PGRST204']);
    expect(insertColumn.error?.message).toBe("Could not find the 'titel' column of 'documents' in the schema cache");

    const operator = await rest('/documents?title=equals.x', { key: LOCAL_SERVICE_ROLE_KEY });
    expect(operator.status).toBe(400);
    expect(await operator.json()).toMatchObject({ code: 'PGRST100', message: '"failed to parse filter (equals.x)" (line 1, column 1)' });
    const order = await rest('/documents?order=title.upwards', { key: LOCAL_SERVICE_ROLE_KEY });
    expect(order.status).toBe(400);
    expect(await order.json()).toMatchObject({ code: 'PGRST100' });
    // Operators the app never sends are refused by name, not misread.
    const fts = await admin.from('document_chunks').select('id').textSearch('fts', 'Atem', { config: 'german', type: 'plain' });
    expect([fts.status, fts.error?.code, fts.error?.message]).toEqual([
      400,
      'PGRST100',
      'Not supported by the local stack: the operator "plfts"',
    ]);
    const quantified = await rest('/documents?title=like(any).{a*,b*}', { key: LOCAL_SERVICE_ROLE_KEY });
    expect(await quantified.json()).toMatchObject({ code: 'PGRST100', message: 'Not supported by the local stack: the quantifiers (any) and (all)' });
    const embed = await rest('/documents?select=id,document_chunks(content)', { key: LOCAL_SERVICE_ROLE_KEY });
    expect(embed.status).toBe(400);
    expect(await embed.json()).toMatchObject({ code: 'PGRST100' });
  });

  it('exposes only the public schema', async () => {
    const { status, error } = await service.schema('auth' as 'public').from('users').select('*');
    expect(status).toBe(406);
    expect(error).toMatchObject({ code: 'PGRST106', message: 'The schema must be one of the following: public' });
    const write = await rest('/users', { method: 'POST', key: LOCAL_SERVICE_ROLE_KEY, headers: { 'content-profile': 'storage' }, body: '{}' });
    expect(write.status).toBe(406);
  });

  it('rejects malformed JSON bodies', async () => {
    const response = await rest('/documents', { method: 'POST', key: LOCAL_SERVICE_ROLE_KEY, body: '{"title": "x",' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ code: 'PGRST102', details: null, hint: null, message: 'Empty or invalid json' });
  });
});
