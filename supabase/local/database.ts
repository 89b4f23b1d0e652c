/**
 * The local stand-in for a Supabase Postgres: PGlite with Supabase's roles, auth and storage
 * schemas (bootstrap.sql), then this project's migrations and seed, exactly the files that
 * `supabase db push` and `supabase db reset` use. Plain Node: no Vite, nothing from src/.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { PGlite, type PGliteOptions, type Transaction } from '@electric-sql/pglite';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
import { vector } from '@electric-sql/pglite-pgvector';

const supabaseDir = fileURLToPath(new URL('..', import.meta.url));

/** The roles a request may run as; PostgREST switches to the JWT's `role` claim. */
export type DatabaseRole = 'anon' | 'authenticated' | 'service_role';

/** JWT claims as Supabase issues them; policies read them through auth.jwt(). */
export interface JwtClaims {
  role?: string;
  sub?: string;
  email?: string;
  aud?: string | string[];
  exp?: number;
  iat?: number;
  iss?: string;
  session_id?: string;
  app_metadata?: Record<string, unknown>;
  user_metadata?: Record<string, unknown>;
  [claim: string]: unknown;
}

export interface OpenDatabaseOptions {
  /** Directory to persist the database in; in memory when absent. */
  dataDir?: string;
  /** Folder holding migrations/, seed.sql and local/bootstrap.sql (default: this repo's supabase/). */
  supabaseDir?: string;
  /** Run seed.sql when the database is created (default true). */
  seed?: boolean;
  /**
   * In-memory databases only: a directory in which to keep a ready-made copy of a freshly set-up
   * database, keyed by the content of the SQL files (`defaultTemplateCacheDir` unless a caller
   * needs one of its own). Creating and migrating a cluster costs seconds; loading the copy costs
   * well under one, which adds up in test suites.
   */
  templateCacheDir?: string;
}

/**
 * Where the local stack in memory and the database tests keep their ready-made copies: one folder
 * per checkout, so that two checkouts with different migrations do not replace each other's copy.
 */
export const defaultTemplateCacheDir = join(
  tmpdir(),
  'supabase-local-templates',
  createHash('sha256').update(supabaseDir).digest('hex').slice(0, 12),
);

/** What openDatabase did, so callers (and tests) can tell a fresh setup from a re-open. */
export interface SetupReport {
  bootstrapped: boolean;
  appliedMigrations: string[];
  seeded: boolean;
  /** True when an in-memory database was loaded from the template cache instead. */
  fromTemplate?: boolean;
}

export interface LocalDatabase {
  db: PGlite;
  setup: SetupReport;
}

/** The Postgres extensions the migrations use that Supabase provides: fuzzystrmatch (the search's
 * typo tolerance) and pgvector (its hybrid search). */
const extensions = { fuzzystrmatch, vector } satisfies PGliteOptions['extensions'];

const apiRoles: ReadonlySet<string> = new Set<DatabaseRole>(['anon', 'authenticated', 'service_role']);

/** Opens (creating or upgrading as needed) the local database and reports what it applied. */
export async function openLocalDatabase(options: OpenDatabaseOptions = {}): Promise<LocalDatabase> {
  const dir = options.supabaseDir ?? supabaseDir;
  const seed = options.seed ?? true;
  if (options.dataDir === undefined && options.templateCacheDir !== undefined) {
    return openFromTemplate(options.templateCacheDir, dir, seed);
  }
  const db = options.dataDir === undefined ? await PGlite.create({ extensions }) : await PGlite.create({ dataDir: options.dataDir, extensions });
  try {
    const setup = await applySetup(db, dir, seed);
    return { db, setup };
  } catch (error) {
    await db.close();
    throw error;
  }
}

/** The template's file: an uncompressed tar, which PGlite loads in about half the time of a gzipped one. */
async function templateFile(cacheDir: string, dir: string, seed: boolean): Promise<string> {
  return join(cacheDir, `pglite-template-${await migrationsFingerprint(dir)}${seed ? '' : '-unseeded'}.tar`);
}

/**
 * Makes sure the template for these SQL files exists, without keeping a database open: run once
 * before parallel test workers start, so that they load one copy instead of each building it.
 */
export async function ensureTemplate(options: { templateCacheDir?: string; supabaseDir?: string; seed?: boolean } = {}): Promise<void> {
  const cacheDir = options.templateCacheDir ?? defaultTemplateCacheDir;
  const dir = options.supabaseDir ?? supabaseDir;
  const seed = options.seed ?? true;
  if (existsSync(await templateFile(cacheDir, dir, seed))) return;
  const { db } = await openFromTemplate(cacheDir, dir, seed);
  await db.close();
}

async function openFromTemplate(cacheDir: string, dir: string, seed: boolean): Promise<LocalDatabase> {
  const file = await templateFile(cacheDir, dir, seed);
  if (existsSync(file)) {
    let loaded: PGlite | undefined;
    try {
      loaded = await PGlite.create({ loadDataDir: new Blob([await readFile(file)]), extensions });
      const setup = await applySetup(loaded, dir, seed);
      return { db: loaded, setup: { ...setup, fromTemplate: true } };
    } catch {
      // An unreadable copy (e.g. written by another PGlite version) is simply rebuilt below.
      await loaded?.close().catch(() => undefined);
    }
  }
  const db = await PGlite.create({ extensions });
  try {
    const setup = await applySetup(db, dir, seed);
    const dump = await db.dumpDataDir('none');
    await mkdir(cacheDir, { recursive: true });
    // Write then rename, so parallel test workers never load a half-written copy.
    const partial = `${file}.${randomUUID()}.partial`;
    await writeFile(partial, new Uint8Array(await dump.arrayBuffer()));
    await rename(partial, file);
    await removeStaleTemplates(cacheDir, file);
    return { db, setup };
  } catch (error) {
    await db.close();
    throw error;
  }
}

