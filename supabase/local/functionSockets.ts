/**
 * WebSockets for the edge functions the local stack runs: the `SocketRuntime` a handler gets as its
 * third argument (supabase/functions/_shared/webSocket.ts describes it; restated here because the
 * local stack imports no function code). On Supabase the runtime is `Deno.upgradeWebSocket` and
 * Deno's `WebSocket`; here it is the `ws` package: `upgradeWebSocket` hands back a response the
 * functions host recognises and answers by completing the handshake (Node's `Response` cannot
 * carry Deno's status 101), and `connectWebSocket` opens an outgoing `ws` client.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';

export interface SocketEvents {
  open(): void;
  message(data: string | Uint8Array): void;
  close(code: number, reason: string): void;
}

export interface DuplexSocket {
  send(data: string | Uint8Array): void;
  close(code?: number, reason?: string): void;
}

export interface SocketRuntime {
  upgradeWebSocket(request: Request, events: SocketEvents): { socket: DuplexSocket; response: Response };
  connectWebSocket(url: string, events: SocketEvents): DuplexSocket;
}

function bytesOf(data: RawData): Uint8Array {
  const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

/** Reports a `ws` socket's messages and its close to `events`; `open` when it is (or becomes) open. */
function duplexOf(ws: WebSocket, events: SocketEvents): DuplexSocket {
  let closed = false;
  ws.on('message', (data, isBinary) => events.message(isBinary ? bytesOf(data) : Buffer.from(bytesOf(data)).toString('utf8')));
  ws.on('close', (code, reason) => {
    if (closed) return;
    closed = true;
    events.close(code, reason.toString('utf8'));
  });
  // An error is followed by a close, which reports it.
  ws.on('error', () => undefined);
  if (ws.readyState === WebSocket.OPEN) queueMicrotask(() => events.open());
  else ws.on('open', () => events.open());
  return {
    send(data) {
      if (ws.readyState === WebSocket.OPEN) ws.send(data);
    },
    close(code, reason) {
      if (ws.readyState === WebSocket.CONNECTING || ws.readyState === WebSocket.OPEN) ws.close(code, reason);
    },
  };
}

/** An upgrade the handler accepted, waiting for the host to complete the handshake. */
interface PendingUpgrade {
  attach(ws: WebSocket): void;
}

export interface FunctionSockets {
  runtime: SocketRuntime;
  /** Completes the handshake when `response` came from `runtime.upgradeWebSocket`; false otherwise. */
  complete(response: Response, request: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Closes every socket (the stack is stopping): the functions see their streams end. */
  close(): Promise<void>;
}

export function createFunctionSockets(): FunctionSockets {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  const pending = new WeakMap<Response, PendingUpgrade>();
  const open = new Set<WebSocket>();
  const track = (ws: WebSocket) => {
    open.add(ws);
    ws.once('close', () => open.delete(ws));
  };

  const runtime: SocketRuntime = {
    upgradeWebSocket(_request, events) {
      let attached: DuplexSocket | null = null;
      let closeFirst: [number | undefined, string | undefined] | null = null;
      const response = new Response(null, { status: 200 });
      pending.set(response, {
        attach(ws) {
          track(ws);
          attached = duplexOf(ws, events);
          if (closeFirst) attached.close(...closeFirst);
        },
      });
      const socket: DuplexSocket = {
        send: (data) => attached?.send(data),
        close(code, reason) {
          if (attached) attached.close(code, reason);
          else closeFirst = [code, reason];
        },
      };
      return { socket, response };
    },
    connectWebSocket(url, events) {
      const ws = new WebSocket(url, { maxPayload: 1024 * 1024 });
      track(ws);
      return duplexOf(ws, events);
    },
  };

  return {
    runtime,
    complete(response, request, socket, head) {
      const upgrade = pending.get(response);
      if (!upgrade) return false;
      pending.delete(response);
      wss.handleUpgrade(request, socket, head, (ws) => upgrade.attach(ws));
      return true;
    },
    async close() {
      await Promise.all(
        [...open].map(
          (ws) =>
            new Promise<void>((resolve) => {
              if (ws.readyState === WebSocket.CLOSED) return resolve();
              const timer = setTimeout(() => {
                ws.terminate();
                resolve();
              }, 500);
              ws.once('close', () => {
                clearTimeout(timer);
                resolve();
              });
              ws.close(1001, 'Server shutting down');
            }),
        ),
      );
      await new Promise<void>((resolve) => {
        wss.close(() => resolve());
      });
    },
  };
}
