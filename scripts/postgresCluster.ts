/**
 * A throwaway PostgreSQL 15 cluster set up as a Supabase database is, for benchmarks on the
 * production engine (`npm run bench:search -- --engine postgres`). Never part of `npm test`: CI has
 * no PostgreSQL server.
 *
 * - The cluster is owned by a superuser, `supabase_admin`, as on Supabase; the server keeps its
 *   default settings (JIT on, default cost constants and work_mem): only the socket is moved into
 *   the cluster's temporary folder, and no TCP port is opened.
 * - The superuser applies `supabase/local/bootstrap.sql` (roles, `auth`, `storage`, the realtime
 *   publication), then hands the schemas over as Supabase has them: `auth` to
 *   `supabase_auth_admin`, `storage` to `supabase_storage_admin` (both granted to `postgres`), the
 *   publication and the database to `postgres`. pgvector is created in `extensions` by the
 *   superuser, as Supabase's supautils lets `postgres` do for a privileged extension; so is
 *   pg_cron where the server has it (Debian's `postgresql-15-cron`), preloaded as on Supabase.
 * - Every migration then runs as `postgres`, a NON-superuser (createrole, createdb, bypassrls), as
 *   `supabase db push` runs them; the search runs as PostgREST does: logged in as `authenticator`,
 *   switched to the request's role per transaction.
 *
 * Needs Debian's `postgresql-15` (`/usr/lib/postgresql/15/bin`, or `PG_BIN`) and pgvector for it:
 * Debian 12 has no `postgresql-15-pgvector` package; PGDG's apt repository has one, or build it
 * from its source (`make && make install` with `postgresql-server-dev-15`).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import pg from 'pg';

import { listMigrations } from '../supabase/local/database';
import { repoRoot } from '../supabase/local/config';

const run = promisify(execFile);
const SUPERUSER = 'supabase_admin';
const PORT = 5432;

export interface PostgresCluster {
  /** Server version and the extensions' versions, for the report. */
  readonly versions: string;
  /** Where the server's socket is (host for a client; port 5432); its log is server.log there. */
  readonly socketDir: string;
  /** Logged in as `postgres` (the migrations' role), in the database `postgres`. */
  readonly owner: pg.Client;
  /** Logged in as `authenticator`, as PostgREST is. */
  readonly api: pg.Client;
  stop(): Promise<void>;
}

/**
 * The server refuses to run as root; as root, it runs as the operating system's `postgres` user
 * (Debian's package creates it), which then owns the temporary folder.
 */
async function serverUser(): Promise<{ uid: number; gid: number } | null> {
  if (process.getuid?.() !== 0) return null;
  const [uid, gid] = await Promise.all(['-u', '-g'].map(async (flag) => Number((await run('id', [flag, 'postgres'])).stdout.trim())));
  if (uid === undefined || gid === undefined || !Number.isInteger(uid) || !Number.isInteger(gid)) {
    throw new Error('Running as root needs the operating system user postgres (Debian creates it with postgresql-15).');
  }
  return { uid, gid };
}

function binaries(): string {
  const dir = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
  if (!existsSync(join(dir, 'initdb'))) {
    throw new Error(`No PostgreSQL server binaries in ${dir}: apt-get install postgresql-15 (or set PG_BIN).`);
  }
  return dir;
}

async function connect(socketDir: string, user: string): Promise<pg.Client> {
  const client = new pg.Client({ host: socketDir, port: PORT, user, database: 'postgres' });
  await client.connect();
  return client;
}

/** Supabase's grants that the local bootstrap (one superuser on PGlite) does not need. */
const HAND_OVER = `
  alter database postgres owner to postgres;
  grant all on schema extensions to postgres with grant option;
  alter schema extensions owner to postgres;
  alter publication supabase_realtime owner to postgres;
  grant supabase_auth_admin, supabase_storage_admin to postgres;
  do $$
  declare
    item record;
  begin
    for item in
      select n.nspname, c.relname, case n.nspname when 'auth' then 'supabase_auth_admin' else 'supabase_storage_admin' end as owner
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname in ('auth', 'storage') and c.relkind in ('r', 'p', 'v')
    loop
      execute format('alter table %I.%I owner to %I', item.nspname, item.relname, item.owner);
    end loop;
    for item in
      select p.oid::regprocedure as routine, case n.nspname when 'auth' then 'supabase_auth_admin' else 'supabase_storage_admin' end as owner
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname in ('auth', 'storage')
    loop
      execute format('alter function %s owner to %I', item.routine, item.owner);
    end loop;
  end
  $$;
  alter schema auth owner to supabase_auth_admin;
  alter schema storage owner to supabase_storage_admin;
  grant all on schema supabase_local to postgres;
  grant all on all tables in schema supabase_local to postgres;
`;

