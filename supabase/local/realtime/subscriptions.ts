/**
 * The `postgres_changes` entries of a join: checked against the `supabase_realtime` publication
 * and the table's columns, as Supabase Realtime does, and matched against changes later.
 */
import type { PGlite } from '@electric-sql/pglite';
import { isRecord } from '../shared';

export type ChangeType = 'INSERT' | 'UPDATE' | 'DELETE';
export type FilterOp = 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'in';

export interface Filter {
  column: string;
  op: FilterOp;
  values: string[];
}

export interface PgSubscription {
  id: number;
  event: '*' | ChangeType;
  schema: string;
  table: string;
  filter: Filter | null;
}

/** A change of a published table, as the bootstrap's trigger records it. */
export interface ChangeRow {
  id: number;
  schema_name: string;
  table_name: string;
  type: ChangeType;
  record: Record<string, unknown> | null;
  old_record: Record<string, unknown> | null;
  commit_timestamp: string;
}

const changeTypes: ReadonlySet<string> = new Set<ChangeType>(['INSERT', 'UPDATE', 'DELETE']);
const filterOps: ReadonlySet<string> = new Set<FilterOp>(['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in']);

/** A stable number per subscription parameters, like Realtime's :erlang.phash2 (below 2^27). */
function subscriptionId(params: Record<string, unknown>): number {
  const canonical = JSON.stringify(Object.keys(params).sort().map((key) => [key, params[key]]));
  let hash = 0x811c9dc5;
  for (let index = 0; index < canonical.length; index += 1) {
    hash ^= canonical.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 5;
}

function parseFilter(raw: string): Filter | null {
  const match = /^([^=]+)=([a-z]+)\.(.*)$/s.exec(raw);
  if (!match) return null;
  const [, column = '', op = '', value = ''] = match;
  if (!filterOps.has(op)) return null;
  if (op === 'in') {
    const list = /^\((.*)\)$/s.exec(value);
    if (!list) return null;
    const values = (list[1] ?? '').split(',').map((item) => item.trim().replace(/^"(.*)"$/s, '$1'));
    return { column, op: 'in', values };
  }
  return { column, op: op as FilterOp, values: [value] };
}

function describeParams(entry: Record<string, unknown>): string {
  const show = (value: unknown) => (value === undefined ? 'nil' : typeof value === 'string' ? value : JSON.stringify(value));
  return `event: ${show(entry.event)}, schema: ${show(entry.schema)}, table: ${show(entry.table)}, filters: ${
    typeof entry.filter === 'string' ? `[${entry.filter}]` : '[]'
  }`;
}

export function matchesChange(subscription: PgSubscription, change: ChangeRow): boolean {
  return (
    (subscription.event === '*' || subscription.event === change.type) &&
    (subscription.schema === '*' || subscription.schema === change.schema_name) &&
    (subscription.table === '*' || subscription.table === change.table_name)
  );
}

export type Resolved =
  | { ok: true; subscriptions: PgSubscription[]; response: Record<string, unknown>[] }
  | { ok: false; reason: string };

export async function resolveSubscriptions(db: PGlite, entries: unknown[]): Promise<Resolved> {
  const subscriptions: PgSubscription[] = [];
  const response: Record<string, unknown>[] = [];
  for (const entry of entries) {
    if (!isRecord(entry)) return { ok: false, reason: 'InvalidJoinPayload: postgres_changes entries must be objects' };
    const failed = {
      ok: false as const,
      reason:
        'Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given ' +
        `connect parameters: [${describeParams(entry)}]`,
    };
    const event = typeof entry.event === 'string' ? entry.event.toUpperCase() : '';
    if (event !== '*' && !changeTypes.has(event)) return failed;
    if (typeof entry.schema !== 'string' || entry.schema === '') return failed;
    const table = entry.table === undefined || entry.table === null ? '*' : entry.table;
    if (typeof table !== 'string' || table === '') return failed;

    const { rows: tables } = await db.query<{ oid: number }>(
      `select format('%I.%I', schemaname, tablename)::regclass::oid as oid
         from pg_catalog.pg_publication_tables
        where pubname = 'supabase_realtime'
          and ($1 = '*' or schemaname = $1) and ($2 = '*' or tablename = $2)`,
      [entry.schema, table],
    );
    if (tables.length === 0) return failed;

    let filter: Filter | null = null;
    if (entry.filter !== undefined && entry.filter !== null) {
      filter = typeof entry.filter === 'string' ? parseFilter(entry.filter) : null;
      if (!filter) {
        return { ok: false, reason: `Error parsing \`filter\` params: ${JSON.stringify(entry.filter)}` };
      }
      for (const { oid } of tables) {
        const { rows } = await db.query(
          'select 1 from pg_catalog.pg_attribute where attrelid = $1 and attname = $2 and attnum > 0 and not attisdropped',
          [oid, filter.column],
        );
        if (rows.length === 0) return failed;
      }
    }
    const id = subscriptionId(entry);
    subscriptions.push({ id, event: event as PgSubscription['event'], schema: entry.schema, table, filter });
    response.push({ ...entry, id });
  }
  return { ok: true, subscriptions, response };
}
