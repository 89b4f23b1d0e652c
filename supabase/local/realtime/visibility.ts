/**
 * What a subscriber may learn of a change: whether its filter and the row level security of its
 * role let the row through, and which columns its role may select. The rules are Supabase
 * Realtime's (walrus): inserts and updates are selected by primary key as the subscriber; deletes
 * skip row level security and then carry the primary key only.
 */
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { withClaims, type DatabaseRole, type JwtClaims } from '../database';
import type { Claims } from '../jwt';
import { quoteIdent } from '../shared';
import type { ChangeRow, Filter, FilterOp } from './subscriptions';

interface ColumnInfo {
  name: string;
  typname: string;
  sqlType: string;
  isPk: boolean;
}

export interface TableInfo {
  oid: number;
  schema: string;
  name: string;
  rls: boolean;
  columns: ColumnInfo[];
}

const sqlOps: Record<Exclude<FilterOp, 'in'>, string> = { eq: '=', neq: '<>', lt: '<', lte: '<=', gt: '>', gte: '>=' };

export async function tableInfo(db: PGlite, schema: string, table: string): Promise<TableInfo | null> {
  const { rows } = await db.query<{
    oid: number;
    rls: boolean;
    attname: string;
    typname: string;
    sql_type: string;
    is_pk: boolean;
  }>(
    `select c.oid, c.relrowsecurity as rls, a.attname, t.typname,
            pg_catalog.format_type(a.atttypid, a.atttypmod) as sql_type,
            coalesce(a.attnum = any (i.indkey), false) as is_pk
       from pg_catalog.pg_class c
       join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
       join pg_catalog.pg_type t on t.oid = a.atttypid
       left join pg_catalog.pg_index i on i.indrelid = c.oid and i.indisprimary
      where n.nspname = $1 and c.relname = $2
      order by a.attnum`,
    [schema, table],
  );
  const first = rows[0];
  if (!first) return null;
  return {
    oid: first.oid,
    schema,
    name: table,
    rls: first.rls,
    columns: rows.map((row) => ({ name: row.attname, typname: row.typname, sqlType: row.sql_type, isPk: row.is_pk })),
  };
}

function qualified(table: TableInfo): string {
  return `${quoteIdent(table.schema)}.${quoteIdent(table.name)}`;
}

/** Whether the change's record passes a subscription's filter, compared with the column's type. */
export async function passesFilter(
  db: PGlite,
  filter: Filter,
  table: TableInfo,
  record: Record<string, unknown> | null,
): Promise<boolean> {
  const column = table.columns.find((candidate) => candidate.name === filter.column);
  if (!column || !record) return false;
  const value = `r.${quoteIdent(column.name)}`;
  const condition =
    filter.op === 'in'
      ? `${value} = any (array(select cast(v as ${column.sqlType}) from unnest($2::text[]) as v))`
      : `${value} ${sqlOps[filter.op]} cast($2::text as ${column.sqlType})`;
  try {
    const { rows } = await db.query<{ passes: boolean | null }>(
      `select (${condition}) as passes from jsonb_populate_record(null::${qualified(table)}, $1::jsonb) as r`,
      [JSON.stringify(record), filter.op === 'in' ? filter.values : filter.values[0] ?? ''],
    );
    return rows[0]?.passes === true;
  } catch {
    return false; // a filter value that does not cast to the column's type matches nothing
  }
}

/** Whether a subscriber with this role and these claims may see the change at all. */
export async function visibleTo(
  db: PGlite,
  role: DatabaseRole,
  claims: Claims,
  change: ChangeRow,
  table: TableInfo,
): Promise<boolean> {
  const pk = table.columns.filter((column) => column.isPk);
  if (pk.length === 0) return false;
  const { rows: privileges } = await db.query<{ pk_selectable: boolean; bypass: boolean }>(
    `select coalesce(bool_and(pg_catalog.has_column_privilege($1::name, $2::oid, col, 'SELECT')), false) as pk_selectable,
            (select rolbypassrls from pg_catalog.pg_roles where rolname = $1) as bypass
       from unnest($3::text[]) as col`,
    [role, table.oid, pk.map((column) => column.name)],
  );
  const privilege = privileges[0];
  if (!privilege?.pk_selectable) return false;
  if (privilege.bypass || !table.rls || change.type === 'DELETE') return true;

  // withClaims only serialises the claims into request.jwt.claims, whatever their value types.
  const run = <T>(fn: (tx: Transaction) => Promise<T>) => withClaims(db, claims as JwtClaims, role, fn);
  try {
    const match = pk.map((column) => `t.${quoteIdent(column.name)} = r.${quoteIdent(column.name)}`).join(' and ');
    const { rows } = await run((tx) =>
      tx.query<{ visible: boolean }>(
        `select exists (
           select 1 from ${qualified(table)} as t, jsonb_populate_record(null::${qualified(table)}, $1::jsonb) as r
            where ${match}
         ) as visible`,
        [JSON.stringify(change.record ?? {})],
      ),
    );
    return rows[0]?.visible === true;
  } catch {
    return false; // a policy that fails for this subscriber hides the row, as an error would
  }
}

export async function selectableColumns(db: PGlite, table: TableInfo, role: DatabaseRole): Promise<Set<string>> {
  const { rows } = await db.query<{ attname: string }>(
    `select attname from pg_catalog.pg_attribute
      where attrelid = $1 and attnum > 0 and not attisdropped
        and pg_catalog.has_column_privilege($2::name, attrelid, attname, 'SELECT')`,
    [table.oid, role],
  );
  return new Set(rows.map((row) => row.attname));
}

function pick(record: Record<string, unknown> | null, keep: (name: string) => boolean): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(record ?? {})) if (keep(name)) picked[name] = value;
  return picked;
}

/** The `data` of a postgres_changes push, limited to the columns the subscriber may select. */
export function changePayload(change: ChangeRow, table: TableInfo, selectable: Set<string>): Record<string, unknown> {
  const pkNames = new Set(table.columns.filter((column) => column.isPk).map((column) => column.name));
  const data: Record<string, unknown> = {
    schema: change.schema_name,
    table: change.table_name,
    commit_timestamp: change.commit_timestamp,
    type: change.type,
    columns: table.columns
      .filter((column) => selectable.has(column.name))
      .map((column) => ({ name: column.name, type: column.typname })),
  };
  if (change.type !== 'DELETE') data.record = pick(change.record, (name) => selectable.has(name));
  if (change.type === 'UPDATE') data.old_record = pick(change.old_record, (name) => selectable.has(name));
  if (change.type === 'DELETE') {
    // With row level security Supabase cannot secure old values, so a delete carries the key only.
    data.old_record = pick(change.old_record, (name) => selectable.has(name) && (!table.rls || pkNames.has(name)));
  }
  data.errors = null;
  return data;
}