/** Starts a fresh cluster in a temporary folder and applies bootstrap and every migration. */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = binaries();
  const dir = await mkdtemp(join(tmpdir(), 'bench-postgres-'));
  const data = join(dir, 'data');
  const user = await serverUser();
  if (user !== null) await chown(dir, user.uid, user.gid);
  const server = (tool: string, args: string[]) => run(join(bin, tool), args, user ?? {});
  let started = false;
  const clients: pg.Client[] = [];
  const stop = async () => {
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
    if (started) await server('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await server('initdb', ['-D', data, '-U', SUPERUSER, '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
    await server('pg_ctl', [
      '-D', data, '-w', '-l', join(dir, 'server.log'),
      '-o', `-c listen_addresses='' -c unix_socket_directories='${dir}' -p ${String(PORT)}`,
      'start',
    ]);
    started = true;

    let superuser = await connect(dir, SUPERUSER);
    clients.push(superuser);
    // pg_cron where the server has it, as Supabase has it: preloaded, created by the superuser (the
    // migrations' `create extension if not exists` then finds it), its schema usable by `postgres`.
    const cron = await superuser.query("select 1 from pg_available_extensions where name = 'pg_cron'");
    if (cron.rows.length > 0) {
      await superuser.query("alter system set shared_preload_libraries = 'pg_cron'");
      await superuser.end();
      clients.splice(clients.indexOf(superuser), 1);
      await server('pg_ctl', ['-D', data, '-w', '-m', 'fast', '-l', join(dir, 'server.log'), 'restart']);
      superuser = await connect(dir, SUPERUSER);
      clients.push(superuser);
    }
    await superuser.query(
      `create role postgres login createrole createdb replication bypassrls;
       create schema extensions;
       create extension vector with schema extensions;`,
    );
    if (cron.rows.length > 0) {
      await superuser.query(
        `create extension pg_cron with schema pg_catalog;
         grant usage on schema cron to postgres with grant option;
         grant all privileges on all tables in schema cron to postgres with grant option;`,
      );
    }
    await superuser.query(await readFile(join(repoRoot, 'supabase', 'local', 'bootstrap.sql'), 'utf8'));
    await superuser.query(HAND_OVER);

    const owner = await connect(dir, 'postgres');
    clients.push(owner);
    const isSuperuser = await owner.query<{ rolsuper: boolean }>('select rolsuper from pg_roles where rolname = current_user');
    if (isSuperuser.rows[0]?.rolsuper !== false) throw new Error('the migrations must run as a non-superuser postgres');
    for (const name of await listMigrations()) {
      const sql = await readFile(join(repoRoot, 'supabase', 'migrations', name), 'utf8');
      try {
        await owner.query(`begin;\n${sql}\n;commit;`);
      } catch (error) {
        await owner.query('rollback').catch(() => undefined);
        throw new Error(`Migration ${name} failed on PostgreSQL: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
    }
    await superuser.end();
    clients.splice(clients.indexOf(superuser), 1);

    const api = await connect(dir, 'authenticator');
    clients.push(api);
    const version = await owner.query<{ server: string; extensions: string }>(
      `select current_setting('server_version') as server,
              (select string_agg(extname || ' ' || extversion, ', ' order by extname) from pg_extension where extname <> 'plpgsql') as extensions`,
    );
    const jit = await owner.query<{ jit: string }>(`select current_setting('jit') as jit`);
    const row = version.rows[0];
    return {
      socketDir: dir,
      versions: `PostgreSQL ${row?.server ?? '?'} (${row?.extensions ?? ''}; jit = ${jit.rows[0]?.jit ?? '?'})`,
      owner,
      api,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
