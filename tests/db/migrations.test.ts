import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  type LocalDatabase,
  listMigrations,
  openLocalDatabase,
  UnknownMigrationsError,
  withClaims,
} from '../../supabase/local/database';

const supabaseDir = fileURLToPath(new URL('../../supabase/', import.meta.url));
let workDir: string;
let memory: LocalDatabase;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'db-migrations-'));
  memory = await openLocalDatabase();
});

afterAll(async () => {
  await memory.db.close();
  await rm(workDir, { recursive: true, force: true });
});

async function snapshot(db: PGlite) {
  const tables = await db.query<{ name: string }>(
    `select table_schema || '.' || table_name as name from information_schema.tables
      where table_schema in ('public', 'auth', 'storage') order by 1`,
  );
  const voice = await db.query<{ count: number }>('select count(*)::int as count from public.voice_configs');
  const buckets = await db.query('select id, public, file_size_limit, allowed_mime_types from storage.buckets order by id');
  return { tables: tables.rows.map((row) => row.name), voiceConfigs: voice.rows[0]?.count, buckets: buckets.rows };
}

const notes = {
  name: '29991231000000_add_notes.sql',
  sql: `create table public.notes (id int primary key);
        alter table public.notes enable row level security;`,
};

/** A copy of supabase/ without these migrations. */
async function withoutMigrations(...names: string[]): Promise<string> {
  const dir = join(workDir, `without-${String(names.length)}`);
  await cp(supabaseDir, dir, { recursive: true });
  for (const name of names) await rm(join(dir, 'migrations', name));
  return dir;
}

/** Every function, composite type and table (with columns, indexes and grants) of public and private. */
async function schemaOf(db: PGlite) {
  const functions = await db.query<{ name: string; definition: string; acl: string | null }>(
    `select p.oid::regprocedure::text as name, pg_get_functiondef(p.oid) as definition, p.proacl::text as acl
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname in ('public', 'private')
        and not exists (select from pg_depend d where d.objid = p.oid and d.deptype = 'e')
      order by 1`,
  );
  const relations = await db.query<{ name: string; kind: string; columns: string; acl: string | null }>(
    `select c.oid::regclass::text as name, c.relkind::text as kind, c.relacl::text as acl,
            string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod), ', ' order by a.attnum) as columns
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where n.nspname in ('public', 'private') and c.relkind in ('r', 'i', 'c')
      group by c.oid
      order by 1`,
  );
  return { functions: functions.rows, relations: relations.rows };
}

/** A copy of supabase/ with these migrations added after the project's own. */
async function withExtraMigrations(...migrations: { name: string; sql: string }[]): Promise<string> {
  const dir = join(workDir, migrations.map((migration) => migration.name).join('+'));
  await cp(supabaseDir, dir, { recursive: true });
  for (const { name, sql } of migrations) await writeFile(join(dir, 'migrations', name), sql);
  return dir;
}

/**
 * What each migration held when it was released, as the first 16 hex digits of its SHA-256. Supabase
 * and the local stack apply a migration once, by its name, and never again, so an edited migration
 * would reach no database that already has it. A change of the schema is a new migration
 * (docs/database.md, "Changing the schema"), with its line added here.
 */
const released: Record<string, string> = {
  '20261126000100_foundation.sql': '5b343e8326b02470',
  '20261126000200_users.sql': 'ab34643d2e3cbe6f',
  '20261126000300_documents.sql': 'c131b202cb5a1378',
  '20261126000400_search.sql': '572ce28c5a1e39dc',
  '20261126000410_thesaurus.sql': '3effe933e4774dda',
  '20261126000500_voice.sql': '2467448863f9cbed',
  '20261126000600_conversations.sql': 'd409f1299a0d57fa',
  '20261126000700_usage_limits.sql': '468efcfa7141c584',
  '20261126000800_admin_stats.sql': 'f4acb703a7af8876',
  '20261126000900_storage.sql': 'f61fa66deed1f88f',
  '20261127000100_search_current.sql': 'a1264b5341a41b9a',
  '20261127000200_sliding_minute.sql': '417525ca262ab322',
  '20261127000300_refresh_document_text.sql': '36367e1705715bb4',
  '20261128002000_spend_scopes.sql': '41144e7114e9f0eb',
  '20261128004000_open_questions.sql': 'dc387ea317ceafbf',
  '20261128006000_search_plans.sql': '75713e27ffdb74ea',
  '20261128006300_spoken_words.sql': '0c5c42c01bdcc224',
  '20261128006400_noun_words.sql': '7e4e2e8313dd2e1f',
  '20261128006410_spoken_questions.sql': '721f329d335f2280',
  '20261128006420_search_evidence.sql': '39d994b46916e568',
  '20261128007000_voice_input_setting.sql': 'e3fbc61bfbabc595',
  '20261129001000_whole_sentences.sql': 'd6dff9a7c2ced868',
};

