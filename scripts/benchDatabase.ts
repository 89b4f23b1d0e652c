/**
 * The database a benchmark measures, on either engine: PGlite in this process (what the local stack
 * and the tests run) or a real PostgreSQL 15 server (what Supabase runs; scripts/postgresCluster.ts).
 * Both are set up from the same bootstrap and migrations; the benchmark sees one small interface.
 */
import { readFileSync } from 'node:fs';

import type { PGlite } from '@electric-sql/pglite';
import type { QueryResultRow } from 'pg';

import { openDatabase, withClaims } from '../supabase/local/database';
import { startPostgresCluster } from './postgresCluster';

export const ENGINES = ['pglite', 'postgres'] as const;
export type Engine = (typeof ENGINES)[number];

/** A result row as the driver gives it; read its columns with text() and count(). */
export type Row = Readonly<Record<string, unknown>>;

export interface BenchQueries {
  query(sql: string, params?: unknown[]): Promise<{ rows: Row[] }>;
}

/** A text column of the first row; throws when there is none. */
export function text(result: { rows: Row[] }, column: string): string {
  const value = result.rows[0]?.[column];
  if (typeof value !== 'string') throw new Error(`expected text in column ${column}`);
  return value;
}

/** An integer column of the first row (PostgreSQL's driver sends bigint as text); 0 when there is no row. */
export function count(result: { rows: Row[] }, column: string): number {
  const value = result.rows[0]?.[column];
  return typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : 0;
}

export interface BenchDatabase extends BenchQueries {
  /** What runs the queries, with versions. */
  readonly description: string;
  /** Runs fn in one transaction as the service role, as the coach function's request runs. */
  asService<T>(fn: (tx: BenchQueries) => Promise<T>): Promise<T>;
  /** CPU time spent so far by whatever runs the service role's queries, in milliseconds. */
  cpuMilliseconds(): number;
  /** Notices the server sent with the service role's queries (text, in order). */
  readonly notices: string[];
  close(): Promise<void>;
}

const SERVICE_CLAIMS = { role: 'service_role' };

async function pgliteDatabase(): Promise<BenchDatabase> {
  const db: PGlite = await openDatabase();
  const notices: string[] = [];
  const onNotice = (notice: { message?: string }) => notices.push(notice.message ?? '');
  const version = await db.query<{ version: string }>(`select current_setting('server_version') as version`);
  return {
    description: `PGlite (PostgreSQL ${version.rows[0]?.version ?? '?'} in WebAssembly, in this process)`,
    query: async (sql: string, params: unknown[] = []) => db.query<Row>(sql, params),
    asService: async <T>(fn: (tx: BenchQueries) => Promise<T>) =>
      withClaims(db, SERVICE_CLAIMS, 'service_role', async (tx) =>
        fn({ query: async (sql: string, params: unknown[] = []) => tx.query<Row>(sql, params, { onNotice }) }),
      ),
    // PGlite runs in this process: its work is this process's CPU time.
    cpuMilliseconds: () => {
      const usage = process.cpuUsage();
      return (usage.user + usage.system) / 1000;
    },
    notices,
    close: () => db.close(),
  };
}

async function postgresDatabase(): Promise<BenchDatabase> {
  const cluster = await startPostgresCluster();
  const notices: string[] = [];
  cluster.api.on('notice', (notice) => notices.push(notice.message ?? ''));
  const backend = await cluster.api.query<{ pid: number }>('select pg_backend_pid() as pid');
  const pid = backend.rows[0]?.pid;
  if (pid === undefined) throw new Error('no backend pid');
  return {
    description: cluster.versions,
    query: async (sql: string, params: unknown[] = []) => cluster.owner.query<QueryResultRow>(sql, params),
    asService: async <T>(fn: (tx: BenchQueries) => Promise<T>) => {
      // As PostgREST runs a request: the JWT's role and claims, local to one transaction.
      await cluster.api.query('begin');
      try {
        await cluster.api.query(`select set_config('role', 'service_role', true), set_config('request.jwt.claims', $1, true)`, [
          JSON.stringify(SERVICE_CLAIMS),
        ]);
        const result = await fn({
          query: async (sql: string, params: unknown[] = []) => cluster.api.query<QueryResultRow>(sql, params),
        });
        await cluster.api.query('commit');
        return result;
      } catch (error) {
        await cluster.api.query('rollback');
        throw error;
      }
    },
    // The server's backend process does the work: its scheduler time (nanoseconds) on a CPU.
    cpuMilliseconds: () => Number(readFileSync(`/proc/${String(pid)}/schedstat`, 'utf8').split(' ')[0]) / 1e6,
    notices,
    close: () => cluster.stop(),
  };
}

export async function openBenchDatabase(engine: Engine): Promise<BenchDatabase> {
  return engine === 'postgres' ? postgresDatabase() : pgliteDatabase();
}
