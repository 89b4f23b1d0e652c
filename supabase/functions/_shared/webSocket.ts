/**
 * WebSockets for the functions, the same in Deno and Node. A function that speaks WebSocket takes a
 * `SocketRuntime` beside its environment: on Supabase the entry (`index.ts`) builds it from
 * `Deno.upgradeWebSocket` and Deno's `WebSocket`; the local stack's functions host builds it from
 * the `ws` package. The function sees only `DuplexSocket`s and the events it registered, so the
 * handler is one file for both runtimes, like every other handler.
 */

/** What a function hears from a socket. */
export interface SocketEvents {
  /** The socket is open (an upgraded one: the client is connected; an outgoing one: accepted). */
  open(): void;
  /** A text message, or a binary one as bytes. */
  message(data: string | Uint8Array): void;
  /** Closed, by either side or by the network (1006). Called once. */
  close(code: number, reason: string): void;
}

export interface DuplexSocket {
  /** Sends a text or binary message; nothing happens when the socket is not open. */
  send(data: string | Uint8Array): void;
  /** Closes with a code (1000, or 4000–4999 for the application) and a reason of at most 123 bytes. */
  close(code?: number, reason?: string): void;
}

export interface SocketRuntime {
  /**
   * Accepts a WebSocket upgrade request: `response` is what the handler returns (unchanged, so the
   * runtime completes the handshake); the socket opens once the handshake is done.
   */
  upgradeWebSocket(request: Request, events: SocketEvents): { socket: DuplexSocket; response: Response };
  /** Opens an outgoing WebSocket (to a provider). */
  connectWebSocket(url: string, events: SocketEvents): DuplexSocket;
}

/** Whether a request asks for a WebSocket upgrade. */
export function wantsWebSocket(request: Request): boolean {
  return (request.headers.get('upgrade') ?? '').toLowerCase() === 'websocket';
}

const OPEN = 1;
const CLOSING = 2;

/** A standard WebSocket (the WHATWG interface, as Deno implements it) as a `DuplexSocket` reporting to `events`. */
export function duplexFromWebSocket(socket: WebSocket, events: SocketEvents): DuplexSocket {
  socket.binaryType = 'arraybuffer';
  let closed = false;
  socket.addEventListener('open', () => events.open());
  socket.addEventListener('message', (event: MessageEvent<unknown>) => {
    const { data } = event;
    if (typeof data === 'string') events.message(data);
    else if (data instanceof ArrayBuffer) events.message(new Uint8Array(data));
    else if (ArrayBuffer.isView(data)) events.message(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  });
  socket.addEventListener('close', (event: CloseEvent) => {
    if (closed) return;
    closed = true;
    events.close(event.code, event.reason);
  });
  // An error is followed by a close event, which reports it.
  socket.addEventListener('error', () => undefined);
  return {
    send(data) {
      if (socket.readyState === OPEN) socket.send(data);
    },
    close(code, reason) {
      if (socket.readyState < CLOSING) socket.close(code, reason);
    },
  };
}

/** The runtime over the WHATWG WebSocket and an upgrade function shaped like Deno's. */
export function standardSocketRuntime(upgrade: (request: Request) => { socket: WebSocket; response: Response }): SocketRuntime {
  return {
    upgradeWebSocket(request, events) {
      const { socket, response } = upgrade(request);
      return { socket: duplexFromWebSocket(socket, events), response };
    },
    connectWebSocket(url, events) {
      return duplexFromWebSocket(new WebSocket(url), events);
    },
  };
}
