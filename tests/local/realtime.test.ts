/**
 * Realtime over a real WebSocket: supabase-js channels for what the app does (postgres_changes on
 * documents), a raw Phoenix client for the protocol details and for misbehaving sockets, and the
 * clear refusal of broadcast and presence, which the app does not use.
 */
import { createServer, type Server } from 'node:http';
import {
  REALTIME_SUBSCRIBE_STATES,
  type RealtimeChannel,
  type RealtimePostgresChangesPayload,
  type SupabaseClient,
} from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Database } from '../../src/types/database';
import { LOCAL_ANON_KEY, LOCAL_JWT_SECRET } from '../../supabase/local/config';
import { signJwt } from '../../supabase/local/jwt';
import { createRealtimeServer } from '../../supabase/local/realtime';
import { ADMIN, startHarness, type Harness } from './harness';

type Document = Database['public']['Tables']['documents']['Row'];
type Change = RealtimePostgresChangesPayload<Document>;

/** The brief's promise: a change reaches a subscriber within a second. */
const EVENT_TIMEOUT_MS = 1_000;

async function waitFor(condition: () => boolean, timeoutMs = EVENT_TIMEOUT_MS, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${String(timeoutMs)} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function subscribe(channel: RealtimeChannel): Promise<RealtimeChannel> {
  return new Promise((resolve, reject) => {
    channel.subscribe((status, error) => {
      if (status === REALTIME_SUBSCRIBE_STATES.SUBSCRIBED) resolve(channel);
      else reject(error ?? new Error(status));
    });
  });
}

function watchDocuments(client: SupabaseClient<Database>, events: Change[]): Promise<RealtimeChannel> {
  return subscribe(
    client
      .channel('document_changes')
      .on('postgres_changes', { event: '*', schema: 'public', table: 'documents' }, (payload: Change) => events.push(payload)),
  );
}

interface Frame {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: Record<string, unknown>;
}

/** A bare Phoenix client, to speak the protocol without realtime-js smoothing anything over. */
class RawSocket {
  readonly frames: Frame[] = [];
  private ref = 0;

  private constructor(
    readonly ws: WebSocket,
    readonly vsn: '1.0.0' | '2.0.0',
  ) {
    ws.on('message', (data: Buffer) => {
      const parsed: unknown = JSON.parse(data.toString('utf8'));
      if (Array.isArray(parsed)) {
        const [joinRef, ref, topic, event, payload] = parsed as [string | null, string | null, string, string, Record<string, unknown>];
        this.frames.push({ joinRef, ref, topic, event, payload });
      } else {
        const { join_ref, ref, topic, event, payload } = parsed as {
          join_ref?: string | null;
          ref: string | null;
          topic: string;
          event: string;
          payload: Record<string, unknown>;
        };
        this.frames.push({ joinRef: join_ref ?? null, ref, topic, event, payload });
      }
    });
  }

  static open(baseUrl: string, vsn: '1.0.0' | '2.0.0' = '2.0.0', apikey = LOCAL_ANON_KEY): Promise<RawSocket> {
    const url = `${baseUrl.replace(/^http/, 'ws')}/realtime/v1/websocket?apikey=${apikey}&vsn=${vsn}`;
    const ws = new WebSocket(url);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new RawSocket(ws, vsn)));
      ws.once('error', reject);
    });
  }

  push(topic: string, event: string, payload: Record<string, unknown>, joinRef: string | null = null): string {
    this.ref += 1;
    const ref = String(this.ref);
    const frame =
      this.vsn === '2.0.0' ? [joinRef, ref, topic, event, payload] : { join_ref: joinRef, ref, topic, event, payload };
    this.ws.send(JSON.stringify(frame));
    return ref;
  }

  async next(match: (frame: Frame) => boolean, timeoutMs = EVENT_TIMEOUT_MS): Promise<Frame> {
    let found: Frame | undefined;
    await waitFor(() => (found = this.frames.find(match)) !== undefined, timeoutMs, 'a frame');
    if (!found) throw new Error('unreachable');
    return found;
  }

  async reply(ref: string): Promise<Frame> {
    return this.next((frame) => frame.event === 'phx_reply' && frame.ref === ref);
  }

  async join(topic: string, payload: Record<string, unknown>): Promise<{ frame: Frame; joinRef: string }> {
    this.ref += 1;
    const joinRef = String(this.ref);
    const frame =
      this.vsn === '2.0.0'
        ? [joinRef, joinRef, topic, 'phx_join', payload]
        : { join_ref: joinRef, ref: joinRef, topic, event: 'phx_join', payload };
    this.ws.send(JSON.stringify(frame));
    return { frame: await this.reply(joinRef), joinRef };
  }

  closed(): Promise<void> {
    return new Promise((resolve) => {
      if (this.ws.readyState === WebSocket.CLOSED) resolve();
      else this.ws.once('close', () => resolve());
    });
  }
}

