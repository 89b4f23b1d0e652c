/**
 * Realtime (/realtime/v1/websocket): the Phoenix channel protocol as @supabase/realtime-js speaks
 * it (serializer 1.0.0 and the default 2.0.0), with postgres_changes, broadcast and presence on
 * public channels. PGlite has no logical replication: the bootstrap's trigger records each change
 * of a published table in supabase_local.changes and notifies supabase_local_changes; this server
 * reads the change and sends it only to subscribers whose role may select the row, as Supabase
 * Realtime's row level security check does.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Transaction } from '@electric-sql/pglite';
import { WebSocketServer, WebSocket, type RawData } from 'ws';
import { withClaims, type DatabaseRole, type JwtClaims } from './database';
import { verifyJwt, type Claims } from './jwt';
import type { StackContext } from './types';

export interface RealtimeServer {
  close(): Promise<void>;
}

export interface RealtimeOptions {
  /** A socket that sends nothing (not even a heartbeat) for this long is closed. Phoenix: 60 s. */
  heartbeatTimeoutMs?: number;
  /** Processed changes older than this are deleted from supabase_local.changes. */
  changeRetentionMs?: number;
}

type Vsn = '1.0.0' | '2.0.0';
type ChangeType = 'INSERT' | 'UPDATE' | 'DELETE';
type FilterOp = 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'in';

interface Message {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
}

interface Filter {
  column: string;
  op: FilterOp;
  values: string[];
}

interface PgSubscription {
  id: number;
  event: '*' | ChangeType;
  schema: string;
  table: string;
  filter: Filter | null;
}

interface PresenceEntry {
  key: string;
  ref: string;
  meta: Record<string, unknown>;
}

interface Channel {
  topic: string;
  subTopic: string;
  joinRef: string | null;
  token: string;
  claims: Claims;
  role: DatabaseRole;
  subscriptions: PgSubscription[];
  selfBroadcast: boolean;
  ackBroadcast: boolean;
  presenceKey: string;
  presence: PresenceEntry | null;
  expiryTimer: NodeJS.Timeout | null;
}

interface Connection {
  ws: WebSocket;
  vsn: Vsn;
  apiToken: string;
  lastSeen: number;
  channels: Map<string, Channel>;
  queue: Promise<void>;
}

interface ChangeRow {
  id: number;
  schema_name: string;
  table_name: string;
  type: ChangeType;
  record: Record<string, unknown> | null;
  old_record: Record<string, unknown> | null;
  commit_timestamp: string;
}

interface ColumnInfo {
  name: string;
  typname: string;
  sqlType: string;
  isPk: boolean;
}

interface TableInfo {
  oid: number;
  schema: string;
  name: string;
  rls: boolean;
  columns: ColumnInfo[];
}

const apiRoles: ReadonlySet<string> = new Set<DatabaseRole>(['anon', 'authenticated', 'service_role']);
const changeTypes: ReadonlySet<string> = new Set<ChangeType>(['INSERT', 'UPDATE', 'DELETE']);
const filterOps: ReadonlySet<string> = new Set<FilterOp>(['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in']);
const sqlOps: Record<Exclude<FilterOp, 'in'>, string> = { eq: '=', neq: '<>', lt: '<', lte: '<=', gt: '>', gte: '>=' };
const BINARY_USER_BROADCAST_PUSH = 3;
const BINARY_USER_BROADCAST = 4;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

// ---------------------------------------------------------------------------------------------
// Tokens
// ---------------------------------------------------------------------------------------------

type TokenCheck = { ok: true; claims: Claims; role: DatabaseRole } | { ok: false; code: string; message: string };

function decodeExp(token: string): number | null {
  try {
    const payload: unknown = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return isRecord(payload) && typeof payload.exp === 'number' ? payload.exp : null;
  } catch {
    return null;
  }
}

