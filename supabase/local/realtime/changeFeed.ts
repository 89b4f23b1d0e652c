/**
 * The change feed. PGlite has no logical replication: the bootstrap's trigger records each change
 * of a published table in supabase_local.changes and notifies supabase_local_changes. The feed
 * reads new changes in order and sends each to the channels whose subscriptions match and whose
 * role may see it; read changes are deleted once they are older than the retention.
 */
import type { PGlite } from '@electric-sql/pglite';
import type { DatabaseRole } from '../database';
import { send, type Channel, type Connection } from './connection';
import { matchesChange, type ChangeRow, type PgSubscription } from './subscriptions';
import { changePayload, passesFilter, selectableColumns, tableInfo, visibleTo } from './visibility';

export interface ChangeFeed {
  close(): Promise<void>;
}

async function dispatch(db: PGlite, connections: ReadonlySet<Connection>, change: ChangeRow): Promise<void> {
  const targets: { conn: Connection; channel: Channel; subscriptions: PgSubscription[] }[] = [];
  for (const conn of connections) {
    for (const channel of conn.channels.values()) {
      const subscriptions = channel.subscriptions.filter((subscription) => matchesChange(subscription, change));
      if (subscriptions.length > 0) targets.push({ conn, channel, subscriptions });
    }
  }
  if (targets.length === 0) return;
  const table = await tableInfo(db, change.schema_name, change.table_name);
  if (!table) return;

  const visibility = new Map<string, Promise<boolean>>();
  const columnsByRole = new Map<DatabaseRole, Promise<Set<string>>>();
  const filterRecord = change.type === 'DELETE' ? change.old_record : change.record;

  for (const { conn, channel, subscriptions } of targets) {
    const ids: number[] = [];
    for (const subscription of subscriptions) {
      if (!subscription.filter || (await passesFilter(db, subscription.filter, table, filterRecord))) {
        if (!ids.includes(subscription.id)) ids.push(subscription.id);
      }
    }
    if (ids.length === 0) continue;
    const key = `${channel.role}\u0000${JSON.stringify(channel.claims)}`;
    let visible = visibility.get(key);
    if (!visible) {
      visible = visibleTo(db, channel.role, channel.claims, change, table);
      visibility.set(key, visible);
    }
    if (!(await visible)) continue;

    let columns = columnsByRole.get(channel.role);
    if (!columns) {
      columns = selectableColumns(db, table, channel.role);
      columnsByRole.set(channel.role, columns);
    }
    const data = changePayload(change, table, await columns);
    send(conn, { joinRef: null, ref: null, topic: channel.topic, event: 'postgres_changes', payload: { ids, data } });
  }
}

export async function startChangeFeed(
  db: PGlite,
  connections: ReadonlySet<Connection>,
  retentionMs: number,
  report: (error: unknown) => void,
): Promise<ChangeFeed> {
  const state = { closed: false };
  const start = await db.query<{ last: number | null }>('select max(id) as last from supabase_local.changes');
  let lastId = start.rows[0]?.last ?? 0;
  let draining: Promise<void> | null = null;
  let drainAgain = false;

  async function drain(): Promise<void> {
    while (!state.closed) {
      const { rows } = await db.query<ChangeRow>(
        `select id, schema_name, table_name, type, record, old_record,
                to_char(committed_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as commit_timestamp
           from supabase_local.changes where id > $1 order by id limit 100`,
        [lastId],
      );
      if (rows.length === 0) return;
      for (const row of rows) {
        lastId = row.id;
        await dispatch(db, connections, row).catch(report);
      }
    }
  }

  function scheduleDrain(): void {
    if (state.closed) return;
    if (draining) {
      drainAgain = true;
      return;
    }
    // A notification that arrives while a pass runs asks for one more pass.
    const anotherPass = () => drainAgain && !state.closed;
    draining = (async () => {
      for (;;) {
        drainAgain = false;
        await drain();
        if (!anotherPass()) break;
      }
    })()
      .catch(report)
      .finally(() => {
        draining = null;
      });
  }

  async function cleanup(): Promise<void> {
    // Only rows this server has read and that are old enough for any other reader to have read.
    await db.query(
      `delete from supabase_local.changes where id <= $1 and committed_at < now() - make_interval(secs => $2)`,
      [lastId, retentionMs / 1000],
    );
  }

  const unlisten = await db.listen('supabase_local_changes', scheduleDrain);
  let cleaning: Promise<void> | null = null;
  const cleanupTimer = setInterval(() => {
    cleaning ??= cleanup()
      .catch(report)
      .finally(() => {
        cleaning = null;
      });
  }, Math.max(1_000, retentionMs / 2));
  cleanupTimer.unref();

  return {
    async close() {
      state.closed = true;
      clearInterval(cleanupTimer);
      await draining;
      await cleaning;
      await unlisten();
    },
  };
}