const documentsConfig = (accessToken: string) => ({
  config: {
    broadcast: { ack: false, self: false },
    presence: { key: '', enabled: false },
    postgres_changes: [{ event: '*', schema: 'public', table: 'documents' }],
    private: false,
  },
  access_token: accessToken,
});

let harness: Harness;
let admin: SupabaseClient<Database>;
let adminToken: string;
let readerToken: string;

async function tokenOf(client: SupabaseClient<Database>): Promise<string> {
  const { data } = await client.auth.getSession();
  const token = data.session?.access_token;
  if (!token) throw new Error('no session');
  return token;
}

async function insertDocument(title: string): Promise<Document> {
  const { data, error } = await admin.from('documents').insert({ title, url: `https://example.com/${title}.pdf` }).select().single();
  if (error) throw new Error(error.message);
  return data;
}

async function deleteDocument(id: string): Promise<void> {
  const { error } = await admin.from('documents').delete().eq('id', id);
  if (error) throw new Error(error.message);
}

beforeAll(async () => {
  harness = await startHarness();
  admin = await harness.signedIn(ADMIN.email, ADMIN.password);
  adminToken = await tokenOf(admin);
  readerToken = await tokenOf(await harness.user('realtime-reader@example.com'));
});

afterAll(async () => {
  await harness.close();
});

describe('postgres_changes on documents', () => {
  it('delivers inserts, updates and deletes to an admin; a visitor or a non-admin hears only deletes, key only', async () => {
    const adminEvents: Change[] = [];
    const anonEvents: Change[] = [];
    const readerEvents: Change[] = [];
    await watchDocuments(admin, adminEvents);
    await watchDocuments(harness.anon(), anonEvents);
    await watchDocuments(await harness.signedIn('realtime-reader@example.com', 'password-123'), readerEvents);

    const document = await insertDocument('Realtime handbook');
    await waitFor(() => adminEvents.length === 1, EVENT_TIMEOUT_MS, 'the INSERT');
    expect(adminEvents[0]).toMatchObject({
      eventType: 'INSERT',
      schema: 'public',
      table: 'documents',
      new: { id: document.id, title: 'Realtime handbook', status: 'PROCESSING', type: 'PDF' },
      old: {},
      errors: null,
    });
    expect(adminEvents[0]?.commit_timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const { error: updateError } = await admin.from('documents').update({ title: 'Renamed handbook' }).eq('id', document.id);
    expect(updateError).toBeNull();
    await waitFor(() => adminEvents.length === 2, EVENT_TIMEOUT_MS, 'the UPDATE');
    expect(adminEvents[1]).toMatchObject({
      eventType: 'UPDATE',
      new: { id: document.id, title: 'Renamed handbook' },
      old: { id: document.id },
    });

    await deleteDocument(document.id);
    await waitFor(() => adminEvents.length === 3, EVENT_TIMEOUT_MS, 'the DELETE');
    // With row level security only the primary key of a deleted row is sent, as on Supabase.
    expect(adminEvents[2]).toMatchObject({ eventType: 'DELETE', new: {}, old: { id: document.id } });
    expect(Object.keys(adminEvents[2]?.old ?? {})).toEqual(['id']);

    // Changes are dispatched one after another to every subscriber, so once the admin sees a
    // later change, the others have had their chance at the earlier ones. As on Supabase, row
    // level security is not applied to deletes: the others hear of the delete, with the key only.
    const marker = await insertDocument('Marker');
    await waitFor(() => adminEvents.length === 4, EVENT_TIMEOUT_MS, 'the marker');
    for (const events of [anonEvents, readerEvents]) {
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ eventType: 'DELETE', new: {}, old: { id: document.id } });
      expect(Object.keys(events[0]?.old ?? {})).toEqual(['id']);
    }
    await deleteDocument(marker.id);
  });

  it('refuses a subscriber whose token has expired', async () => {
    const client = harness.anon();
    const expired = signJwt(
      { role: 'authenticated', sub: '00000000-0000-4000-8000-000000000001', exp: Math.floor(Date.now() / 1000) - 30 },
      LOCAL_JWT_SECRET,
    );
    await client.realtime.setAuth(expired);
    const channel = client
      .channel('document_changes')
      .on('postgres_changes', { event: '*', schema: 'public', table: 'documents' }, () => undefined);
    await expect(subscribe(channel)).rejects.toThrow(/Token has expired/);
    await client.removeChannel(channel);
  });
});

