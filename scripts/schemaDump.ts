/**
 * supabase/schema.sql: the schema as every migration leaves it, in one file to read (as Rails keeps
 * db/schema.rb). Written by `npm run schema:dump`; tests/db/schemaFile.test.ts fails while it is
 * stale. The migrations stay the only source: nothing applies this file.
 *
 * pg_dump (the WASM build of @electric-sql/pglite-tools) dumps the local engine twice, once with
 * bootstrap.sql alone (what a Supabase database already has: roles, auth, storage, realtime) and
 * once with the migrations on top; the file keeps the dump's entries that the migrations added or
 * changed, in pg_dump's order, so it shows the project's objects wherever they live (a trigger on
 * auth.users, policies on storage.objects) and nothing of Supabase's own.
 */
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { PGlite } from '@electric-sql/pglite';
import { pgDump } from '@electric-sql/pglite-tools/pg_dump';

import { defaultTemplateCacheDir, openDatabase } from '../supabase/local/database';

export const schemaFilePath = fileURLToPath(new URL('../supabase/schema.sql', import.meta.url));
const supabaseDir = fileURLToPath(new URL('../supabase/', import.meta.url));

/** The command that writes the file again; the stale-file message names it. */
export const schemaDumpCommand = 'npm run schema:dump';

const header = `-- The database schema after every migration in supabase/migrations/, generated: do not edit.
-- Written by \`${schemaDumpCommand}\` (pg_dump of the local engine, keeping only what the migrations
-- add to a Supabase database); tests/db/schemaFile.test.ts fails while it is stale. The migrations
-- are the source: a change is a new migration, then this file is written again.
`;

/** One entry of a plain-text pg_dump: its `-- Name: …; Type: …; Schema: …` line and its statements. */
interface DumpEntry {
  title: string;
  body: string;
}

function entriesOf(dump: string): DumpEntry[] {
  const entries: DumpEntry[] = [];
  // Every entry starts with a three-line comment block naming it; the text before the first one
  // is pg_dump's preamble (version lines and session settings).
  for (const part of dump.split(/\n--\n(?=-- (?:Data for )?Name: )/).slice(1)) {
    const [titleLine = '', ...rest] = part.split('\n');
    const body = rest
      .join('\n')
      .replace(/^--\n/, '')
      // Session settings pg_dump puts between entries, and its closing line.
      .replace(/^SET \w+ = .*;$/gm, '')
      .replace(/^-- PostgreSQL database dump complete$/m, '')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
    entries.push({ title: titleLine.replace(/^-- /, '').replace(/; Owner: -$/, ''), body });
  }
  return entries;
}

/**
 * What the migrations add to the bootstrap, given both dumps: entries absent from the bootstrap's
 * dump or different there. The local stack's own machinery (the schema `supabase_local` and the
 * triggers through which it feeds realtime) is not part of the schema Supabase would hold.
 */
export function migrationSchema(migrated: string, bootstrap: string): string {
  const before = new Set(entriesOf(bootstrap).map((entry) => `${entry.title}\n${entry.body}`));
  const kept = entriesOf(migrated).filter(
    (entry) =>
      !before.has(`${entry.title}\n${entry.body}`) &&
      !/; Schema: supabase_local$/.test(entry.title) &&
      !/EXECUTE FUNCTION supabase_local\./.test(entry.body),
  );
  return `${header}${kept.map((entry) => `\n-- ${entry.title}\n${entry.body}\n`).join('')}`;
}

async function schemaOnlyDump(db: PGlite): Promise<string> {
  const file = await pgDump({ pg: db, args: ['--schema-only', '--no-owner'] });
  return file.text();
}

async function dumpOf(open: () => Promise<PGlite>): Promise<string> {
  const db = await open();
  try {
    return await schemaOnlyDump(db);
  } finally {
    await db.close();
  }
}

/**
 * The text supabase/schema.sql should hold for the SQL files in `dir` (default: this repo's
 * supabase/). Both databases come from the template cache the database tests use (keyed by the
 * files' content), so a run after any test run costs about two seconds.
 */
export async function currentSchema(dir: string = supabaseDir): Promise<string> {
  const cache = defaultTemplateCacheDir;
  const bootstrapOnly = await mkdtemp(join(tmpdir(), 'schema-bootstrap-'));
  try {
    await mkdir(join(bootstrapOnly, 'local'));
    await mkdir(join(bootstrapOnly, 'migrations'));
    await copyFile(join(dir, 'local', 'bootstrap.sql'), join(bootstrapOnly, 'local', 'bootstrap.sql'));
    // The bootstrap's copy in a folder of its own: a cache folder keeps one template.
    const bootstrap = await dumpOf(() => openDatabase({ supabaseDir: bootstrapOnly, seed: false, templateCacheDir: join(cache, 'bootstrap-only') }));
    const migrated = await dumpOf(() => openDatabase({ supabaseDir: dir, templateCacheDir: cache }));
    return migrationSchema(migrated, bootstrap);
  } finally {
    await rm(bootstrapOnly, { recursive: true, force: true });
  }
}

/** Why the test fails when supabase/schema.sql is stale: the command to run and the first difference. */
export function staleSchemaMessage(onDisk: string | null, expected: string): string {
  const advice = `Run \`${schemaDumpCommand}\` and commit supabase/schema.sql.`;
  if (onDisk === null) return `supabase/schema.sql is missing. ${advice}`;
  const have = onDisk.split('\n');
  const want = expected.split('\n');
  let line = 0;
  while (line < Math.max(have.length, want.length) && have[line] === want[line]) line += 1;
  const shown = (text: string | undefined) => (text === undefined ? '(end of file)' : text);
  return (
    `supabase/schema.sql is stale: it is not the schema that supabase/migrations/ makes. ${advice}\n` +
    `First difference at line ${String(line + 1)}:\n  in the file:      ${shown(have[line])}\n  from migrations:  ${shown(want[line])}`
  );
}
