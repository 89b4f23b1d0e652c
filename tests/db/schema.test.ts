import { readFile } from 'node:fs/promises';

import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

import { listMigrations } from '../../supabase/local/database';
import { verifyJwtSettings } from '../../supabase/local/functions';
import { actors, attempt, insertDocument, type Outcome, run, useDatabase } from './fixtures';

const fixture = useDatabase();

function failsWith(outcome: Outcome, code: string): void {
  expect(outcome).toMatchObject({ ok: false, code });
}

describe('voice_configs', () => {
  it('is seeded with exactly one active row holding the defaults', async () => {
    const result = await fixture.db.query('select stability, similarity_boost, style, use_speaker_boost, pitch, speed from public.voice_configs where is_active');
    expect(result.rows).toEqual([
      { stability: 0.25, similarity_boost: 0.75, style: 0.45, use_speaker_boost: true, pitch: 1, speed: 1 },
    ]);
  });

  it.each([
    ['stability', 1.01],
    ['stability', -0.01],
    ['similarity_boost', 1.5],
    ['similarity_boost', -1],
    ['style', 1.001],
    ['style', -0.5],
    ['pitch', 0.49],
    ['pitch', 2.01],
    ['speed', 0.4],
    ['speed', 2.1],
    ['speed', 'NaN'],
  ])('rejects %s = %s', async (column, value) => {
    failsWith(await attempt(fixture.db, actors.admin, `update public.voice_configs set ${column} = $1 where is_active`, [value]), '23514');
  });

  it('accepts the slider bounds themselves', async () => {
    const outcome = await attempt(
      fixture.db,
      actors.admin,
      `insert into public.voice_configs (stability, similarity_boost, style, pitch, speed)
       values (0, 1, 0, 0.5, 2), (1, 0, 1, 2, 0.5) returning id`,
    );
    expect(outcome).toMatchObject({ ok: true, affected: 2 });
  });

  it('rejects a missing value', async () => {
    failsWith(await attempt(fixture.db, actors.admin, 'update public.voice_configs set pitch = null where is_active'), '23502');
  });

  it('rejects a second active row', async () => {
    failsWith(await attempt(fixture.db, actors.admin, 'insert into public.voice_configs (is_active) values (true)'), '23505');
  });

  it('rejects deactivating the only active row', async () => {
    failsWith(await attempt(fixture.db, actors.admin, 'update public.voice_configs set is_active = false where is_active'), '23514');
  });

  it('allows swapping the active row within one transaction', async () => {
    await run(fixture.db, actors.admin, 'insert into public.voice_configs (stability) values (0.9)');
    await fixture.db.transaction(async (tx) => {
      await tx.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify(actors.admin.claims),
      ]);
      await tx.query('update public.voice_configs set is_active = false where is_active');
      await tx.query('update public.voice_configs set is_active = true where stability = 0.9');
    });
    const active = await run<{ stability: number }>(fixture.db, actors.anon, 'select stability from public.voice_configs');
    expect(active).toEqual([{ stability: 0.9 }]);
  });

  it('stamps updated_at on every change', async () => {
    const [before] = await run<{ updated_at: Date }>(fixture.db, actors.admin, 'select updated_at from public.voice_configs where is_active');
    const [after] = await run<{ updated_at: Date }>(
      fixture.db,
      actors.admin,
      'update public.voice_configs set speed = 1.1 where is_active returning updated_at',
    );
    expect(after?.updated_at.getTime()).toBeGreaterThan(before?.updated_at.getTime() ?? Number.POSITIVE_INFINITY);
  });
});

