import type { PGlite } from '@electric-sql/pglite';
import { beforeAll, describe, expect, it } from 'vitest';

import {
  type Actor,
  actors,
  allActors,
  attempt,
  insertDocument,
  type Outcome,
  useDatabase,
} from './fixtures';

/**
 * Who may do what, cell by cell. "denied" is an error with SQLSTATE 42501 (no privilege or a row
 * level security violation); reads and writes that policies filter out are asserted as exactly
 * zero rows seen or changed.
 */
type Expectation =
  | { rows: number }
  | { affected: number }
  | { denied: true }
  | { fails: string }
  | { value: unknown };

const denied = { denied: true } as const;
const rows = (count: number) => ({ rows: count });
const affected = (count: number) => ({ affected: count });

interface Case {
  name: string;
  /** One statement, or statements run in order in one transaction (the last one is checked). */
  sql: string | readonly string[];
  params?: () => unknown[];
  expect: Record<Actor['name'], Expectation>;
}

const ORPHAN_AUTH_ID = '00000000-0000-4000-8000-00000000c001';
const database = useDatabase();
let db: PGlite;
let documentId = '';

beforeAll(async () => {
  db = database.db;
  // An auth user whose profile is missing, so a profile insert can only fail on permissions.
  await db.query(`insert into auth.users (id, email, created_at) values ($1, 'orphan@example.com', now())`, [
    ORPHAN_AUTH_ID,
  ]);
  await db.query('delete from public.users where id = $1', [ORPHAN_AUTH_ID]);

  documentId = await insertDocument(db, { title: 'leitfaden.pdf', status: 'COMPLETED' });
  await db.query(
    `insert into public.document_chunks (document_id, ordinal, content)
     values ($1, 1, 'Eine Atemtechnik gegen Stress: langsam ausatmen.')`,
    [documentId],
  );
  await db.exec(`
    insert into public.voice_configs (stability, is_active) values (0.5, false);
    insert into public.conversations (message_count, rating) values (4, 5), (2, null);
    insert into public.open_questions (question) values ('Was kostet ein Coaching?');
  `);
  await db.exec(`
    insert into storage.buckets (id, name, public) values ('archive', 'archive', false), ('spare', 'spare', false);
    insert into storage.objects (bucket_id, name, metadata)
    values ('document-uploads', '1700000000000-leitfaden.pdf', '{"mimetype":"application/pdf","size":1024}'),
           ('archive', 'intern.pdf', '{"mimetype":"application/pdf","size":10}');
  `);
});

const insertDocumentSql = `insert into public.documents (title, url, file_size) values ('neu.pdf', 'https://example.com/neu.pdf', 10) returning id`;