/**
 * A database set up with migrations that supabase/migrations no longer holds (a folded or
 * renamed chain): what it is cannot be told from the files, so nothing is applied to it. As
 * `supabase db push` refuses a project whose history names migrations the folder lacks.
 */
export class UnknownMigrationsError extends Error {
  constructor(readonly migrations: readonly string[]) {
    super(
      `This database was set up with migrations that supabase/migrations no longer has (${listed(migrations)}), ` +
        'so it cannot be brought up to date. Nothing was changed. Remove its data directory to set it up afresh ' +
        "(for the local stack's .supabase-local/: npm run reset).",
    );
  }
}

/** The first three names, and how many more there are. */
function listed(names: readonly string[]): string {
  const shown = names.slice(0, 3).join(', ');
  return names.length > 3 ? `${shown} and ${String(names.length - 3)} more` : shown;
}

/** Opens the local database, ready for requests: bootstrap, pending migrations, seed on creation. */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<PGlite> {
  const { db } = await openLocalDatabase(options);
  return db;
}

/** The migration file names in the order Supabase applies them. */
export async function listMigrations(dir: string = supabaseDir): Promise<string[]> {
  const names = await readdir(join(dir, 'migrations'));
  return names.filter((name) => /^\d+_[\w-]+\.sql$/.test(name)).sort();
}

async function applySetup(db: PGlite, dir: string, seed: boolean): Promise<SetupReport> {
  const bootstrapped = !(await hasBootstrap(db));
  if (bootstrapped) {
    const bootstrap = await readFile(join(dir, 'local', 'bootstrap.sql'), 'utf8');
    await db.transaction(async (tx) => {
      await tx.exec(bootstrap);
    });
  }

  const applied = new Set(
    (await db.query<{ name: string }>('select name from supabase_local.applied_migrations')).rows.map((row) => row.name),
  );
  const migrations = await listMigrations(dir);
  const unknown = [...applied].filter((name) => !migrations.includes(name)).sort();
  if (unknown.length > 0) throw new UnknownMigrationsError(unknown);
  const appliedMigrations: string[] = [];
  for (const name of migrations) {
    if (applied.has(name)) continue;
    const sql = await readFile(join(dir, 'migrations', name), 'utf8');
    await db.transaction(async (tx) => {
      try {
        await tx.exec(sql);
      } catch (error) {
        throw new Error(`Migration ${name} failed: ${describeError(error)}`, { cause: error });
      }
      await tx.query('insert into supabase_local.applied_migrations (name) values ($1)', [name]);
    });
    appliedMigrations.push(name);
  }

  // Realtime reads changes of whatever the migrations put into the publication.
  await db.query('select supabase_local.sync_realtime_triggers()');

  let seeded = false;
  if (seed && bootstrapped) {
    const seedPath = join(dir, 'seed.sql');
    if (existsSync(seedPath)) {
      const sql = await readFile(seedPath, 'utf8');
      await db.transaction(async (tx) => {
        await tx.exec(sql);
        await tx.query(`insert into supabase_local.setup_steps (step) values ('seed') on conflict do nothing`);
      });
      seeded = true;
    }
  }

  return { bootstrapped, appliedMigrations, seeded };
}

/** Copies made for earlier versions of the SQL files are never loaded again. */
async function removeStaleTemplates(cacheDir: string, current: string): Promise<void> {
  for (const name of await readdir(cacheDir)) {
    const path = join(cacheDir, name);
    if (name.startsWith('pglite-template-') && /\.(tar|tgz)$/.test(name) && path !== current) {
      await rm(path, { force: true });
    }
  }
}

async function hasBootstrap(db: PGlite): Promise<boolean> {
  const table = await db.query<{ present: boolean }>(
    `select to_regclass('supabase_local.setup_steps') is not null as present`,
  );
  if (table.rows[0]?.present !== true) return false;
  const step = await db.query<{ present: boolean }>(
    `select exists (select from supabase_local.setup_steps where step = 'bootstrap') as present`,
  );
  return step.rows[0]?.present === true;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs fn inside one transaction as `role` with `request.jwt.claims` set, as PostgREST does for a
 * request, so row level security applies exactly as on Supabase (service_role bypasses it).
 * Both settings are transaction-local: nothing leaks into later queries on the shared connection.
 * A statement that fails aborts the transaction; fn should let the error propagate (or use a
 * savepoint) rather than continue.
 */
export async function withClaims<T>(
  db: PGlite,
  claims: JwtClaims | null,
  role: DatabaseRole,
  fn: (tx: Transaction) => Promise<T>,
): Promise<T> {
  if (!apiRoles.has(role)) {
    throw new Error(`Unknown database role: ${role}`);
  }
  return db.transaction(async (tx) => {
    await tx.query(`select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)`, [
      role,
      claims === null ? '' : JSON.stringify(claims),
    ]);
    return fn(tx);
  });
}

/** A short fingerprint of the migrations on disk, e.g. to key a cached data dir. */
export async function migrationsFingerprint(dir: string = supabaseDir): Promise<string> {
  const hash = createHash('sha256');
  for (const file of [join('local', 'bootstrap.sql'), ...(await listMigrations(dir)).map((name) => join('migrations', name)), 'seed.sql']) {
    hash.update(file);
    hash.update(existsSync(join(dir, file)) ? await readFile(join(dir, file)) : '');
  }
  return hash.digest('hex').slice(0, 16);
}