describe('documents', () => {
  it('defaults to a PROCESSING PDF created by the signed-in admin', async () => {
    const [row] = await run<{ type: string; status: string; created_by: string; content: string | null }>(
      fixture.db,
      actors.admin,
      `insert into public.documents (title, url) values ('neu.pdf', 'https://example.com/neu.pdf')
       returning type, status, created_by, content`,
    );
    expect(row).toEqual({ type: 'PDF', status: 'PROCESSING', created_by: actors.admin.claims.sub, content: null });
  });

  it.each([
    ['an unknown status', `insert into public.documents (title, url, status) values ('a.pdf', 'u', 'DONE')`, '22P02'],
    ['ERROR without a reason', `insert into public.documents (title, url, status) values ('a.pdf', 'u', 'ERROR')`, '23514'],
    [
      'a reason on a COMPLETED document',
      `insert into public.documents (title, url, status, error) values ('a.pdf', 'u', 'COMPLETED', 'x')`,
      '23514',
    ],
    ['another type than PDF', `insert into public.documents (title, url, type) values ('a.docx', 'u', 'DOCX')`, '23514'],
    ['a negative file size', `insert into public.documents (title, url, file_size) values ('a.pdf', 'u', -1)`, '23514'],
    ['an empty title', `insert into public.documents (title, url) values ('', 'u')`, '23514'],
  ])('rejects %s', async (_name, sql, code) => {
    failsWith(await attempt(fixture.db, actors.admin, sql), code);
  });

  it('removes its passages when deleted', async () => {
    const id = await insertDocument(fixture.db, { title: 'weg.pdf' });
    await run(fixture.db, actors.admin, 'select public.ingest_document_text($1, $2)', [id, 'Ein Absatz über Ruhe.']);
    await run(fixture.db, actors.admin, 'delete from public.documents where id = $1', [id]);
    const left = await fixture.db.query('select 1 from public.document_chunks where document_id = $1', [id]);
    expect(left.rows).toEqual([]);
  });

  it('is published for realtime, and the local change feed records and announces changes', async () => {
    const published = await fixture.db.query<{ tablename: string }>(
      `select tablename from pg_publication_tables where pubname = 'supabase_realtime' order by 1`,
    );
    expect(published.rows.map((row) => row.tablename)).toEqual(['documents', 'open_questions']);

    const announced: string[] = [];
    const unlisten = await fixture.db.listen('supabase_local_changes', (payload) => announced.push(payload));
    const id = await insertDocument(fixture.db, { title: 'live.pdf' });
    await run(fixture.db, actors.admin, `update public.documents set title = 'live-2.pdf' where id = $1`, [id]);
    await run(fixture.db, actors.admin, 'delete from public.documents where id = $1', [id]);
    await unlisten();

    const changes = await fixture.db.query<{ id: number; type: string; record: { title?: string } | null; old_record: unknown }>(
      `select id, type, record, old_record from supabase_local.changes
        where coalesce(record ->> 'id', old_record ->> 'id') = $1 order by id`,
      [id],
    );
    expect(changes.rows.map((change) => change.type)).toEqual(['INSERT', 'UPDATE', 'DELETE']);
    expect(changes.rows[1]?.record?.title).toBe('live-2.pdf');
    expect(changes.rows[2]).toMatchObject({ record: null, old_record: { id } });
    expect(announced).toEqual(changes.rows.map((change) => String(change.id)));
  });
});

describe('conversations', () => {
  it.each([
    ['a rating of 0', 'insert into public.conversations (rating) values (0)', '23514'],
    ['a rating of 6', 'insert into public.conversations (rating) values (6)', '23514'],
    [
      'a last message before the start',
      `insert into public.conversations (started_at, last_message_at) values (now(), now() - interval '1 minute')`,
      '23514',
    ],
    ['a negative message count', 'insert into public.conversations (message_count) values (-1)', '23514'],
  ])('rejects %s', async (_name, sql, code) => {
    failsWith(await attempt(fixture.db, actors.service, sql), code);
  });

  it('holds nothing personal', async () => {
    const columns = await fixture.db.query<{ column_name: string }>(
      `select column_name from information_schema.columns
        where table_schema = 'public' and table_name = 'conversations' order by 1`,
    );
    expect(columns.rows.map((row) => row.column_name)).toEqual([
      'id',
      'last_message_at',
      'message_count',
      'rating',
      'started_at',
    ]);
  });
});

