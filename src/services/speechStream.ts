/**
 * Speech to text while the visitor speaks: the project's `stt-stream` function over a WebSocket
 * (supabase/functions/stt-stream/protocol.ts). The page sends the microphone as 16 kHz 16-bit PCM
 * from the voice onset and a commit at each pause; the function relays it to the operator's
 * streaming transcriber (the key stays on the server) and sends back the partial words while the
 * visitor speaks and each segment's final words after its commit.
 *
 * A browser cannot set headers on a WebSocket, so the caller's token goes as the `jwt` query
 * parameter, as Supabase's WebSocket guide does it: the one the coach's other calls carry
 * (`visitorToken()`: the public anon key, or the visitor's session where the operator asks for a
 * human check, so that the stream is counted against that session too). Problems are SpeechRecognitionErrors, as on the
 * other listening paths: 'unsupported' (no transcriber on the server), 'failed' (refused, broken
 * off, the connection lost), with the function's catalogue message where it sent one.
 */
import { env } from '../config/env';
import { callFunctionJson, functionUrl } from './edgeFunctions';
import { SpeechRecognitionError } from './speechRecognition';
import { visitorToken } from './visitorSession';

/** The rate the function takes (16 kHz, 16-bit mono). */
export const STREAM_SAMPLE_RATE = 16_000;

export interface SpeechStreamHandlers {
  /** A segment's words so far (they may still change). */
  partial(text: string): void;
  /** A segment's final words, after its commit ('' when nothing was said). */
  final(text: string): void;
  /** The stream ended without the page closing it; no handler is called after this. */
  failed(error: SpeechRecognitionError): void;
}

export interface SpeechStream {
  /** Samples −1…1 at 16 kHz, sent as 16-bit PCM (kept until the socket is open). */
  send(samples: Float32Array): void;
  /** The visitor paused: the words so far are final. */
  commit(): void;
  /** Ends the stream; no handler is called afterwards. */
  close(): void;
}

export interface SpeechStreamCapability {
  /** A streaming transcriber is configured. */
  available: boolean;
  /** The operator sends every browser's voice through it, not the browser's own recogniser. */
  everyBrowser: boolean;
}

let capability: Promise<SpeechStreamCapability> | null = null;

/** Whether streaming is available and whether every browser should use it; asked once per page view. */
export function speechStreamCapability(): Promise<SpeechStreamCapability> {
  capability ??= callFunctionJson('stt-stream').then(
    (record) => ({ available: record.available === true, everyBrowser: record.available === true && record.everyBrowser === true }),
    () => ({ available: false, everyBrowser: false }),
  );
  return capability;
}

/** The function's WebSocket address for this token (wss:// for an https project). */
export function speechStreamUrl(token: string = env.VITE_SUPABASE_ANON_KEY): string {
  const url = new URL(functionUrl('stt-stream'));
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('jwt', token);
  return url.toString();
}

/** −1…1 floats as 16-bit little-endian PCM. */
export function toPcm16(samples: Float32Array): ArrayBuffer {
  const pcm = new Int16Array(samples.length);
  for (let index = 0; index < samples.length; index += 1) {
    const sample = Math.max(-1, Math.min(1, samples[index] ?? 0));
    pcm[index] = sample < 0 ? Math.round(sample * 0x8000) : Math.round(sample * 0x7fff);
  }
  return pcm.buffer;
}

/** Close codes the function uses for a stream the transcriber cannot serve: no transcriber configured. */
const NOT_CONFIGURED = 'not_configured';

function messageOf(data: unknown): Record<string, unknown> | null {
  if (typeof data !== 'string') return null;
  try {
    const parsed: unknown = JSON.parse(data);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export interface SpeechStreamOptions {
  /** The `jwt` the socket opens with; by default the coach's token (`visitorToken()`). */
  token?: string | Promise<string>;
  createSocket?: (url: string) => WebSocket;
}

/**
 * Opens a stream; the handlers hear its words and how it ended. What the page sends while the
 * token is fetched or the socket opens is kept and sent, in order, once it is open.
 */
export function openSpeechStream(handlers: SpeechStreamHandlers, options: SpeechStreamOptions = {}): SpeechStream {
  const { token = visitorToken(), createSocket = (url: string) => new WebSocket(url) } = options;
  let socket: WebSocket | null = null;
  let done = false;
  /** What the page sent before the socket opened, in order. */
  const waiting: (ArrayBuffer | string)[] = [];
  let failure: SpeechRecognitionError | null = null;

  const finish = (error: SpeechRecognitionError) => {
    if (done) return;
    done = true;
    handlers.failed(error);
  };
  const deliver = (data: ArrayBuffer | string) => {
    if (done) return;
    if (socket === null || socket.readyState === WebSocket.CONNECTING) waiting.push(data);
    else if (socket.readyState === WebSocket.OPEN) socket.send(data);
  };

  const connect = (jwt: string) => {
    if (done) return;
    let opened: WebSocket;
    try {
      opened = createSocket(speechStreamUrl(jwt));
    } catch (error) {
      // A page whose CSP forbids the address, or a browser without WebSocket: the caller falls back.
      finish(new SpeechRecognitionError('failed', error instanceof Error ? error.message : 'no socket'));
      return;
    }
    socket = opened;
    listen(opened);
  };

  const listen = (ws: WebSocket) => {
    ws.binaryType = 'arraybuffer';
    ws.addEventListener('open', () => {
      for (const data of waiting.splice(0)) ws.send(data);
    });
    ws.addEventListener('message', (event: MessageEvent<unknown>) => {
      if (done) return;
      const message = messageOf(event.data);
      if (!message) return;
      const text = typeof message.text === 'string' ? message.text : '';
      if (message.type === 'partial') handlers.partial(text);
      else if (message.type === 'final') handlers.final(text.trim());
      else if (message.type === 'error') {
        const error = typeof message.error === 'object' && message.error !== null ? (message.error as Record<string, unknown>) : {};
        const code = typeof error.code === 'string' ? error.code : 'failed';
        failure = new SpeechRecognitionError(code === NOT_CONFIGURED ? 'unsupported' : 'failed', typeof error.message === 'string' ? error.message : code);
      }
    });
    ws.addEventListener('close', (event: CloseEvent) => {
      finish(failure ?? new SpeechRecognitionError('failed', `stream closed (${String(event.code)})`));
    });
  };

  if (typeof token === 'string') connect(token);
  else
    token.then(connect, (error: unknown) => {
      // No session (the human check failed): the caller falls back, and its upload says why.
      finish(new SpeechRecognitionError('failed', error instanceof Error ? error.message : 'no token'));
    });

  return {
    send(samples) {
      if (samples.length > 0) deliver(toPcm16(samples));
    },
    commit() {
      deliver(JSON.stringify({ type: 'commit' }));
    },
    close() {
      if (done) return;
      done = true;
      if (socket && (socket.readyState === WebSocket.CONNECTING || socket.readyState === WebSocket.OPEN)) socket.close(1000);
    },
  };
}