describe('the Phoenix protocol', () => {
  it('answers heartbeats, joins, leaves and pushes to unjoined topics', async () => {
    const socket = await RawSocket.open(harness.url);
    const heartbeat = socket.push('phoenix', 'heartbeat', {});
    expect((await socket.reply(heartbeat)).payload).toEqual({ status: 'ok', response: {} });

    const { frame, joinRef } = await socket.join('realtime:raw', documentsConfig(adminToken));
    expect(frame.payload).toMatchObject({
      status: 'ok',
      response: { postgres_changes: [{ event: '*', schema: 'public', table: 'documents', id: expect.any(Number) as number }] },
    });
    const system = await socket.next((candidate) => candidate.event === 'system');
    expect(system).toMatchObject({
      joinRef,
      topic: 'realtime:raw',
      payload: { extension: 'postgres_changes', status: 'ok', message: 'Subscribed to PostgreSQL', channel: 'raw' },
    });

    const stray = socket.push('realtime:elsewhere', 'broadcast', { type: 'broadcast', event: 'x', payload: {} });
    expect((await socket.reply(stray)).payload).toEqual({ status: 'error', response: { reason: 'unmatched topic' } });

    const leave = socket.push('realtime:raw', 'phx_leave', {}, joinRef);
    expect((await socket.reply(leave)).payload).toEqual({ status: 'ok', response: {} });
    socket.ws.close();
  });

  it('refuses joins for unknown tables, private channels and bad tokens', async () => {
    const socket = await RawSocket.open(harness.url);
    const unknownTable = await socket.join('realtime:a', {
      config: { postgres_changes: [{ event: '*', schema: 'public', table: 'no_such_table' }] },
      access_token: adminToken,
    });
    expect(unknownTable.frame.payload).toMatchObject({
      status: 'error',
      response: { reason: expect.stringContaining('Unable to subscribe to changes') as string },
    });
    const unpublished = await socket.join('realtime:b', {
      config: { postgres_changes: [{ event: 'INSERT', schema: 'auth', table: 'users' }] },
      access_token: adminToken,
    });
    expect(unpublished.frame.payload).toMatchObject({ status: 'error' });
    const privateChannel = await socket.join('realtime:c', { config: { private: true }, access_token: adminToken });
    expect(privateChannel.frame.payload).toMatchObject({
      status: 'error',
      response: { reason: expect.stringContaining('Unauthorized') as string },
    });
    const forged = signJwt({ role: 'service_role', exp: Math.floor(Date.now() / 1000) + 60 }, 'not-the-secret-but-long-enough-to-look-real');
    const badToken = await socket.join('realtime:d', documentsConfig(forged));
    expect(badToken.frame.payload).toEqual({
      status: 'error',
      response: { reason: 'JwtSignatureError: Failed to validate JWT signature' },
    });
    socket.ws.close();
  });

  it('refuses a connection with an invalid API key', async () => {
    const url = `${harness.url.replace(/^http/, 'ws')}/realtime/v1/websocket?apikey=nonsense&vsn=2.0.0`;
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.on('error', () => undefined);
      ws.once('unexpected-response', (request, response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        response.on('end', () => {
          request.destroy();
          resolve({ status: response.statusCode ?? 0, body: text });
        });
      });
      ws.once('open', () => reject(new Error('connected with an invalid key')));
    });
    expect(JSON.parse(body)).toEqual({ error: 'The token provided is not a valid JWT' });
    expect(status).toBe(401);
  });

  it('speaks the 1.0.0 serializer too', async () => {
    const socket = await RawSocket.open(harness.url, '1.0.0');
    const { frame } = await socket.join('realtime:v1', documentsConfig(adminToken));
    expect(frame.payload).toMatchObject({ status: 'ok' });
    const document = await insertDocument('Serializer one');
    const change = await socket.next((candidate) => candidate.event === 'postgres_changes');
    expect(change.payload).toMatchObject({ data: { type: 'INSERT', record: { id: document.id } } });
    await deleteDocument(document.id);
    socket.ws.close();
  });

  it('applies a refreshed access token to later changes and closes the channel on a bad one', async () => {
    const socket = await RawSocket.open(harness.url);
    const { joinRef } = await socket.join('realtime:refresh', documentsConfig(readerToken));
    const adminSocket = await RawSocket.open(harness.url);
    await adminSocket.join('realtime:refresh-admin', documentsConfig(adminToken));

    // The reader's socket comes first in dispatch order: once the admin has the change, the
    // reader has been considered for it too.
    const hidden = await insertDocument('Hidden from readers');
    await adminSocket.next((frame) => frame.event === 'postgres_changes');

    socket.push('realtime:refresh', 'access_token', { access_token: adminToken }, joinRef);
    // A socket's messages are handled in order, so this reply means the token is in effect.
    await socket.reply(socket.push('phoenix', 'heartbeat', {}));
    const shown = await insertDocument('Shown after refresh');
    const change = await socket.next((frame) => frame.event === 'postgres_changes');
    expect(change.payload).toMatchObject({ data: { type: 'INSERT', record: { id: shown.id } } });
    expect(socket.frames.filter((frame) => frame.event === 'postgres_changes')).toHaveLength(1);

    const expired = signJwt({ role: 'authenticated', sub: 'x', exp: Math.floor(Date.now() / 1000) - 1 }, LOCAL_JWT_SECRET);
    socket.push('realtime:refresh', 'access_token', { access_token: expired }, joinRef);
    const shutdown = await socket.next((frame) => frame.event === 'system' && frame.payload.status === 'error');
    expect(shutdown.payload.message).toMatch(/^Token has expired/);
    await socket.next((frame) => frame.event === 'phx_close');

    await deleteDocument(hidden.id);
    await deleteDocument(shown.id);
    socket.ws.close();
    adminSocket.ws.close();
  });
});