const tableCases: Case[] = [
  // documents: admins only
  {
    name: 'documents: select',
    sql: 'select id from public.documents',
    expect: { anon: rows(0), member: rows(0), admin: rows(1), service_role: rows(1) },
  },
  {
    name: 'documents: insert',
    sql: insertDocumentSql,
    expect: { anon: denied, member: denied, admin: rows(1), service_role: rows(1) },
  },
  {
    name: 'documents: update',
    sql: `update public.documents set title = 'umbenannt.pdf'`,
    expect: { anon: affected(0), member: affected(0), admin: affected(1), service_role: affected(1) },
  },
  {
    name: 'documents: delete',
    sql: 'delete from public.documents',
    expect: { anon: affected(0), member: affected(0), admin: affected(1), service_role: affected(1) },
  },
  // document_chunks: admins only
  {
    name: 'document_chunks: select',
    sql: 'select id from public.document_chunks',
    expect: { anon: rows(0), member: rows(0), admin: rows(1), service_role: rows(1) },
  },
  {
    name: 'document_chunks: insert',
    sql: `insert into public.document_chunks (document_id, ordinal, content) values ($1, 2, 'Mehr Text.') returning id`,
    params: () => [documentId],
    expect: { anon: denied, member: denied, admin: rows(1), service_role: rows(1) },
  },
  {
    name: 'document_chunks: update',
    sql: `update public.document_chunks set content = 'Geändert.'`,
    expect: { anon: affected(0), member: affected(0), admin: affected(1), service_role: affected(1) },
  },
  {
    name: 'document_chunks: delete',
    sql: 'delete from public.document_chunks',
    expect: { anon: affected(0), member: affected(0), admin: affected(1), service_role: affected(1) },
  },
  // voice_configs: everyone reads the active row; admins read all and write
  {
    name: 'voice_configs: select',
    sql: 'select id, is_active from public.voice_configs',
    expect: { anon: rows(1), member: rows(1), admin: rows(2), service_role: rows(2) },
  },
  {
    name: 'voice_configs: select the inactive row',
    sql: 'select id from public.voice_configs where not is_active',
    expect: { anon: rows(0), member: rows(0), admin: rows(1), service_role: rows(1) },
  },
  {
    name: 'voice_configs: insert',
    sql: 'insert into public.voice_configs (stability, is_active) values (0.3, false) returning id',
    expect: { anon: denied, member: denied, admin: rows(1), service_role: rows(1) },
  },
  {
    name: 'voice_configs: update the active row (the save button)',
    sql: `update public.voice_configs set stability = 0.4, similarity_boost = 0.8, style = 0.2,
          use_speaker_boost = false, pitch = 1.2, speed = 0.9 where is_active = true`,
    expect: { anon: affected(0), member: affected(0), admin: affected(1), service_role: affected(1) },
  },
  {
    name: 'voice_configs: update all rows',
    sql: 'update public.voice_configs set style = 0.1',
    expect: { anon: affected(0), member: affected(0), admin: affected(2), service_role: affected(2) },
  },
  {
    name: 'voice_configs: delete the inactive row',
    sql: 'delete from public.voice_configs where not is_active',
    expect: { anon: affected(0), member: affected(0), admin: affected(1), service_role: affected(1) },
  },
  {
    name: 'voice_configs: delete the active row',
    sql: 'delete from public.voice_configs where is_active',
    expect: { anon: affected(0), member: affected(0), admin: { fails: '23514' }, service_role: { fails: '23514' } },
  },
  // system_settings: the operator's switches, one row; admins read it and change the switches
  {
    name: 'system_settings: select',
    sql: 'select voice_input_via_provider from public.system_settings',
    expect: { anon: denied, member: rows(0), admin: rows(1), service_role: rows(1) },
  },
  {
    name: 'system_settings: update the voice input switch',
    sql: 'update public.system_settings set voice_input_via_provider = true',
    expect: { anon: denied, member: affected(0), admin: affected(1), service_role: affected(1) },
  },
  {
    name: 'system_settings: update another column',
    sql: 'update public.system_settings set updated_at = now()',
    expect: { anon: denied, member: denied, admin: denied, service_role: affected(1) },
  },
  {
    name: 'system_settings: insert',
    sql: 'insert into public.system_settings (id) values (true) returning id',
    expect: { anon: denied, member: denied, admin: denied, service_role: { fails: '23505' } },
  },
  {
    name: 'system_settings: delete',
    sql: 'delete from public.system_settings',
    expect: { anon: denied, member: denied, admin: denied, service_role: affected(1) },
  },
  // users: written by the auth trigger only; admins read
  {
    name: 'users: select',
    sql: 'select id from public.users',
    expect: { anon: rows(0), member: rows(0), admin: rows(2), service_role: rows(2) },
  },
  {
    name: 'users: insert',
    sql: `insert into public.users (id, email, role) values ($1, 'orphan@example.com', 'admin') returning id`,
    params: () => [ORPHAN_AUTH_ID],
    expect: { anon: denied, member: denied, admin: denied, service_role: rows(1) },
  },
  {
    name: 'users: update (no self-promotion)',
    sql: `update public.users set role = 'admin'`,
    expect: { anon: affected(0), member: affected(0), admin: affected(0), service_role: affected(2) },
  },
  {
    name: 'users: delete',
    sql: 'delete from public.users',
    expect: { anon: affected(0), member: affected(0), admin: affected(0), service_role: affected(2) },
  },
  // conversations: written by the coach function (service role); admins read
  // The guard's counters: no role but the service role (the functions) reaches them.
  ...(['request_counts', 'active_streams', 'daily_spend', 'client_spend', 'spend_reservations', 'spend_alerts'] as const).flatMap((table): Case[] => [
    {
      name: `${table}: select`,
      sql: `select count(*) from public.${table}`,
      expect: { anon: denied, member: denied, admin: denied, service_role: rows(1) },
    },
    {
      name: `${table}: delete`,
      sql: `delete from public.${table}`,
      expect: { anon: denied, member: denied, admin: denied, service_role: affected(0) },
    },
  ]),
  {
    name: 'conversations: select',
    sql: 'select id from public.conversations',
    expect: { anon: rows(0), member: rows(0), admin: rows(2), service_role: rows(2) },
  },
  {
    name: 'conversations: insert',
    sql: 'insert into public.conversations default values returning id',
    expect: { anon: denied, member: denied, admin: denied, service_role: rows(1) },
  },
  {
    name: 'conversations: update (rating)',
    // A rated conversation keeps its rating (the table refuses a second one, see schema.test.ts).
    sql: 'update public.conversations set rating = 1 where rating is null',
    expect: { anon: affected(0), member: affected(0), admin: affected(0), service_role: affected(1) },
  },
  {
    name: 'conversations: delete',
    sql: 'delete from public.conversations',
    expect: { anon: affected(0), member: affected(0), admin: affected(0), service_role: affected(2) },
  },
  // open_questions: written by the coach function (service role); admins read, mark and dismiss
  {
    name: 'open_questions: select',
    sql: 'select id, question from public.open_questions',
    expect: { anon: denied, member: rows(0), admin: rows(1), service_role: rows(1) },
  },
  {
    name: 'open_questions: insert',
    sql: `insert into public.open_questions (question) values ('Gibt es Rabatt für Studierende?') returning id`,
    expect: { anon: denied, member: denied, admin: denied, service_role: rows(1) },
  },
  {
    name: 'open_questions: update (answered by a processed document)',
    sql: `update public.open_questions set answered_by = $1, answered_title = 'leitfaden.pdf', answered_at = now()`,
    params: () => [documentId],
    expect: { anon: denied, member: affected(0), admin: affected(1), service_role: affected(1) },
  },
  {
    name: 'open_questions: update (text or count)',
    sql: `update public.open_questions set question = 'Etwas anderes?', ask_count = 99`,
    expect: { anon: denied, member: denied, admin: denied, service_role: affected(1) },
  },
  {
    name: 'open_questions: delete (Erledigt)',
    sql: 'delete from public.open_questions',
    expect: { anon: denied, member: affected(0), admin: affected(1), service_role: affected(1) },
  },
  // system_settings: one row; admins read it and turn the switch
  {
    name: 'system_settings: select',
    sql: 'select record_open_questions from public.system_settings',
    expect: { anon: denied, member: rows(0), admin: rows(1), service_role: rows(1) },
  },
  {
    name: 'system_settings: insert',
    sql: 'insert into public.system_settings (id) values (true) returning id',
    expect: { anon: denied, member: denied, admin: denied, service_role: { fails: '23505' } },
  },
  {
    name: 'system_settings: update (the switch)',
    sql: 'update public.system_settings set record_open_questions = false',
    expect: { anon: denied, member: affected(0), admin: affected(1), service_role: affected(1) },
  },
  {
    name: 'system_settings: delete',
    sql: 'delete from public.system_settings',
    expect: { anon: denied, member: denied, admin: denied, service_role: affected(1) },
  },
  // storage: admins manage document-uploads and nothing else
  {
    name: 'storage.objects: select',
    sql: 'select id from storage.objects',
    expect: { anon: rows(0), member: rows(0), admin: rows(1), service_role: rows(2) },
  },
  {
    name: 'storage.objects: insert into document-uploads',
    sql: `insert into storage.objects (bucket_id, name, owner, metadata)
          values ('document-uploads', '1700000000001-neu.pdf', auth.uid(), '{"mimetype":"application/pdf"}') returning id`,
    expect: { anon: denied, member: denied, admin: rows(1), service_role: rows(1) },
  },
  {
    name: 'storage.objects: insert into another bucket',
    sql: `insert into storage.objects (bucket_id, name) values ('archive', 'neu.pdf') returning id`,
    expect: { anon: denied, member: denied, admin: denied, service_role: rows(1) },
  },
  {
    name: 'storage.objects: update (upsert)',
    sql: `update storage.objects set metadata = '{"mimetype":"application/pdf","size":2048}'`,
    expect: { anon: affected(0), member: affected(0), admin: affected(1), service_role: affected(2) },
  },
  {
    // As on Supabase, only the Storage API may delete (trigger protect_objects_delete).
    name: 'storage.objects: direct delete',
    sql: 'delete from storage.objects',
    expect: { anon: denied, member: denied, admin: denied, service_role: denied },
  },
  {
    name: 'storage.objects: delete as the Storage API does',
    sql: [`select set_config('storage.allow_delete_query', 'true', true)`, 'delete from storage.objects'],
    expect: { anon: affected(0), member: affected(0), admin: affected(1), service_role: affected(2) },
  },
  {
    name: 'storage.buckets: select',
    sql: 'select id from storage.buckets',
    expect: { anon: rows(0), member: rows(0), admin: rows(0), service_role: rows(4) },
  },
  {
    name: 'storage.buckets: insert',
    sql: `insert into storage.buckets (id, name) values ('neu', 'neu') returning id`,
    expect: { anon: denied, member: denied, admin: denied, service_role: rows(1) },
  },
  {
    name: 'storage.buckets: update',
    sql: `update storage.buckets set public = true where id = 'archive'`,
    expect: { anon: affected(0), member: affected(0), admin: affected(0), service_role: affected(1) },
  },
  {
    name: 'storage.buckets: delete',
    sql: `delete from storage.buckets where id = 'spare'`,
    expect: { anon: denied, member: denied, admin: denied, service_role: denied },
  },
  {
    name: 'storage.buckets: delete as the Storage API does',
    sql: [`select set_config('storage.allow_delete_query', 'true', true)`, `delete from storage.buckets where id = 'spare'`],
    expect: { anon: affected(0), member: affected(0), admin: affected(0), service_role: affected(1) },
  },
  // auth tables are not part of the data API for anyone
  {
    name: 'auth.users: select',
    sql: 'select id from auth.users',
    expect: { anon: denied, member: denied, admin: denied, service_role: denied },
  },
  {
    name: 'auth.refresh_tokens: select',
    sql: 'select id from auth.refresh_tokens',
    expect: { anon: denied, member: denied, admin: denied, service_role: denied },
  },
  // TRUNCATE would bypass row level security, so the API roles do not have it
  {
    name: 'truncate documents',
    sql: 'truncate public.documents cascade',
    expect: { anon: denied, member: denied, admin: denied, service_role: { affected: 0 } },
  },
  {
    name: 'truncate voice_configs',
    sql: 'truncate public.voice_configs',
    expect: { anon: denied, member: denied, admin: denied, service_role: { affected: 0 } },
  },
];