describe('ratings', () => {
  const rate = async (id: string, rating: number) =>
    (await run<{ result: string }>(fixture.db, actors.service, 'select public.rate_conversation($1, $2::smallint) as result', [id, rating]))[0]?.result;

  it('keeps the first rating of a conversation: the function says so, and the table refuses a second', async () => {
    const [row] = await run<{ id: string }>(fixture.db, actors.service, 'insert into public.conversations (message_count) values (1) returning id');
    const id = row?.id ?? '';
    expect(await rate(id, 4)).toBe('rated');
    expect(await rate(id, 1)).toBe('already_rated');
    expect(await rate('00000000-0000-4000-8000-0000000000ff', 5)).toBe('not_found');
    // Not even the service role, which bypasses row level security, replaces a rating.
    failsWith(await attempt(fixture.db, actors.service, 'update public.conversations set rating = 2 where id = $1', [id]), '23514');
    const stored = await fixture.db.query<{ rating: number }>('select rating from public.conversations where id = $1', [id]);
    expect(stored.rows).toEqual([{ rating: 4 }]);
  });

  it('is given by the coach function only', async () => {
    for (const actor of [actors.anon, actors.member, actors.admin]) {
      failsWith(await attempt(fixture.db, actor, `select public.rate_conversation('00000000-0000-4000-8000-0000000000ff', 3::smallint)`), '42501');
    }
  });
});

describe('sign-ups (the before-user-created hook)', () => {
  const hook = async (user: Record<string, unknown>) =>
    (await fixture.db.query<{ answer: unknown }>('select public.only_anonymous_sign_ups($1::jsonb) as answer', [JSON.stringify({ metadata: {}, user })]))
      .rows[0]?.answer;

  it('lets an anonymous visitor through and refuses every other sign-up', async () => {
    expect(await hook({ is_anonymous: true })).toEqual({});
    expect(await hook({ is_anonymous: false, email: 'neu@example.com' })).toMatchObject({ error: { http_code: 403 } });
    expect(await hook({ email: 'neu@example.com' })).toMatchObject({ error: { http_code: 403 } });
  });

  it('is called by Supabase Auth alone', async () => {
    const callers = await fixture.db.query<{ role: string }>(
      `select r.rolname as role from pg_roles r
        where has_function_privilege(r.oid, 'public.only_anonymous_sign_ups(jsonb)', 'execute')
          and r.rolname in ('anon', 'authenticated', 'service_role', 'supabase_auth_admin') order by 1`,
    );
    expect(callers.rows).toEqual([{ role: 'supabase_auth_admin' }]);
  });
});

describe('users (operator profiles)', () => {
  const id = '00000000-0000-4000-8000-00000000d001';
  const profile = async () =>
    (await fixture.db.query<{ email: string; role: string | null }>('select email, role from public.users where id = $1', [id])).rows;

  it('follows auth.users on insert, update and delete', async () => {
    await fixture.db.query(
      `insert into auth.users (id, email, raw_app_meta_data, created_at) values ($1, 'neu@example.com', '{"provider":"email"}', now())`,
      [id],
    );
    expect(await profile()).toEqual([{ email: 'neu@example.com', role: null }]);

    await fixture.db.query(
      `update auth.users set email = 'chef@example.com', raw_app_meta_data = raw_app_meta_data || '{"role":"admin"}' where id = $1`,
      [id],
    );
    expect(await profile()).toEqual([{ email: 'chef@example.com', role: 'admin' }]);

    await fixture.db.query('delete from auth.users where id = $1', [id]);
    expect(await profile()).toEqual([]);
  });

  it('leaves anonymous visitors out: they are no operators', async () => {
    const visitor = '00000000-0000-4000-8000-00000000d002';
    await fixture.db.query(`insert into auth.users (id, is_anonymous, raw_app_meta_data, created_at) values ($1, true, '{}', now())`, [visitor]);
    const rows = await fixture.db.query('select 1 from public.users where id = $1', [visitor]);
    expect(rows.rows).toEqual([]);
    await fixture.db.query('delete from auth.users where id = $1', [visitor]);
  });
});