/** Realtime's token rules: a valid signature, not expired, and both `role` and `exp` present. */
function checkToken(token: string, secret: string): TokenCheck {
  const verified = verifyJwt(token, secret);
  if (!verified.ok) {
    if (verified.reason === 'expired') {
      const exp = decodeExp(token) ?? 0;
      const ago = Math.max(0, Math.floor(Date.now() / 1000) - exp);
      return { ok: false, code: 'InvalidJWTToken', message: `Token has expired ${String(ago)} seconds ago` };
    }
    if (verified.reason === 'signature') {
      return { ok: false, code: 'JwtSignatureError', message: 'Failed to validate JWT signature' };
    }
    return { ok: false, code: 'MalformedJWT', message: 'The token provided is not a valid JWT' };
  }
  const { role, exp } = verified.claims;
  if (typeof role !== 'string' || typeof exp !== 'number') {
    return { ok: false, code: 'InvalidJWTToken', message: 'Fields `role` and `exp` are required in JWT' };
  }
  if (!apiRoles.has(role)) {
    return { ok: false, code: 'InvalidJWTToken', message: `Role ${role} is not allowed` };
  }
  return { ok: true, claims: verified.claims, role: role as DatabaseRole };
}

// ---------------------------------------------------------------------------------------------
// Serializers
// ---------------------------------------------------------------------------------------------

function rawToBuffer(data: RawData): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.isBuffer(data) ? data : Buffer.from(data);
}

function decodeText(vsn: Vsn, text: string): Message | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const asRef = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null);
  if (vsn === '2.0.0') {
    if (!Array.isArray(parsed) || parsed.length !== 5) return null;
    const [joinRef, ref, topic, event, payload] = parsed as unknown[];
    if (typeof topic !== 'string' || typeof event !== 'string') return null;
    return { joinRef: asRef(joinRef), ref: asRef(ref), topic, event, payload };
  }
  if (!isRecord(parsed) || typeof parsed.topic !== 'string' || typeof parsed.event !== 'string') return null;
  return {
    joinRef: asRef(parsed.join_ref),
    ref: asRef(parsed.ref),
    topic: parsed.topic,
    event: parsed.event,
    payload: parsed.payload,
  };
}

/** The 2.0.0 serializer's binary frame for a client broadcast (realtime-js `userBroadcastPush`). */
function decodeBinary(buffer: Buffer): Message | null {
  if (buffer.length < 7 || buffer[0] !== BINARY_USER_BROADCAST_PUSH) return null;
  const lengths = [buffer[1] ?? 0, buffer[2] ?? 0, buffer[3] ?? 0, buffer[4] ?? 0, buffer[5] ?? 0];
  const encoding = buffer[6];
  let offset = 7;
  const [joinRef, ref, topic, userEvent, metadata] = lengths.map((length) => {
    const text = buffer.subarray(offset, offset + length).toString('utf8');
    offset += length;
    return text;
  });
  if (topic === undefined || userEvent === undefined) return null;
  const body = buffer.subarray(offset);
  let payload: unknown;
  let meta: Record<string, unknown> = {};
  try {
    payload = encoding === 1 ? JSON.parse(body.toString('utf8')) : new Uint8Array(body);
    if (metadata) {
      const parsed: unknown = JSON.parse(metadata);
      if (isRecord(parsed)) meta = parsed;
    }
  } catch {
    return null;
  }
  return {
    joinRef: joinRef || null,
    ref: ref || null,
    topic,
    event: 'broadcast',
    payload: { ...meta, type: 'broadcast', event: userEvent, payload },
  };
}

function encodeText(vsn: Vsn, message: Message): string {
  if (vsn === '2.0.0') {
    return JSON.stringify([message.joinRef, message.ref, message.topic, message.event, message.payload]);
  }
  return JSON.stringify({
    join_ref: message.joinRef,
    ref: message.ref,
    topic: message.topic,
    event: message.event,
    payload: message.payload,
  });
}

/** A broadcast with a binary payload, as the 2.0.0 serializer's `userBroadcast` frame. */
function encodeBinaryBroadcast(topic: string, event: string, payload: Uint8Array): Buffer {
  const topicBytes = Buffer.from(topic, 'utf8');
  const eventBytes = Buffer.from(event, 'utf8');
  const header = Buffer.from([BINARY_USER_BROADCAST, topicBytes.length, eventBytes.length, 0, 0]);
  return Buffer.concat([header, topicBytes, eventBytes, payload]);
}

// ---------------------------------------------------------------------------------------------
// Subscriptions
// ---------------------------------------------------------------------------------------------

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

function matchesChange(subscription: PgSubscription, change: ChangeRow): boolean {
  return (
    (subscription.event === '*' || subscription.event === change.type) &&
    (subscription.schema === '*' || subscription.schema === change.schema_name) &&
    (subscription.table === '*' || subscription.table === change.table_name)
  );
}

// ---------------------------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------------------------