const functionCases: Case[] = [
  {
    name: 'is_admin()',
    sql: 'select public.is_admin() as value',
    expect: { anon: { value: false }, member: { value: false }, admin: { value: true }, service_role: { value: false } },
  },
  {
    name: 'search_knowledge()',
    sql: `select * from public.search_knowledge('Atemtechnik gegen Stress')`,
    expect: { anon: denied, member: rows(0), admin: rows(1), service_role: rows(1) },
  },
  {
    name: 'ingest_document_text()',
    sql: `select public.ingest_document_text($1, 'Ein neuer Text über Schlaf und Erholung.') as value`,
    params: () => [documentId],
    expect: { anon: denied, member: denied, admin: { value: 1 }, service_role: { value: 1 } },
  },
  {
    name: 'begin_document_reprocessing()',
    // The document is COMPLETED: an admin gets as far as the state check (409).
    sql: 'select (public.begin_document_reprocessing($1)).status as value',
    params: () => [documentId],
    expect: { anon: denied, member: denied, admin: { fails: 'PT409' }, service_role: { fails: 'PT409' } },
  },
  {
    name: 'refresh_document_text()',
    sql: `select public.refresh_document_text($1, 'Ein neuer Text über Pausen und Erholung.') as value`,
    params: () => [documentId],
    expect: { anon: denied, member: denied, admin: { value: 1 }, service_role: { value: 1 } },
  },
  {
    name: 'begin_document_delete()',
    sql: 'select (public.begin_document_delete($1)).deleting_since is not null as value',
    params: () => [documentId],
    expect: { anon: denied, member: denied, admin: { value: true }, service_role: { value: true } },
  },
  {
    name: 'record_open_question()',
    sql: `select public.record_open_question('Wie lange dauert die Probezeit?', '192.0.2.1', 10) as value`,
    expect: { anon: denied, member: denied, admin: denied, service_role: { value: 'kept' } },
  },
  {
    name: 'clear_open_questions()',
    sql: 'select public.clear_open_questions() as value',
    expect: { anon: denied, member: denied, admin: { value: 1 }, service_role: { value: 1 } },
  },
  {
    name: 'admin_stats()',
    sql: `select public.admin_stats() ->> 'documentsProcessed' as value`,
    expect: { anon: denied, member: denied, admin: { value: '1' }, service_role: { value: '1' } },
  },
];

