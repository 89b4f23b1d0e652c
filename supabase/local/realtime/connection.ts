/** A client's socket and the channels it joined, and how frames are sent to it. */
import { WebSocket } from 'ws';
import type { DatabaseRole } from '../database';
import type { Claims } from '../jwt';
import { encodeText, type Message, type Vsn } from './protocol';
import type { PgSubscription } from './subscriptions';

export interface Channel {
  topic: string;
  subTopic: string;
  joinRef: string | null;
  token: string;
  claims: Claims;
  role: DatabaseRole;
  subscriptions: PgSubscription[];
  expiryTimer: NodeJS.Timeout | null;
}

export interface Connection {
  ws: WebSocket;
  vsn: Vsn;
  apiToken: string;
  lastSeen: number;
  channels: Map<string, Channel>;
  queue: Promise<void>;
}

export function send(conn: Connection, message: Message): void {
  if (conn.ws.readyState !== WebSocket.OPEN) return;
  conn.ws.send(encodeText(conn.vsn, message));
}

export function reply(conn: Connection, message: Message, status: 'ok' | 'error', response: unknown): void {
  const payload = { status, response };
  send(conn, { joinRef: message.joinRef, ref: message.ref, topic: message.topic, event: 'phx_reply', payload });
}

export function push(conn: Connection, channel: Channel, event: string, payload: unknown): void {
  send(conn, { joinRef: channel.joinRef, ref: null, topic: channel.topic, event, payload });
}

export function systemMessage(conn: Connection, channel: Channel, extension: string, status: 'ok' | 'error', message: string): void {
  push(conn, channel, 'system', { extension, status, message, channel: channel.subTopic });
}