describe('admin_stats', () => {
  interface Stats {
    totalUsers: number;
    activeConversations: number;
    documentsProcessed: number;
    averageRating: number | null;
    conversationGrowth: number | null;
  }
  const stats = async () => {
    const [row] = await run<{ stats: Stats }>(fixture.db, actors.admin, 'select public.admin_stats() as stats');
    return row?.stats;
  };

  it('counts real rows and reports null where there is nothing to average or compare', async () => {
    await fixture.db.exec('delete from public.conversations; delete from public.documents;');
    await insertDocument(fixture.db, { title: 'a.pdf', status: 'COMPLETED' });
    await insertDocument(fixture.db, { title: 'b.pdf', status: 'COMPLETED' });
    await insertDocument(fixture.db, { title: 'c.pdf', status: 'PROCESSING' });
    await insertDocument(fixture.db, { title: 'd.pdf', status: 'ERROR' });

    expect(await stats()).toEqual({
      totalUsers: 2,
      activeConversations: 0,
      documentsProcessed: 2,
      averageRating: null,
      conversationGrowth: null,
    });
  });

  it('computes active conversations, the rounded average rating and month-over-month growth', async () => {
    await fixture.db.exec(`
      delete from public.conversations;
      -- this calendar month (Europe/Berlin): two, both active in the last 24 hours
      insert into public.conversations (started_at, last_message_at, rating) values (now(), now(), 5), (now(), now(), 4);
      -- last month: three, long inactive
      insert into public.conversations (started_at, last_message_at, rating)
      select date_trunc('month', now(), 'Europe/Berlin') - interval '2 days',
             date_trunc('month', now(), 'Europe/Berlin') - interval '2 days', r
        from unnest(array[4, 2, null]::smallint[]) r;
      -- two months ago: neither this nor last month
      insert into public.conversations (started_at, last_message_at)
      values (date_trunc('month', now(), 'Europe/Berlin') - interval '40 days', date_trunc('month', now(), 'Europe/Berlin') - interval '40 days');
    `);

    expect(await stats()).toMatchObject({
      activeConversations: 2,
      averageRating: 3.8, // (5 + 4 + 4 + 2) / 4 = 3.75
      conversationGrowth: -33.3, // 2 this month vs 3 last month
    });
  });
});