describe('released migrations', () => {
  it('are never edited, and every migration is listed', async () => {
    const migrations = await listMigrations();
    const held = Object.fromEntries(
      await Promise.all(
        migrations.map(async (name) => [name, createHash('sha256').update(await readFile(join(supabaseDir, 'migrations', name))).digest('hex').slice(0, 16)] as const),
      ),
    );
    expect(held, 'a released migration was edited, or a new one is not listed: write the change as a new migration').toEqual(released);
  });
});

describe('setting up the local database', () => {
  const dataDir = () => join(workDir, 'data');

  it('applies bootstrap, every migration and the seed from scratch, twice in a row', async () => {
    const migrations = await listMigrations();
    expect(migrations.length).toBeGreaterThan(0);

    const persisted = await openLocalDatabase({ dataDir: dataDir() });
    try {
      for (const { setup } of [memory, persisted]) {
        expect(setup).toEqual({ bootstrapped: true, appliedMigrations: migrations, seeded: true });
      }
      const state = await snapshot(memory.db);
      expect(await snapshot(persisted.db)).toEqual(state);
      expect(state.voiceConfigs).toBe(1);
      expect(state.buckets).toEqual([
        { id: 'document-uploads', public: false, file_size_limit: 20971520, allowed_mime_types: ['application/pdf'] },
        { id: 'tts-cache', public: false, file_size_limit: 10485760, allowed_mime_types: ['audio/mpeg', 'audio/pcm'] },
      ]);
      expect(state.tables).toEqual(
        expect.arrayContaining([
          'auth.users',
          'auth.refresh_tokens',
          'storage.buckets',
          'storage.objects',
          'public.documents',
          'public.document_chunks',
          'public.voice_configs',
          'public.users',
          'public.conversations',
        ]),
      );
      await persisted.db.query('insert into public.conversations (message_count) values (3)');
    } finally {
      await persisted.db.close();
    }
  });

  it('keeps the seed idempotent', async () => {
    await memory.db.exec(await readFile(join(supabaseDir, 'seed.sql'), 'utf8'));
    expect((await snapshot(memory.db)).voiceConfigs).toBe(1);
  });

  it('applies only a migration added later, nothing twice', async () => {
    const upgraded = await openLocalDatabase({ dataDir: dataDir(), supabaseDir: await withExtraMigrations(notes) });
    try {
      expect(upgraded.setup).toEqual({
        bootstrapped: false,
        appliedMigrations: ['29991231000000_add_notes.sql'],
        seeded: false,
      });
      const notes = await upgraded.db.query(`select to_regclass('public.notes') is not null as present`);
      expect(notes.rows).toEqual([{ present: true }]);
      expect((await snapshot(upgraded.db)).voiceConfigs).toBe(1);
    } finally {
      await upgraded.db.close();
    }
  });

  it('brings a database set up from the baseline as first written to the schema of a fresh one', async () => {
    // The baseline as first written had neither the thesaurus's data nor the migrations after it:
    // a database set up then applies them, in name order, on its next start.
    const later = (await listMigrations()).filter((name) => name === '20261126000410_thesaurus.sql' || name > '20261126000900_storage.sql');
    expect(later.length).toBeGreaterThan(1);
    const dataDir = join(workDir, 'first-baseline');
    const first = await openLocalDatabase({ dataDir, supabaseDir: await withoutMigrations(...later) });
    await first.db.close();
    const upgraded = await openLocalDatabase({ dataDir });
    try {
      expect(upgraded.setup.appliedMigrations).toEqual(later);
      expect(await schemaOf(upgraded.db)).toEqual(await schemaOf(memory.db));
    } finally {
      await upgraded.db.close();
    }
  });

  it('names a failing migration', async () => {
    const broken = await withExtraMigrations(notes, {
      name: '29991231000001_broken.sql',
      sql: 'create table public.half_done (id int); select no_such_function();',
    });
    await expect(openLocalDatabase({ dataDir: dataDir(), supabaseDir: broken })).rejects.toThrow(
      /29991231000001_broken\.sql/,
    );
  });

  it('refuses a data dir set up with a migration the folder no longer has, and names it', async () => {
    const refused = openLocalDatabase({ dataDir: dataDir() });
    await expect(refused).rejects.toBeInstanceOf(UnknownMigrationsError);
    await expect(refused).rejects.toThrow(/29991231000000_add_notes\.sql.*npm run reset/);
  });

  it('re-opens a data dir with its data, applying nothing twice and nothing of a failed migration', async () => {
    const reopened = await openLocalDatabase({ dataDir: dataDir(), supabaseDir: await withExtraMigrations(notes) });
    try {
      expect(reopened.setup).toEqual({ bootstrapped: false, appliedMigrations: [], seeded: false });
      const state = await reopened.db.query(
        `select (select count(*)::int from public.conversations) as conversations,
                (select count(*)::int from public.voice_configs) as voice_configs,
                to_regclass('public.notes') is not null as notes,
                to_regclass('public.half_done') is null as rolled_back,
                not exists (select from supabase_local.applied_migrations where name like '%broken%') as unrecorded`,
      );
      expect(state.rows).toEqual([{ conversations: 1, voice_configs: 1, notes: true, rolled_back: true, unrecorded: true }]);
    } finally {
      await reopened.db.close();
    }
  });
});

