import type { PGlite, Transaction } from '@electric-sql/pglite';
import { afterAll, beforeAll } from 'vitest';

import { type DatabaseRole, defaultTemplateCacheDir, type JwtClaims, openDatabase, withClaims } from '../../supabase/local/database';

export const ADMIN_ID = '00000000-0000-4000-8000-00000000a001';
export const MEMBER_ID = '00000000-0000-4000-8000-00000000b001';

export interface Actor {
  name: 'anon' | 'member' | 'admin' | 'service_role';
  role: DatabaseRole;
  claims: JwtClaims | null;
}

/** The four callers the rules distinguish, with claims shaped like Supabase's JWTs. */
export const actors = {
  anon: { name: 'anon', role: 'anon', claims: { role: 'anon', iss: 'supabase-demo' } },
  member: {
    name: 'member',
    role: 'authenticated',
    claims: {
      role: 'authenticated',
      aud: 'authenticated',
      sub: MEMBER_ID,
      email: 'member@example.com',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: {},
    },
  },
  admin: {
    name: 'admin',
    role: 'authenticated',
    claims: {
      role: 'authenticated',
      aud: 'authenticated',
      sub: ADMIN_ID,
      email: 'admin@example.com',
      app_metadata: { provider: 'email', providers: ['email'], role: 'admin' },
      user_metadata: {},
    },
  },
  service: { name: 'service_role', role: 'service_role', claims: { role: 'service_role', iss: 'supabase-demo' } },
} as const satisfies Record<string, Actor>;

export const allActors: readonly Actor[] = [actors.anon, actors.member, actors.admin, actors.service];

/**
 * A fresh in-memory database with bootstrap, migrations and seed applied. Loaded from a cached copy
 * of exactly these SQL files when one exists (migrations.test.ts covers setting up from scratch).
 */
export async function freshDatabase(): Promise<PGlite> {
  return openDatabase({ templateCacheDir: defaultTemplateCacheDir });
}

/** Creates the admin and the signed-in non-admin as the auth server would. */
export async function createAccounts(db: PGlite): Promise<void> {
  await db.query(
    `insert into auth.users (id, aud, role, email, encrypted_password, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
     values ($1, 'authenticated', 'authenticated', 'admin@example.com', 'x', '{"provider":"email","role":"admin"}', '{}', now(), now()),
            ($2, 'authenticated', 'authenticated', 'member@example.com', 'x', '{"provider":"email"}', '{}', now(), now())`,
    [ADMIN_ID, MEMBER_ID],
  );
}

/** The database of a test file, available from its beforeAll hooks and tests on. */
export interface FileDatabase {
  readonly db: PGlite;
}

/**
 * A fresh database with the admin and the member account for the calling test file: opened before
 * its first test (before the file's own beforeAll hooks that come after this call), closed after
 * its last.
 */
export function useDatabase(): FileDatabase {
  let opened: PGlite | null = null;
  beforeAll(async () => {
    opened = await freshDatabase();
    await createAccounts(opened);
  });
  afterAll(async () => {
    await opened?.close();
  });
  return {
    get db(): PGlite {
      if (opened === null) throw new Error('useDatabase(): the database opens in beforeAll; use it from a hook or a test');
      return opened;
    },
  };
}

/** What a statement did: the rows it returned and the rows it changed, or the error it raised. */
export type Outcome =
  | { ok: true; rows: Record<string, unknown>[]; affected: number }
  | { ok: false; code: string; message: string };

class Rollback extends Error {
  constructor(readonly outcome: Outcome) {
    super('rollback');
  }
}

function errorCode(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return 'unknown';
}

/**
 * Runs one statement as the actor and always rolls back, so every cell of a permission matrix
 * starts from the same data.
 */
export async function attempt(db: PGlite, actor: Actor, sql: string | readonly string[], params: unknown[] = []): Promise<Outcome> {
  // Several statements: the earlier ones prepare (without parameters), the last one is the attempt.
  const statements = typeof sql === 'string' ? [sql] : sql;
  try {
    await withClaims(db, actor.claims, actor.role, async (tx: Transaction) => {
      let outcome: Outcome;
      try {
        for (const statement of statements.slice(0, -1)) await tx.query(statement);
        const result = await tx.query<Record<string, unknown>>(statements.at(-1) ?? '', params);
        outcome = { ok: true, rows: result.rows, affected: result.affectedRows ?? 0 };
        // Deferred constraints fire at commit; check them here so the outcome includes them.
        await tx.query('set constraints all immediate');
      } catch (error) {
        outcome = { ok: false, code: errorCode(error), message: error instanceof Error ? error.message : String(error) };
      }
      throw new Rollback(outcome);
    });
  } catch (error) {
    if (error instanceof Rollback) return error.outcome;
    throw error;
  }
  throw new Error('attempt: the transaction was expected to roll back');
}

/** Runs a statement as the actor and keeps its effect. */
export async function run<T extends Record<string, unknown>>(
  db: PGlite,
  actor: Actor,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  return withClaims(db, actor.claims, actor.role, async (tx) => (await tx.query<T>(sql, params)).rows);
}

/** Inserts a document (as the database owner) and returns its id. */
export async function insertDocument(
  db: PGlite,
  fields: { title: string; status?: 'PROCESSING' | 'COMPLETED' | 'ERROR'; error?: string | null },
): Promise<string> {
  const status = fields.status ?? 'PROCESSING';
  const result = await db.query<{ id: string }>(
    `insert into public.documents (title, url, status, error, file_size, storage_path)
     values ($1, 'https://example.com/storage/v1/object/public/document-uploads/' || $1, $2::public.document_status, $3, 1024,
             gen_random_uuid() || '-' || $1)
     returning id`,
    [fields.title, status, status === 'ERROR' ? (fields.error ?? 'Fehler beim Lesen der Datei.') : null],
  );
  const id = result.rows[0]?.id;
  if (id === undefined) throw new Error('document insert returned no id');
  return id;
}