describe('supabase/functions/_shared/database.types.ts', () => {
  interface Column {
    table_name: string;
    column_name: string;
    is_nullable: 'YES' | 'NO';
    has_default: boolean;
    identity_always: boolean;
    udt_name: string;
    is_enum: boolean;
  }

  const numberTypes = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric']);
  const stringTypes = new Set(['text', 'varchar', 'bpchar', 'uuid', 'date', 'time', 'timetz', 'timestamp', 'timestamptz', 'interval', 'bytea']);

  function tsType(udtName: string, isEnum: boolean): string {
    if (isEnum) return `Database["public"]["Enums"]["${udtName}"]`;
    // An array's udt_name is its element's with a leading underscore (text[] is _text).
    if (udtName.startsWith('_')) return `${tsType(udtName.slice(1), false)}[]`;
    if (numberTypes.has(udtName)) return 'number';
    if (stringTypes.has(udtName)) return 'string';
    if (udtName === 'bool') return 'boolean';
    if (udtName === 'json' || udtName === 'jsonb') return 'Json';
    return 'unknown';
  }

  type Members = Map<string, ts.TypeElement>;

  function members(node: ts.TypeNode | undefined): Members {
    const map: Members = new Map();
    if (node === undefined || !ts.isTypeLiteralNode(node)) return map;
    for (const member of node.members) {
      if (member.name !== undefined && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name))) {
        map.set(member.name.text, member);
      }
    }
    return map;
  }

  function typeOf(member: ts.TypeElement | undefined): ts.TypeNode | undefined {
    return member !== undefined && ts.isPropertySignature(member) ? member.type : undefined;
  }

  function text(node: ts.Node | undefined, source: ts.SourceFile): string {
    return node === undefined ? '' : node.getText(source).replace(/\s+/g, ' ').trim();
  }

  let source: ts.SourceFile;
  let schema: Members;
  let columns: Column[];

  beforeAll(async () => {
    const file = new URL('../../supabase/functions/_shared/database.types.ts', import.meta.url);
    source = ts.createSourceFile('database.ts', await readFile(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const database = source.statements.find(
      (statement): statement is ts.TypeAliasDeclaration =>
        ts.isTypeAliasDeclaration(statement) && statement.name.text === 'Database',
    );
    schema = members(typeOf(members(database?.type).get('public')));
    columns = (
      await fixture.db.query<Column>(
        `select c.table_name, c.column_name, c.is_nullable, c.udt_name,
                (c.column_default is not null or c.is_identity = 'YES' or c.is_generated = 'ALWAYS') as has_default,
                coalesce(c.identity_generation = 'ALWAYS', false) as identity_always,
                exists (select from pg_type t where t.typname = c.udt_name and t.typtype = 'e') as is_enum
           from information_schema.columns c
           join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
          where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
          order by c.table_name, c.column_name`,
      )
    ).rows;
  });

  it('lists exactly the tables of the public schema', () => {
    const tables = [...members(typeOf(schema.get('Tables'))).keys()];
    expect(tables).toEqual([...new Set(columns.map((column) => column.table_name))]);
  });

  it('has every column, with its type and nullability, in Row, Insert and Update', () => {
    const tables = members(typeOf(schema.get('Tables')));
    for (const tableName of new Set(columns.map((column) => column.table_name))) {
      const table = members(typeOf(tables.get(tableName)));
      const row = members(typeOf(table.get('Row')));
      const insert = members(typeOf(table.get('Insert')));
      const update = members(typeOf(table.get('Update')));
      const tableColumns = columns.filter((column) => column.table_name === tableName);
      const names = tableColumns.map((column) => column.column_name);

      expect([...row.keys()], `${tableName}.Row`).toEqual(names);
      expect([...insert.keys()], `${tableName}.Insert`).toEqual(names);
      expect([...update.keys()], `${tableName}.Update`).toEqual(names);

      for (const column of tableColumns) {
        const label = `${tableName}.${column.column_name}`;
        const base = tsType(column.udt_name, column.is_enum);
        const nullable = column.is_nullable === 'YES' && base !== 'unknown';
        const expected = nullable ? `${base} | null` : base;
        const insertMember = insert.get(column.column_name);
        const updateMember = update.get(column.column_name);

        expect(text(typeOf(row.get(column.column_name)), source), `${label} in Row`).toBe(expected);
        if (column.identity_always) {
          expect(text(typeOf(insertMember), source), `${label} in Insert`).toBe('never');
          expect(text(typeOf(updateMember), source), `${label} in Update`).toBe('never');
          continue;
        }
        expect(text(typeOf(insertMember), source), `${label} in Insert`).toBe(expected);
        expect(insertMember?.questionToken !== undefined, `${label} optional in Insert`).toBe(
          column.is_nullable === 'YES' || column.has_default,
        );
        expect(text(typeOf(updateMember), source), `${label} in Update`).toBe(expected);
        expect(updateMember?.questionToken !== undefined, `${label} optional in Update`).toBe(true);
      }
    }
  });

  it('lists the callable functions with their arguments', async () => {
    const functions = await fixture.db.query<{ proname: string; args: string[]; optional: string[] }>(
      `select p.proname,
              coalesce(array(select a from unnest(p.proargnames) with ordinality as x (a, i)
                              where p.proargmodes is null or p.proargmodes[i] in ('i', 'b', 'v')
                              order by a), '{}') as args,
              coalesce(array(select a from unnest(p.proargnames) with ordinality as x (a, i)
                              where (p.proargmodes is null or p.proargmodes[i] in ('i', 'b', 'v'))
                                and i > p.pronargs - p.pronargdefaults
                              order by a), '{}') as optional
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' and p.prorettype <> 'trigger'::regtype
        order by p.proname`,
    );
    const declared = members(typeOf(schema.get('Functions')));
    expect([...declared.keys()]).toEqual(functions.rows.map((fn) => fn.proname));

    for (const fn of functions.rows) {
      const signature = members(typeOf(declared.get(fn.proname)));
      const args = typeOf(signature.get('Args'));
      if (fn.args.length === 0) {
        expect(text(args, source), fn.proname).toBe('never');
        continue;
      }
      const argMembers = members(args);
      expect([...argMembers.keys()], fn.proname).toEqual(fn.args);
      const optional = [...argMembers].filter(([, member]) => member.questionToken !== undefined).map(([name]) => name);
      expect(optional, fn.proname).toEqual(fn.optional);
    }
  });

  it('lists the enums with their values in order', async () => {
    const enums = await fixture.db.query<{ typname: string; labels: string[] }>(
      `select t.typname, array_agg(e.enumlabel order by e.enumsortorder) as labels
         from pg_type t join pg_enum e on e.enumtypid = t.oid join pg_namespace n on n.oid = t.typnamespace
        where n.nspname = 'public' group by t.typname order by t.typname`,
    );
    const declared = members(typeOf(schema.get('Enums')));
    expect([...declared.keys()]).toEqual(enums.rows.map((row) => row.typname));
    for (const { typname, labels } of enums.rows) {
      expect(text(typeOf(declared.get(typname)), source)).toBe(labels.map((label) => `"${label}"`).join(' | '));
    }
  });
});