export async function createRealtimeServer(
  ctx: StackContext,
  httpServer: Server,
  options: RealtimeOptions = {},
): Promise<RealtimeServer> {
  const heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? 60_000;
  const retentionMs = options.changeRetentionMs ?? 60_000;
  const { db, config } = ctx;
  const connections = new Set<Connection>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  // An object, so the checks inside callbacks see the flag change.
  const state = { closed: false };

  const report = (error: unknown) => {
    if (!state.closed) console.error('[supabase-local realtime]', error);
  };

  // ------------------------------------------------------------------ sending

  function send(conn: Connection, message: Message): void {
    if (conn.ws.readyState !== WebSocket.OPEN) return;
    conn.ws.send(encodeText(conn.vsn, message));
  }

  function reply(conn: Connection, message: Message, status: 'ok' | 'error', response: unknown): void {
    const payload = { status, response };
    send(conn, { joinRef: message.joinRef, ref: message.ref, topic: message.topic, event: 'phx_reply', payload });
  }

  function push(conn: Connection, channel: Channel, event: string, payload: unknown): void {
    send(conn, { joinRef: channel.joinRef, ref: null, topic: channel.topic, event, payload });
  }

  function systemMessage(
    conn: Connection,
    channel: Channel,
    extension: string,
    status: 'ok' | 'error',
    message: string,
  ): void {
    push(conn, channel, 'system', { extension, status, message, channel: channel.subTopic });
  }

  function channelsOn(topic: string): { conn: Connection; channel: Channel }[] {
    const found: { conn: Connection; channel: Channel }[] = [];
    for (const conn of connections) {
      const channel = conn.channels.get(topic);
      if (channel) found.push({ conn, channel });
    }
    return found;
  }

  // ------------------------------------------------------------------ presence

  function presenceState(topic: string): Record<string, { metas: Record<string, unknown>[] }> {
    const grouped: Record<string, { metas: Record<string, unknown>[] }> = {};
    for (const { channel } of channelsOn(topic)) {
      if (!channel.presence) continue;
      const entry = (grouped[channel.presence.key] ??= { metas: [] });
      entry.metas.push({ ...channel.presence.meta, phx_ref: channel.presence.ref });
    }
    return grouped;
  }

  function presenceDiff(topic: string, joins: PresenceEntry | null, leaves: PresenceEntry | null): void {
    const group = (entry: PresenceEntry | null) =>
      entry ? { [entry.key]: { metas: [{ ...entry.meta, phx_ref: entry.ref }] } } : {};
    for (const { conn, channel } of channelsOn(topic)) {
      push(conn, channel, 'presence_diff', { joins: group(joins), leaves: group(leaves) });
    }
  }

  // ------------------------------------------------------------------ channel lifecycle

  function scheduleExpiry(conn: Connection, channel: Channel): void {
    if (channel.expiryTimer) clearTimeout(channel.expiryTimer);
    channel.expiryTimer = null;
    const exp = channel.claims.exp;
    if (typeof exp !== 'number') return;
    const delay = Math.min(Math.max(exp * 1000 - Date.now(), 0), 2 ** 31 - 1);
    channel.expiryTimer = setTimeout(() => {
      shutdown(conn, channel, `Token has expired ${String(Math.max(0, Math.floor(Date.now() / 1000) - exp))} seconds ago`);
    }, delay);
    channel.expiryTimer.unref();
  }

  function removeChannel(conn: Connection, channel: Channel): void {
    if (conn.channels.get(channel.topic) === channel) conn.channels.delete(channel.topic);
    if (channel.expiryTimer) clearTimeout(channel.expiryTimer);
    channel.expiryTimer = null;
    const left = channel.presence;
    channel.presence = null;
    if (left) presenceDiff(channel.topic, null, left);
  }

  /** Realtime's shutdown: a system error message, then the channel closes. */
  function shutdown(conn: Connection, channel: Channel, message: string): void {
    systemMessage(conn, channel, 'system', 'error', message);
    closeChannel(conn, channel);
  }

  /** Phoenix tells the client its channel closed with phx_close under the join's ref. */
  function closeChannel(conn: Connection, channel: Channel): void {
    send(conn, { joinRef: channel.joinRef, ref: channel.joinRef, topic: channel.topic, event: 'phx_close', payload: {} });
    removeChannel(conn, channel);
  }

  type Resolved =
    | { ok: true; subscriptions: PgSubscription[]; response: Record<string, unknown>[] }
    | { ok: false; reason: string };

  async function resolveSubscriptions(entries: unknown[]): Promise<Resolved> {
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

  async function join(conn: Connection, message: Message): Promise<void> {
    const payload = isRecord(message.payload) ? message.payload : {};
    if (!message.topic.startsWith('realtime:')) {
      reply(conn, message, 'error', { reason: 'unmatched topic' });
      return;
    }
    const subTopic = message.topic.slice('realtime:'.length);
    if (subTopic === '') {
      reply(conn, message, 'error', { reason: 'TopicNameRequired: You must provide a topic name' });
      return;
    }
    const existing = conn.channels.get(message.topic);
    if (existing) {
      closeChannel(conn, existing);
    }

    const offered = [payload.access_token, payload.user_token].find((value): value is string => typeof value === 'string');
    const token = offered && !offered.startsWith('sb_') ? offered : conn.apiToken;
    const checked = checkToken(token, config.jwtSecret);
    if (!checked.ok) {
      reply(conn, message, 'error', { reason: `${checked.code}: ${checked.message}` });
      return;
    }

    const channelConfig = isRecord(payload.config) ? payload.config : {};
    if (channelConfig.private === true) {
      // Private channels are authorised by policies on realtime.messages, which this stack does
      // not have: with no policy, Supabase refuses the join the same way.
      reply(conn, message, 'error', {
        reason: `Unauthorized: You do not have permissions to read from this Channel topic: ${subTopic}`,
      });
      return;
    }
    const requested = Array.isArray(channelConfig.postgres_changes) ? (channelConfig.postgres_changes as unknown[]) : [];
    const resolved = await resolveSubscriptions(requested.filter((entry) => entry !== null));
    if (!resolved.ok) {
      reply(conn, message, 'error', { reason: resolved.reason });
      return;
    }
    const broadcast = isRecord(channelConfig.broadcast) ? channelConfig.broadcast : {};
    const presence = isRecord(channelConfig.presence) ? channelConfig.presence : {};
    const presenceEnabled = presence.enabled === true;

    const channel: Channel = {
      topic: message.topic,
      subTopic,
      joinRef: message.joinRef ?? message.ref,
      token,
      claims: checked.claims,
      role: checked.role,
      subscriptions: resolved.subscriptions,
      selfBroadcast: broadcast.self === true,
      ackBroadcast: broadcast.ack === true,
      presenceKey: typeof presence.key === 'string' && presence.key !== '' ? presence.key : randomUUID(),
      presence: null,
      expiryTimer: null,
    };
    conn.channels.set(channel.topic, channel);
    scheduleExpiry(conn, channel);
    reply(conn, message, 'ok', { postgres_changes: resolved.response });
    if (channel.subscriptions.length > 0) {
      systemMessage(conn, channel, 'postgres_changes', 'ok', 'Subscribed to PostgreSQL');
    }
    if (presenceEnabled) push(conn, channel, 'presence_state', presenceState(channel.topic));
  }

  function refreshToken(conn: Connection, channel: Channel, payload: unknown): void {
    const token = isRecord(payload) ? payload.access_token : undefined;
    if (typeof token !== 'string' || token === channel.token || token.startsWith('sb_')) return;
    const checked = checkToken(token, config.jwtSecret);
    if (!checked.ok) {
      shutdown(conn, channel, checked.message);
      return;
    }
    channel.token = token;
    channel.claims = checked.claims;
    channel.role = checked.role;
    scheduleExpiry(conn, channel);
  }

  function relayBroadcast(conn: Connection, channel: Channel, message: Message): void {
    const payload = isRecord(message.payload) ? message.payload : null;
    if (!payload || typeof payload.event !== 'string') return;
    const body = payload.payload;
    for (const target of channelsOn(channel.topic)) {
      if (target.channel === channel && !channel.selfBroadcast) continue;
      if (body instanceof Uint8Array) {
        if (target.conn.vsn === '2.0.0' && target.conn.ws.readyState === WebSocket.OPEN) {
          target.conn.ws.send(encodeBinaryBroadcast(channel.topic, payload.event, body));
        }
      } else {
        send(target.conn, { joinRef: null, ref: null, topic: channel.topic, event: 'broadcast', payload });
      }
    }
    if (channel.ackBroadcast) reply(conn, message, 'ok', {});
  }

  function handlePresence(conn: Connection, channel: Channel, message: Message): void {
    const payload = isRecord(message.payload) ? message.payload : {};
    if (payload.event === 'track') {
      if (!isRecord(payload.payload)) {
        reply(conn, message, 'error', { reason: 'Presence track payload must be a map' });
        return;
      }
      const previous = channel.presence;
      channel.presence = { key: channel.presenceKey, ref: randomUUID(), meta: payload.payload };
      presenceDiff(channel.topic, channel.presence, previous);
    } else if (payload.event === 'untrack') {
      const previous = channel.presence;
      channel.presence = null;
      if (previous) presenceDiff(channel.topic, null, previous);
    }
    reply(conn, message, 'ok', {});
  }

  async function handle(conn: Connection, message: Message): Promise<void> {
    if (message.topic === 'phoenix') {
      if (message.event === 'heartbeat') reply(conn, message, 'ok', {});
      return;
    }
    if (message.event === 'phx_join') {
      await join(conn, message);
      return;
    }
    const channel = conn.channels.get(message.topic);
    if (!channel) {
      reply(conn, message, 'error', { reason: 'unmatched topic' });
      return;
    }
    switch (message.event) {
      case 'phx_leave':
        removeChannel(conn, channel);
        reply(conn, message, 'ok', {});
        break;
      case 'access_token':
        refreshToken(conn, channel, message.payload);
        break;
      case 'broadcast':
        relayBroadcast(conn, channel, message);
        break;
      case 'presence':
        handlePresence(conn, channel, message);
        break;
      default:
        break;
    }
  }

  // ------------------------------------------------------------------ connections

  function rejectUpgrade(socket: Duplex, status: number, body: Record<string, unknown>): void {
    const text = JSON.stringify(body);
    socket.end(
      `HTTP/1.1 ${String(status)} ${STATUS_CODES[status] ?? ''}\r\n` +
        'Content-Type: application/json\r\n' +
        `Content-Length: ${String(Buffer.byteLength(text))}\r\nConnection: close\r\n\r\n${text}`,
    );
  }

  function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    if (state.closed) {
      socket.destroy();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/realtime/v1/websocket') {
      rejectUpgrade(socket, 404, { message: 'no Route matched with those values' });
      return;
    }
    const header = req.headers['x-api-key'] ?? req.headers.apikey;
    const apiToken = (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get('apikey');
    if (!apiToken) {
      rejectUpgrade(socket, 401, { error: 'API key is missing' });
      return;
    }
    const checked = checkToken(apiToken, config.jwtSecret);
    if (!checked.ok) {
      const messages: Record<string, string> = {
        InvalidJWTToken: checked.message.startsWith('Token has expired') ? 'Token has expired' : checked.message,
        JwtSignatureError: 'Failed to validate JWT signature',
        MalformedJWT: 'The token provided is not a valid JWT',
      };
      rejectUpgrade(socket, 401, { error: messages[checked.code] ?? checked.message });
      return;
    }
    const vsn = url.searchParams.get('vsn') ?? '1.0.0';
    if (vsn !== '1.0.0' && vsn !== '2.0.0') {
      rejectUpgrade(socket, 403, {
        error: `The client's requested transport version "${vsn}" does not match server's version requirements`,
      });
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      onConnection(ws, vsn, apiToken);
    });
  }

  function onConnection(ws: WebSocket, vsn: Vsn, apiToken: string): void {
    const conn: Connection = { ws, vsn, apiToken, lastSeen: Date.now(), channels: new Map(), queue: Promise.resolve() };
    connections.add(conn);
    ws.on('message', (data, isBinary) => {
      conn.lastSeen = Date.now();
      const buffer = rawToBuffer(data);
      const message = isBinary ? decodeBinary(buffer) : decodeText(vsn, buffer.toString('utf8'));
      if (!message) return;
      // One message at a time per socket, so a join's reply always precedes later pushes.
      conn.queue = conn.queue.then(() => handle(conn, message)).catch(report);
    });
    ws.on('error', () => ws.terminate());
    ws.on('close', () => {
      connections.delete(conn);
      for (const channel of [...conn.channels.values()]) removeChannel(conn, channel);
    });
  }

  // ------------------------------------------------------------------ database changes

  async function tableInfo(schema: string, table: string): Promise<TableInfo | null> {
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
  async function passesFilter(filter: Filter, table: TableInfo, record: Record<string, unknown> | null): Promise<boolean> {
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

  /**
   * Whether the subscriber may see the change: for inserts and updates the row is selected by
   * primary key as the subscriber (what Realtime's walrus does). As on Supabase, row level security
   * is not applied to deletes: every subscriber allowed to select the key hears of a delete, and
   * the old record then carries the primary key only.
   */
  async function visibleTo(channel: Channel, change: ChangeRow, table: TableInfo): Promise<boolean> {
    const pk = table.columns.filter((column) => column.isPk);
    if (pk.length === 0) return false;
    const { rows: privileges } = await db.query<{ pk_selectable: boolean; bypass: boolean }>(
      `select coalesce(bool_and(pg_catalog.has_column_privilege($1::name, $2::oid, col, 'SELECT')), false) as pk_selectable,
              (select rolbypassrls from pg_catalog.pg_roles where rolname = $1) as bypass
         from unnest($3::text[]) as col`,
      [channel.role, table.oid, pk.map((column) => column.name)],
    );
    const privilege = privileges[0];
    if (!privilege?.pk_selectable) return false;
    if (privilege.bypass || !table.rls || change.type === 'DELETE') return true;

    // withClaims only serialises the claims into request.jwt.claims, whatever their value types.
    const claims = channel.claims as JwtClaims;
    const run = <T>(fn: (tx: Transaction) => Promise<T>) => withClaims(db, claims, channel.role, fn);
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

  async function selectableColumns(table: TableInfo, role: DatabaseRole): Promise<Set<string>> {
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

  async function dispatch(change: ChangeRow): Promise<void> {
    const targets: { conn: Connection; channel: Channel; subscriptions: PgSubscription[] }[] = [];
    for (const conn of connections) {
      for (const channel of conn.channels.values()) {
        const subscriptions = channel.subscriptions.filter((subscription) => matchesChange(subscription, change));
        if (subscriptions.length > 0) targets.push({ conn, channel, subscriptions });
      }
    }
    if (targets.length === 0) return;
    const table = await tableInfo(change.schema_name, change.table_name);
    if (!table) return;

    const visibility = new Map<string, Promise<boolean>>();
    const columnsByRole = new Map<DatabaseRole, Promise<Set<string>>>();
    const filterRecord = change.type === 'DELETE' ? change.old_record : change.record;

    for (const { conn, channel, subscriptions } of targets) {
      const ids: number[] = [];
      for (const subscription of subscriptions) {
        if (!subscription.filter || (await passesFilter(subscription.filter, table, filterRecord))) {
          if (!ids.includes(subscription.id)) ids.push(subscription.id);
        }
      }
      if (ids.length === 0) continue;
      const key = `${channel.role}\u0000${JSON.stringify(channel.claims)}`;
      let visible = visibility.get(key);
      if (!visible) {
        visible = visibleTo(channel, change, table);
        visibility.set(key, visible);
      }
      if (!(await visible)) continue;

      let columnsPromise = columnsByRole.get(channel.role);
      if (!columnsPromise) {
        columnsPromise = selectableColumns(table, channel.role);
        columnsByRole.set(channel.role, columnsPromise);
      }
      const selectable = await columnsPromise;
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
      send(conn, { joinRef: null, ref: null, topic: channel.topic, event: 'postgres_changes', payload: { ids, data } });
    }
  }

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
        await dispatch(row).catch(report);
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
  httpServer.on('upgrade', onUpgrade);

  const heartbeatTimer = setInterval(() => {
    const now = Date.now();
    for (const conn of connections) if (now - conn.lastSeen > heartbeatTimeoutMs) conn.ws.terminate();
  }, Math.max(50, Math.min(heartbeatTimeoutMs / 2, 15_000)));
  heartbeatTimer.unref();
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
      if (state.closed) return;
      state.closed = true;
      httpServer.off('upgrade', onUpgrade);
      clearInterval(heartbeatTimer);
      clearInterval(cleanupTimer);
      const sockets = [...connections];
      await Promise.all(
        sockets.map(
          (conn) =>
            new Promise<void>((resolve) => {
              if (conn.ws.readyState === WebSocket.CLOSED) {
                resolve();
                return;
              }
              const timer = setTimeout(() => {
                conn.ws.terminate();
                resolve();
              }, 500);
              conn.ws.once('close', () => {
                clearTimeout(timer);
                resolve();
              });
              conn.ws.close(1001, 'Server shutting down');
            }),
        ),
      );
      await new Promise<void>((resolve) => {
        wss.close(() => resolve());
      });
      await draining;
      await cleaning;
      await unlisten();
    },
  };
}