function check(outcome: Outcome, expected: Expectation): void {
  if ('denied' in expected) {
    expect(outcome).toMatchObject({ ok: false, code: '42501' });
    return;
  }
  if ('fails' in expected) {
    expect(outcome).toMatchObject({ ok: false, code: expected.fails });
    return;
  }
  if (!outcome.ok) {
    throw new Error(`expected success, got ${outcome.code}: ${outcome.message}`);
  }
  if ('rows' in expected) expect(outcome.rows).toHaveLength(expected.rows);
  if ('affected' in expected) expect(outcome.affected).toBe(expected.affected);
  if ('value' in expected) expect(outcome.rows).toEqual([{ value: expected.value }]);
}

describe.each([
  ['tables', tableCases],
  ['functions', functionCases],
])('permission matrix: %s', (_kind, cases) => {
  for (const testCase of cases) {
    for (const actor of allActors) {
      it(`${testCase.name} as ${actor.name}`, async () => {
        const outcome = await attempt(db, actor, testCase.sql, testCase.params?.() ?? []);
        check(outcome, testCase.expect[actor.name]);
      });
    }
  }
});

describe('guards that keep the matrix complete', () => {
  const tablesWithoutRls = `
    select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relrowsecurity
     order by 1`;

  it('every table in public has row level security enabled', async () => {
    expect((await db.query(tablesWithoutRls)).rows).toEqual([]);
  });

  it('would notice a new table without row level security', async () => {
    const found = await db.transaction(async (tx) => {
      await tx.exec('create table public.forgotten (id int)');
      const result = await tx.query<{ relname: string }>(tablesWithoutRls);
      await tx.rollback();
      return result.rows.map((row) => row.relname);
    });
    expect(found).toEqual(['forgotten']);
  });

  it('knowledge PDFs: a visitor or a signed-in non-admin cannot read one, an admin can', async () => {
    // A public bucket is served by Storage without consulting any policy, so it must be private.
    const bucket = await db.query<{ public: boolean }>(`select public from storage.buckets where id = 'document-uploads'`);
    expect(bucket.rows).toEqual([{ public: false }]);
    const read = `select name from storage.objects where bucket_id = 'document-uploads'`;
    for (const [actor, visible] of [
      [actors.anon, 0],
      [actors.member, 0],
      [actors.admin, 1],
    ] as const) {
      const outcome = await attempt(db, actor, read);
      expect(outcome, actor.name).toMatchObject({ ok: true, rows: Array.from({ length: visible }, () => ({ name: '1700000000000-leitfaden.pdf' })) });
    }
  });

  it('every table in public is covered by the matrix', async () => {
    const tables = await db.query<{ relname: string }>(
      `select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') order by 1`,
    );
    const covered = new Set(tableCases.map((testCase) => testCase.name.split(':')[0]));
    for (const { relname } of tables.rows) expect(covered).toContain(relname);
  });

  it('anon may execute no public function except is_admin()', async () => {
    const result = await db.query<{ proname: string }>(
      `select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' and has_function_privilege('anon', p.oid, 'execute')
        order by 1`,
    );
    expect(result.rows.map((row) => row.proname)).toEqual(['is_admin']);
  });

  it.each(['anon', 'authenticated'])(
    'no security definer function is executable by %s (splinter: 0028/0029 *_security_definer_function_executable)',
    async (role) => {
      // Splinter's query, over the schemas it checks; supabase_local is the local stand-in's own
      // bookkeeping (its change-capture trigger), which no Supabase project has.
      const result = await db.query<{ name: string }>(
        `select n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as name
           from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where p.prosecdef and has_function_privilege($1, p.oid, 'EXECUTE')
            and n.nspname not in ('_timescaledb_cache', '_timescaledb_catalog', '_timescaledb_config', '_timescaledb_internal',
              'auth', 'cron', 'extensions', 'graphql', 'graphql_public', 'information_schema', 'net', 'pgmq', 'pgroonga',
              'pgsodium', 'pgsodium_masks', 'pgtle', 'pgbouncer', 'pg_catalog', 'realtime', 'repack', 'storage',
              'supabase_functions', 'supabase_migrations', 'tiger', 'topology', 'vault', 'supabase_local')
          order by 1`,
        [role],
      );
      expect(result.rows.map((row) => row.name)).toEqual([]);
    },
  );

  it('security definer functions pin an empty search_path', async () => {
    const result = await db.query<{ proname: string; proconfig: string[] | null }>(
      `select p.proname, p.proconfig from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' and p.prosecdef`,
    );
    expect(result.rows.length).toBeGreaterThan(0);
    for (const row of result.rows) expect(row.proconfig ?? []).toContain('search_path=""');
  });

  it('policies evaluate is_admin() once per statement, as (select public.is_admin())', async () => {
    const result = await db.query<{ policyname: string; qual: string | null; with_check: string | null }>(
      `select policyname, qual, with_check from pg_policies where schemaname in ('public', 'storage')`,
    );
    for (const policy of result.rows) {
      for (const expression of [policy.qual, policy.with_check]) {
        if (expression === null) continue;
        const bare = expression.replace(/\(\s*SELECT\s+is_admin\(\)\s+AS\s+is_admin\s*\)/gi, '');
        expect(bare, policy.policyname).not.toMatch(/is_admin\(\)|auth\.\w+\(\)/);
      }
    }
  });

  it('signed-in non-admins get nothing more than anon', () => {
    for (const testCase of [...tableCases, ...functionCases]) {
      const { anon, member } = testCase.expect;
      if ('denied' in anon || 'rows' in anon || 'affected' in anon) {
        // A member may be refused differently (no rows instead of no privilege), never granted more.
        const memberGetsMore =
          ('rows' in member && 'rows' in anon && member.rows > anon.rows) ||
          ('affected' in member && 'affected' in anon && member.affected > anon.affected) ||
          ('value' in member && !('value' in anon));
        expect(memberGetsMore, testCase.name).toBe(false);
      }
    }
  });

  it('the role switch is transaction-local: afterwards the connection is the owner again', async () => {
    await attempt(db, actors.anon, 'select 1');
    const result = await db.query<{ role: string; claims: string | null }>(
      `select current_user as role, nullif(current_setting('request.jwt.claims', true), '') as claims`,
    );
    expect(result.rows).toEqual([{ role: 'postgres', claims: null }]);
  });
});