describe('broadcast and presence', () => {
  it('are refused with a clear error: the app uses postgres_changes only', async () => {
    const socket = await RawSocket.open(harness.url);
    const presence = await socket.join('realtime:room', {
      config: { broadcast: { ack: false, self: false }, presence: { key: 'me', enabled: true }, postgres_changes: [], private: false },
      access_token: adminToken,
    });
    expect(presence.frame.payload).toEqual({
      status: 'error',
      response: { reason: 'Presence is not supported by the local stack (only postgres_changes)' },
    });

    const { frame, joinRef } = await socket.join('realtime:room', documentsConfig(adminToken));
    expect(frame.payload.status).toBe('ok');
    const broadcast = socket.push('realtime:room', 'broadcast', { type: 'broadcast', event: 'greeting', payload: {} }, joinRef);
    expect((await socket.reply(broadcast)).payload).toEqual({
      status: 'error',
      response: { reason: 'Broadcast is not supported by the local stack (only postgres_changes)' },
    });
    const track = socket.push('realtime:room', 'presence', { type: 'presence', event: 'track', payload: {} }, joinRef);
    expect((await socket.reply(track)).payload).toEqual({
      status: 'error',
      response: { reason: 'Presence is not supported by the local stack (only postgres_changes)' },
    });
    // A binary frame (the 2.0.0 serializer's broadcast) is ignored and the socket stays usable.
    socket.ws.send(Buffer.from([3, 1, 1, 12, 8, 0, 1]));
    const heartbeat = socket.push('phoenix', 'heartbeat', {});
    expect((await socket.reply(heartbeat)).payload).toEqual({ status: 'ok', response: {} });
    socket.ws.close();
  });
});

describe('robustness', () => {
  it('keeps working after a client disconnects abruptly', async () => {
    const socket = await RawSocket.open(harness.url);
    await socket.join('realtime:doomed', documentsConfig(adminToken));
    socket.ws.terminate(); // no close frame, no leave

    const fresh = await RawSocket.open(harness.url);
    await fresh.join('realtime:survivor', documentsConfig(adminToken));
    const document = await insertDocument('After the crash');
    const change = await fresh.next((frame) => frame.event === 'postgres_changes');
    expect(change.payload).toMatchObject({ data: { record: { id: document.id } } });
    await deleteDocument(document.id);
    fresh.ws.close();
  });

  it('closes sockets that stop sending heartbeats, cleans up read changes, closes all sockets on close', async () => {
    const remaining = async () =>
      (await harness.stack.db.query<{ count: number }>('select count(*)::int as count from supabase_local.changes')).rows[0]?.count;
    expect(await remaining()).toBeGreaterThan(0);
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const realtime = await createRealtimeServer(
      { db: harness.stack.db, config: harness.stack.config, filesDir: '', origin: () => harness.url },
      server,
      { heartbeatTimeoutMs: 300, changeRetentionMs: 1 },
    );
    try {
      const url = `http://127.0.0.1:${String(address.port)}`;
      const silent = await RawSocket.open(url);
      await silent.closed();

      const lively = await RawSocket.open(url);
      const ticker = setInterval(() => lively.push('phoenix', 'heartbeat', {}), 30);
      await new Promise((resolve) => setTimeout(resolve, 600));
      clearInterval(ticker);
      expect(lively.ws.readyState).toBe(WebSocket.OPEN);

      let count: number | undefined = -1;
      const poll = setInterval(() => void remaining().then((value) => (count = value)), 100);
      await waitFor(() => count === 0, 5_000, 'the changes table to be cleaned up').finally(() => clearInterval(poll));

      await realtime.close();
      await lively.closed();
    } finally {
      await realtime.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