describe('policies', () => {
  it('gives no role two permissive policies for the same command on one table (splinter: multiple_permissive_policies)', async () => {
    const { rows } = await fixture.db.query<{ table_name: string; role: string; command: string; policies: string[] }>(
      `with expanded as (
         select c.relname as table_name, r.rolname as role, cmd.command, p.polname
           from pg_policy p
           join pg_class c on c.oid = p.polrelid
           join pg_namespace n on n.oid = c.relnamespace
           cross join lateral unnest(case when p.polroles = '{0}' then array(
               select oid from pg_roles where rolname in ('anon', 'authenticated', 'service_role')
             ) else p.polroles end) as role_oid(oid)
           join pg_roles r on r.oid = role_oid.oid
           cross join lateral unnest(case p.polcmd when '*' then array['r', 'a', 'w', 'd'] else array[p.polcmd::text] end) as cmd(command)
          where n.nspname = 'public' and p.polpermissive
       )
       select table_name, role, command, array_agg(polname order by polname) as policies
         from expanded group by 1, 2, 3 having count(*) > 1 order by 1, 2, 3`,
    );
    expect(rows).toEqual([]);
  });

  it('still lets visitors and members read only the active voice and admins every voice', async () => {
    await run(fixture.db, actors.service, `insert into public.voice_configs (is_active) values (false)`);
    const counts = async (actor: (typeof actors)[keyof typeof actors]) =>
      (await run<{ active: boolean }>(fixture.db, actor, 'select is_active as active from public.voice_configs')).map((row) => row.active);
    const all = await counts(actors.service);
    expect(all).toContain(false);
    expect(await counts(actors.anon)).toEqual([true]);
    expect(await counts(actors.member)).toEqual([true]);
    expect(await counts(actors.admin)).toHaveLength(all.length);
    await run(fixture.db, actors.service, `delete from public.voice_configs where not is_active`);
  });
});

