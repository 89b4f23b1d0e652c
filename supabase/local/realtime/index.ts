/**
 * Realtime (/realtime/v1/websocket): the Phoenix channel protocol as @supabase/realtime-js speaks
 * it (serializers 1.0.0 and 2.0.0), with postgres_changes on public channels, the one Realtime
 * feature the app uses. This module owns the sockets: the upgrade with its API key check, one
 * message at a time per socket, heartbeat timeouts and closing.
 */
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, WebSocket, type RawData } from 'ws';
import { originAllowed } from '../origins';
import type { StackContext } from '../types';
import { handleMessage, removeChannel } from './channels';
import { startChangeFeed } from './changeFeed';
import type { Connection } from './connection';
import { decodeText, type Vsn } from './protocol';
import { checkToken } from './token';

export interface RealtimeServer {
  close(): Promise<void>;
}

export interface RealtimeOptions {
  /** A socket that sends nothing (not even a heartbeat) for this long is closed. Phoenix: 60 s. */
  heartbeatTimeoutMs?: number;
  /** Processed changes older than this are deleted from supabase_local.changes. */
  changeRetentionMs?: number;
}

function rawToBuffer(data: RawData): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.isBuffer(data) ? data : Buffer.from(data);
}

function rejectUpgrade(socket: Duplex, status: number, body: Record<string, unknown>): void {
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${String(status)} ${STATUS_CODES[status] ?? ''}\r\n` +
      'Content-Type: application/json\r\n' +
      `Content-Length: ${String(Buffer.byteLength(text))}\r\nConnection: close\r\n\r\n${text}`,
  );
}

function closeSocket(conn: Connection): Promise<void> {
  return new Promise<void>((resolve) => {
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
  });
}

export async function createRealtimeServer(
  ctx: StackContext,
  httpServer: Server,
  options: RealtimeOptions = {},
): Promise<RealtimeServer> {
  const heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? 60_000;
  const { db, config } = ctx;
  const connections = new Set<Connection>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  // An object, so the checks inside callbacks see the flag change.
  const state = { closed: false };

  const report = (error: unknown) => {
    if (!state.closed) console.error('[supabase-local realtime]', error);
  };

  function onConnection(ws: WebSocket, vsn: Vsn, apiToken: string): void {
    const conn: Connection = { ws, vsn, apiToken, lastSeen: Date.now(), channels: new Map(), queue: Promise.resolve() };
    connections.add(conn);
    ws.on('message', (data, isBinary) => {
      conn.lastSeen = Date.now();
      if (isBinary) return; // binary frames carry broadcasts only
      const message = decodeText(vsn, rawToBuffer(data).toString('utf8'));
      if (!message) return;
      // One message at a time per socket, so a join's reply always precedes later pushes.
      conn.queue = conn.queue.then(() => handleMessage(db, config.jwtSecret, conn, message)).catch(report);
    });
    ws.on('error', () => ws.terminate());
    ws.on('close', () => {
      connections.delete(conn);
      for (const channel of [...conn.channels.values()]) removeChannel(conn, channel);
    });
  }

  function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    // A function's own WebSocket: the functions host takes it.
    if ((req.url ?? '').startsWith('/functions/v1/')) return;
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
    // WebSockets know no CORS: another site's page would be let in with the public keys.
    if (!originAllowed(req.headers.origin ?? null, config.functionEnv)) {
      rejectUpgrade(socket, 403, { error: 'Origin not allowed' });
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

  const feed = await startChangeFeed(db, connections, options.changeRetentionMs ?? 60_000, report);
  httpServer.on('upgrade', onUpgrade);

  const heartbeatTimer = setInterval(() => {
    const now = Date.now();
    for (const conn of connections) if (now - conn.lastSeen > heartbeatTimeoutMs) conn.ws.terminate();
  }, Math.max(50, Math.min(heartbeatTimeoutMs / 2, 15_000)));
  heartbeatTimer.unref();

  return {
    async close() {
      if (state.closed) return;
      state.closed = true;
      httpServer.off('upgrade', onUpgrade);
      clearInterval(heartbeatTimer);
      await Promise.all([...connections].map(closeSocket));
      await new Promise<void>((resolve) => {
        wss.close(() => resolve());
      });
      await feed.close();
    },
  };
}