describe('the bootstrap behaves like a Supabase database', () => {
  const db = (): PGlite => memory.db;

  it('enforces row level security after set local role, with claims read by auth.*()', async () => {
    const claims = { role: 'authenticated', sub: '00000000-0000-4000-8000-0000000000e1', email: 'e@example.com' };
    const seen = await withClaims(db(), claims, 'authenticated', async (tx) => {
      const who = await tx.query<{ role: string; uid: string; email: string; jwt_role: string; user: string }>(
        `select auth.role() as role, auth.uid()::text as uid, auth.email() as email,
                auth.jwt() ->> 'role' as jwt_role, current_user as user`,
      );
      const documents = await tx.query('select * from public.documents');
      return { who: who.rows[0], documents: documents.rows.length };
    });
    expect(seen).toEqual({
      who: { role: 'authenticated', uid: claims.sub, email: claims.email, jwt_role: 'authenticated', user: 'authenticated' },
      documents: 0,
    });

    // The plain SQL way, as in psql: set local role + set local request.jwt.claims.
    const refused = await db().transaction(async (tx) => {
      await tx.exec(`set local role anon; set local request.jwt.claims = '{"role":"anon"}';`);
      try {
        await tx.query('insert into public.conversations default values');
        return null;
      } catch (error) {
        await tx.rollback();
        return error;
      }
    });
    expect(refused).toMatchObject({ code: '42501' });
  });

  it('reads missing claims as null, also after an earlier request set them', async () => {
    await withClaims(db(), { role: 'anon' }, 'anon', () => Promise.resolve(undefined));
    const result = await withClaims(db(), null, 'anon', async (tx) =>
      tx.query<{ uid: string | null; jwt: unknown }>('select auth.uid() as uid, auth.jwt() as jwt'),
    );
    expect(result.rows).toEqual([{ uid: null, jwt: null }]);
  });

  it('has the roles with the attributes Supabase gives them', async () => {
    const roles = await db().query<{ rolname: string; rolbypassrls: boolean; rolcanlogin: boolean }>(
      `select rolname, rolbypassrls, rolcanlogin from pg_roles
        where rolname in ('anon', 'authenticated', 'service_role', 'authenticator') order by rolname`,
    );
    expect(roles.rows).toEqual([
      { rolname: 'anon', rolbypassrls: false, rolcanlogin: false },
      { rolname: 'authenticated', rolbypassrls: false, rolcanlogin: false },
      { rolname: 'authenticator', rolbypassrls: false, rolcanlogin: true },
      { rolname: 'service_role', rolbypassrls: true, rolcanlogin: false },
    ]);
  });

  it('refuses a role outside the API roles', async () => {
    // @ts-expect-error: the type allows only API roles; a caller passing a JWT claim through must be stopped at run time too
    await expect(withClaims(db(), null, 'postgres', () => Promise.resolve(undefined))).rejects.toThrow(/Unknown database role/);
  });

  it('ships the German text search configuration', async () => {
    const result = await db().query<{ v: string }>(`select to_tsvector('german', 'Die Atemtechniken helfen bei Stress')::text as v`);
    expect(result.rows[0]?.v).toBe(`'atemtechn':2 'helf':3 'stress':5`);
  });

  it('has storage RLS enabled and the storage path helpers', async () => {
    const rls = await db().query<{ relname: string; relrowsecurity: boolean }>(
      `select c.relname, c.relrowsecurity from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'storage' and c.relkind = 'r' order by 1`,
    );
    expect(rls.rows).toEqual([
      { relname: 'buckets', relrowsecurity: true },
      { relname: 'objects', relrowsecurity: true },
    ]);
    const helpers = await db().query(
      `select storage.foldername('a/b/c.PDF') as folders, storage.filename('a/b/c.PDF') as file, storage.extension('a/b/c.PDF') as ext`,
    );
    // As Supabase's storage.extension(): the last extension as written.
    expect(helpers.rows).toEqual([{ folders: ['a', 'b'], file: 'c.PDF', ext: 'PDF' }]);
  });

  it('refuses direct deletes from the storage tables with Supabase\'s error, even for the owner', async () => {
    for (const table of ['storage.objects', 'storage.buckets']) {
      await expect(db().query(`delete from ${table} where false`)).rejects.toMatchObject({
        code: '42501',
        message: 'Direct deletion from storage tables is not allowed. Use the Storage API instead.',
      });
    }
  });
});