describe('docs/database.md', () => {
  let documented: Set<string>;

  beforeAll(async () => {
    const page = await readFile(new URL('../../docs/database.md', import.meta.url), 'utf8');
    // Every name written as code on the page: `private.search_terms(question, previous)` counts
    // for search_terms (and private, question, previous).
    documented = new Set([...page.matchAll(/`([^`]+)`/g)].flatMap((span) => span[1]?.match(/[\w.-]+/g) ?? []).flatMap((word) => [word, ...word.split('.')]));
  });

  it('names every table, function and type of the schemas public and private', async () => {
    const { rows } = await fixture.db.query<{ name: string }>(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname in ('public', 'private') and c.relkind in ('r', 'v', 'm', 'p')
       union
       select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname in ('public', 'private')
          and not exists (select from pg_depend d where d.objid = p.oid and d.deptype = 'e')
       union
       select t.typname from pg_type t join pg_namespace n on n.oid = t.typnamespace
        where n.nspname in ('public', 'private') and (t.typtype = 'e' or (t.typtype = 'c' and t.typrelid in (
          select c.oid from pg_class c where c.relkind = 'c')))
       order by 1`,
    );
    expect(rows.length).toBeGreaterThan(40);
    expect(rows.map((row) => row.name).filter((name) => !documented.has(name))).toEqual([]);
  });

  it('writes a function’s parameters as the function names them', async () => {
    const page = await readFile(new URL('../../docs/database.md', import.meta.url), 'utf8');
    // `private.minute_retry_after(p_count, …)` or `search_knowledge(query text, …)`: the first word of each part.
    const written = [...page.matchAll(/`(?:(?:public|private)\.)?(\w+)\(([^)`]+)\)`/g)]
      .map(([, name = '', list = '']) => ({ name, parameters: list.split(',').map((part) => part.trim().split(/\s+/)[0] ?? '') }))
      .filter(({ parameters }) => !parameters.includes('…'));
    expect(written.length).toBeGreaterThan(20);
    const { rows } = await fixture.db.query<{ name: string; parameters: string[] }>(
      `select p.proname as name,
              coalesce((select array_agg(a.name order by a.position)
                          from unnest(p.proargnames, p.proargmodes) with ordinality as a(name, mode, position)
                         where coalesce(a.mode, 'i') in ('i', 'b', 'v') and a.name is not null), '{}') as parameters
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname in ('public', 'private')`,
    );
    const wrong = written.flatMap(({ name, parameters }) => {
      const overloads = rows.filter((row) => row.name === name);
      const right = overloads.length === 0 || overloads.some((row) => row.parameters.join(', ') === parameters.join(', '));
      return right ? [] : [`${name}(${parameters.join(', ')}) is ${overloads.map((row) => `${name}(${row.parameters.join(', ')})`).join(' or ')}`];
    });
    expect(wrong).toEqual([]);
  });

  it('names every migration, and every migration starts with a header saying what it holds', async () => {
    const migrations = await listMigrations();
    expect(migrations.filter((name) => !documented.has(name))).toEqual([]);
    for (const name of migrations) {
      const sql = await readFile(new URL(`../../supabase/migrations/${name}`, import.meta.url), 'utf8');
      // A block of comment lines, set apart from the statements by a blank line.
      expect(sql, name).toMatch(/^(?:--(?: .*)?\n)+\n/);
    }
  });
});

describe('supabase/config.toml', () => {
  it('declares the buckets exactly as the migrations create them (the CLI applies these settings)', async () => {
    const toml = await readFile(new URL('../../supabase/config.toml', import.meta.url), 'utf8');
    const mebibytes = (value: string) => Number(/^"(\d+)MiB"$/.exec(value)?.[1] ?? Number.NaN) * 1024 * 1024;
    const declared = [...toml.matchAll(/^\[storage\.buckets\.([\w-]+)\]\n((?:\w+ = .*\n)+)/gm)].map(([, id = '', body = '']) => {
      const setting = (key: string) => new RegExp(`^${key} = (.*)$`, 'm').exec(body)?.[1] ?? '';
      return {
        id,
        public: setting('public') === 'true',
        file_size_limit: mebibytes(setting('file_size_limit')),
        allowed_mime_types: [...setting('allowed_mime_types').matchAll(/"([^"]+)"/g)].map((match) => match[1]),
      };
    });
    const { rows } = await fixture.db.query('select id, public, file_size_limit, allowed_mime_types from storage.buckets order by id');
    expect(declared).toEqual(rows);
  });

  it('has the gateway check the JWT of every function that spends money (the visitor session is read from it, not checked again)', async () => {
    const toml = await readFile(new URL('../../supabase/config.toml', import.meta.url), 'utf8');
    const settings = verifyJwtSettings(toml);
    expect(['coach', 'tts', 'stt'].map((name) => settings.get(name))).toEqual([true, true, true]);
  });

  it('keeps the e-mail provider on for the operators\' password sign-in, with sign-up itself closed', async () => {
    const toml = await readFile(new URL('../../supabase/config.toml', import.meta.url), 'utf8');
    const table = (name: string) => new RegExp(`^\\[${name.replace('.', '\\.')}\\]\\n((?:(?:#.*|\\w+ = .*)\\n)+)`, 'm').exec(toml)?.[1] ?? '';
    expect(table('auth')).toMatch(/^enable_signup = false$/mu);
    expect(table('auth.email')).toMatch(/^enable_signup = true$/mu);
  });
});
