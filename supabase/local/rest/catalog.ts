/** The catalog as PostgREST's schema cache sees it: tables and functions of `public`. */
import type { Transaction } from '@electric-sql/pglite';
import { PgrstError } from './errors';

export const SCHEMA = 'public';

/**
 * Like PostgREST's schema cache: what the catalog says about a table or function is kept per
 * database once read (the schema only changes through migrations, applied before the stack
 * serves). Misses are not cached, so a table that appears later is still found.
 */
export interface SchemaCache {
  relations: Map<string, Relation>;
  routines: Map<string, Routine[]>;
}

const schemaCaches = new WeakMap<object, SchemaCache>();

export function schemaCacheOf(db: object): SchemaCache {
  let cache = schemaCaches.get(db);
  if (!cache) {
    cache = { relations: new Map(), routines: new Map() };
    schemaCaches.set(db, cache);
  }
  return cache;
}

export async function cachedRelation(cache: SchemaCache, tx: Transaction, name: string): Promise<Relation> {
  const known = cache.relations.get(name);
  if (known) return known;
  const relation = await loadRelation(tx, name);
  cache.relations.set(name, relation);
  return relation;
}

export async function cachedRoutines(cache: SchemaCache, tx: Transaction, name: string): Promise<Routine[]> {
  const known = cache.routines.get(name);
  if (known) return known;
  const routines = await loadRoutines(tx, name);
  if (routines.length > 0) cache.routines.set(name, routines);
  return routines;
}

export interface Column {
  name: string;
  type: string;
}

export interface Relation {
  name: string;
  kind: string;
  columns: Map<string, Column>;
  primaryKey: string[];
}

async function loadRelation(tx: Transaction, name: string): Promise<Relation> {
  const result = await tx.query<{ relkind: string; attname: string | null; type: string | null; pk: string[] | null }>(
    `select c.relkind::text as relkind, a.attname::text as attname, pg_catalog.format_type(a.atttypid, a.atttypmod) as type,
            array(select ia.attname::text from pg_catalog.pg_index i
                    join pg_catalog.pg_attribute ia on ia.attrelid = i.indrelid and ia.attnum = any (i.indkey)
                   where i.indrelid = c.oid and i.indisprimary order by ia.attnum) as pk
       from pg_catalog.pg_class c
       join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       left join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where n.nspname = $1 and c.relname = $2 and c.relkind in ('r', 'v', 'm', 'f', 'p')
      order by a.attnum`,
    [SCHEMA, name],
  );
  const first = result.rows[0];
  if (!first) throw tableNotFound(name);
  const columns = new Map<string, Column>();
  for (const row of result.rows) {
    if (row.attname !== null && row.type !== null) columns.set(row.attname, { name: row.attname, type: row.type });
  }
  return { name, kind: first.relkind, columns, primaryKey: first.pk ?? [] };
}

function tableNotFound(name: string): PgrstError {
  // PostgREST adds a "Perhaps you meant" hint; the local stack names the table only.
  return new PgrstError(404, 'PGRST205', `Could not find the table '${SCHEMA}.${name}' in the schema cache`);
}



export interface Routine {
  name: string;
  /** Input parameters in order, with their types; `required` when they have no default. */
  inputs: { name: string; type: string; required: boolean }[];
  /** Result columns when the function returns rows (table, setof composite, composite). */
  outputs: Column[] | null;
  returnsSet: boolean;
  returnsVoid: boolean;
  volatile: boolean;
}

interface RoutineRow {
  proname: string;
  argnames: string[] | null;
  argmodes: string[] | null;
  argtypes: string[];
  pronargs: number;
  pronargdefaults: number;
  proretset: boolean;
  provolatile: string;
  returns_void: boolean;
  ret_columns: { name: string; type: string }[] | null;
}

async function loadRoutines(tx: Transaction, name: string): Promise<Routine[]> {
  const result = await tx.query<RoutineRow>(
    `select p.proname::text as proname, p.proargnames::text[] as argnames, p.proargmodes::text[] as argmodes,
            array(select pg_catalog.format_type(t.oid, null)
                    from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality as a(oid, n)
                    join pg_catalog.pg_type t on t.oid = a.oid
                   order by a.n) as argtypes,
            p.pronargs::int as pronargs, p.pronargdefaults::int as pronargdefaults, p.proretset, p.provolatile::text as provolatile,
            p.prorettype = 'pg_catalog.void'::pg_catalog.regtype as returns_void,
            case when rt.typrelid <> 0 then
              (select pg_catalog.json_agg(pg_catalog.json_build_object('name', ra.attname, 'type', pg_catalog.format_type(ra.atttypid, ra.atttypmod)) order by ra.attnum)
                 from pg_catalog.pg_attribute ra where ra.attrelid = rt.typrelid and ra.attnum > 0 and not ra.attisdropped)
            end as ret_columns
       from pg_catalog.pg_proc p
       join pg_catalog.pg_namespace n on n.oid = p.pronamespace
       join pg_catalog.pg_type rt on rt.oid = p.prorettype
      where n.nspname = $1 and p.proname = $2 and p.prokind = 'f'`,
    [SCHEMA, name],
  );
  return result.rows.map((row) => {
    const modes = row.argmodes ?? row.argtypes.map(() => 'i');
    const inputs: Routine['inputs'] = [];
    const tableColumns: Column[] = [];
    row.argtypes.forEach((type, index) => {
      const mode = modes[index] ?? 'i';
      const argName = row.argnames?.[index] ?? '';
      if (mode === 'i' || mode === 'b' || mode === 'v') inputs.push({ name: argName, type, required: true });
      if (mode === 't' || mode === 'o' || mode === 'b') tableColumns.push({ name: argName, type });
    });
    const optionalFrom = row.pronargs - row.pronargdefaults;
    inputs.forEach((input, index) => {
      input.required = index < optionalFrom;
    });
    let outputs: Column[] | null = null;
    if (tableColumns.length > 0 && (row.proretset || tableColumns.length > 1)) outputs = tableColumns;
    else if (row.ret_columns) outputs = row.ret_columns;
    return {
      name: row.proname,
      inputs,
      outputs,
      returnsSet: row.proretset,
      returnsVoid: row.returns_void,
      volatile: row.provolatile === 'v',
    };
  });
}
