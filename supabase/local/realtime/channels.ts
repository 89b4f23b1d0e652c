/**
 * A socket's messages: heartbeats, joining and leaving channels, refreshed access tokens, and a
 * channel's end when its token expires. Broadcast and presence, which the app does not use, are
 * refused with a clear error.
 */
import type { PGlite } from '@electric-sql/pglite';
import { isRecord } from '../shared';
import { reply, send, systemMessage, type Channel, type Connection } from './connection';
import type { Message } from './protocol';
import { resolveSubscriptions } from './subscriptions';
import { checkToken } from './token';

export const NOT_SUPPORTED = (feature: string) => `${feature} is not supported by the local stack (only postgres_changes)`;

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

export function removeChannel(conn: Connection, channel: Channel): void {
  if (conn.channels.get(channel.topic) === channel) conn.channels.delete(channel.topic);
  if (channel.expiryTimer) clearTimeout(channel.expiryTimer);
  channel.expiryTimer = null;
}

/** Phoenix tells the client its channel closed with phx_close under the join's ref. */
function closeChannel(conn: Connection, channel: Channel): void {
  send(conn, { joinRef: channel.joinRef, ref: channel.joinRef, topic: channel.topic, event: 'phx_close', payload: {} });
  removeChannel(conn, channel);
}

/** Realtime's shutdown: a system error message, then the channel closes. */
function shutdown(conn: Connection, channel: Channel, message: string): void {
  systemMessage(conn, channel, 'system', 'error', message);
  closeChannel(conn, channel);
}

async function join(db: PGlite, secret: string, conn: Connection, message: Message): Promise<void> {
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
  if (existing) closeChannel(conn, existing);

  const offered = [payload.access_token, payload.user_token].find((value): value is string => typeof value === 'string');
  const token = offered && !offered.startsWith('sb_') ? offered : conn.apiToken;
  const checked = checkToken(token, secret);
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
  // realtime-js asks for presence only when the channel has presence listeners.
  if (isRecord(channelConfig.presence) && channelConfig.presence.enabled === true) {
    reply(conn, message, 'error', { reason: NOT_SUPPORTED('Presence') });
    return;
  }
  const requested = Array.isArray(channelConfig.postgres_changes) ? (channelConfig.postgres_changes as unknown[]) : [];
  const resolved = await resolveSubscriptions(db, requested.filter((entry) => entry !== null));
  if (!resolved.ok) {
    reply(conn, message, 'error', { reason: resolved.reason });
    return;
  }

  const channel: Channel = {
    topic: message.topic,
    subTopic,
    joinRef: message.joinRef ?? message.ref,
    token,
    claims: checked.claims,
    role: checked.role,
    subscriptions: resolved.subscriptions,
    expiryTimer: null,
  };
  conn.channels.set(channel.topic, channel);
  scheduleExpiry(conn, channel);
  reply(conn, message, 'ok', { postgres_changes: resolved.response });
  if (channel.subscriptions.length > 0) {
    systemMessage(conn, channel, 'postgres_changes', 'ok', 'Subscribed to PostgreSQL');
  }
}

function refreshToken(secret: string, conn: Connection, channel: Channel, payload: unknown): void {
  const token = isRecord(payload) ? payload.access_token : undefined;
  if (typeof token !== 'string' || token === channel.token || token.startsWith('sb_')) return;
  const checked = checkToken(token, secret);
  if (!checked.ok) {
    shutdown(conn, channel, checked.message);
    return;
  }
  channel.token = token;
  channel.claims = checked.claims;
  channel.role = checked.role;
  scheduleExpiry(conn, channel);
}

/** Handles one message of a socket (the caller runs them one at a time, in order). */
export async function handleMessage(db: PGlite, secret: string, conn: Connection, message: Message): Promise<void> {
  if (message.topic === 'phoenix') {
    if (message.event === 'heartbeat') reply(conn, message, 'ok', {});
    return;
  }
  if (message.event === 'phx_join') {
    await join(db, secret, conn, message);
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
      refreshToken(secret, conn, channel, message.payload);
      break;
    case 'broadcast':
      reply(conn, message, 'error', { reason: NOT_SUPPORTED('Broadcast') });
      break;
    case 'presence':
      reply(conn, message, 'error', { reason: NOT_SUPPORTED('Presence') });
      break;
    default:
      break;
  }
}
