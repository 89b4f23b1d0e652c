import { afterEach, describe, expect, it, vi } from 'vitest';
import { env } from '../config/env';
import { catalogue } from '../../supabase/functions/_shared/catalogue';
import { openSpeechStream, speechStreamCapability, speechStreamUrl, toPcm16, type SpeechStreamHandlers } from './speechStream';
import { SpeechRecognitionError } from './speechRecognition';
import { installFetch, jsonResponse } from '../../tests/support/browser/browserFakes';

/** A WebSocket the test plays the server of. */
class ServerSide extends EventTarget {
  readyState: number = WebSocket.CONNECTING;
  binaryType = 'blob';
  readonly sent: (ArrayBuffer | string)[] = [];
  closedWith: number | null = null;
  constructor(readonly url: string) {
    super();
  }
  send(data: ArrayBuffer | string) {
    this.sent.push(data);
  }
  close(code: number) {
    this.closedWith = code;
    this.readyState = WebSocket.CLOSED;
    this.dispatchEvent(new CloseEvent('close', { code }));
  }
  open() {
    this.readyState = WebSocket.OPEN;
    this.dispatchEvent(new Event('open'));
  }
  say(message: unknown) {
    this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(message) }));
  }
  hangUp(code: number) {
    this.readyState = WebSocket.CLOSED;
    this.dispatchEvent(new CloseEvent('close', { code }));
  }
}

function connect() {
  const opened: ServerSide[] = [];
  const heard: string[] = [];
  const failures: SpeechRecognitionError[] = [];
  const handlers: SpeechStreamHandlers = {
    partial: (text) => heard.push(`partial ${text}`),
    final: (text) => heard.push(`final ${text}`),
    failed: (error) => failures.push(error),
  };
  const stream = openSpeechStream(handlers, {
    token: env.VITE_SUPABASE_ANON_KEY,
    createSocket: (url) => {
      const server = new ServerSide(url);
      opened.push(server);
      return server as unknown as WebSocket;
    },
  });
  const [server] = opened;
  if (!server) throw new Error('no socket opened');
  return { stream, server, heard, failures };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('openSpeechStream', () => {
  it('opens the function\'s socket with the anon key as its jwt and binary frames as ArrayBuffers', () => {
    const { server } = connect();
    expect(server.url).toBe(speechStreamUrl());
    const url = new URL(server.url);
    expect(url.protocol).toBe(env.VITE_SUPABASE_URL.startsWith('https:') ? 'wss:' : 'ws:');
    expect(url.pathname).toBe('/functions/v1/stt-stream');
    expect(url.searchParams.get('jwt')).toBe(env.VITE_SUPABASE_ANON_KEY);
    expect(server.binaryType).toBe('arraybuffer');
  });

  it('keeps what is sent before the socket opens, then sends it in order as 16-bit PCM and commits', () => {
    const { stream, server } = connect();
    stream.send(new Float32Array([0, 0.5, -1, 1]));
    stream.commit();
    expect(server.sent).toEqual([]);
    server.open();
    stream.send(new Float32Array([-0.5]));
    expect(server.sent).toHaveLength(3);
    expect([...new Int16Array(server.sent[0] as ArrayBuffer)]).toEqual([0, 16384, -32768, 32767]);
    expect(server.sent[1]).toBe('{"type":"commit"}');
    expect([...new Int16Array(server.sent[2] as ArrayBuffer)]).toEqual([-16384]);
  });

  it('hands over partial and final words', () => {
    const { server, heard, failures } = connect();
    server.open();
    server.say({ type: 'ready' });
    server.say({ type: 'partial', text: 'Ich bin' });
    server.say({ type: 'final', text: ' Ich bin gestresst. ' });
    expect(heard).toEqual(['partial Ich bin', 'final Ich bin gestresst.']);
    expect(failures).toEqual([]);
  });

  it('fails with the function\'s message when it ends the stream, and as unsupported without a transcriber', () => {
    const broken = connect();
    broken.server.open();
    broken.server.say({ type: 'error', error: { message: catalogue.processingFailed, code: 'provider_error' } });
    broken.server.hangUp(4502);
    expect(broken.failures).toEqual([new SpeechRecognitionError('failed', catalogue.processingFailed)]);
    expect(broken.failures[0]?.problem).toBe('failed');

    const unconfigured = connect();
    unconfigured.server.open();
    unconfigured.server.say({ type: 'error', error: { message: catalogue.voiceConfigMissing, code: 'not_configured' } });
    unconfigured.server.hangUp(4503);
    expect(unconfigured.failures[0]?.problem).toBe('unsupported');

    const lost = connect();
    lost.server.hangUp(1006);
    expect(lost.failures[0]?.problem).toBe('failed');
  });

  it('calls no handler once the page closed the stream, and fails when no socket can be opened', async () => {
    const { stream, server, heard, failures } = connect();
    server.open();
    stream.close();
    expect(server.closedWith).toBe(1000);
    server.say({ type: 'final', text: 'zu spät' });
    expect(heard).toEqual([]);
    expect(failures).toEqual([]);

    const refused: SpeechRecognitionError[] = [];
    openSpeechStream(
      { partial: () => undefined, final: () => undefined, failed: (error) => refused.push(error) },
      {
        token: env.VITE_SUPABASE_ANON_KEY,
        createSocket: () => {
          throw new Error('Refused to connect: Content Security Policy');
        },
      },
    );
    await Promise.resolve();
    expect(refused.map((error) => error.problem)).toEqual(['failed']);
  });

  it('opens with the visitor\'s session token once it is there, keeping what was sent meanwhile', async () => {
    let grant: (token: string) => void = () => undefined;
    const session = new Promise<string>((resolve) => {
      grant = resolve;
    });
    const opened: ServerSide[] = [];
    const stream = openSpeechStream(
      { partial: () => undefined, final: () => undefined, failed: () => undefined },
      {
        token: session,
        createSocket: (url) => {
          const server = new ServerSide(url);
          opened.push(server);
          return server as unknown as WebSocket;
        },
      },
    );
    stream.send(new Float32Array([0.5]));
    stream.commit();
    expect(opened).toEqual([]);
    grant('visitor-session-token');
    await session;
    const [server] = opened;
    expect(new URL(server?.url ?? 'ws://none').searchParams.get('jwt')).toBe('visitor-session-token');
    server?.open();
    expect(server?.sent.map((data) => (typeof data === 'string' ? data : 'audio'))).toEqual(['audio', '{"type":"commit"}']);
  });

  it('fails without opening a socket when the visitor gets no session, and opens none once closed', async () => {
    const failures: SpeechRecognitionError[] = [];
    let sockets = 0;
    const createSocket = () => {
      sockets += 1;
      return new ServerSide('ws://unused') as unknown as WebSocket;
    };
    const handlers = { partial: () => undefined, final: () => undefined, failed: (error: SpeechRecognitionError) => failures.push(error) };
    const refused = Promise.reject(new Error('human check failed: timeout'));
    openSpeechStream(handlers, { token: refused, createSocket });
    await refused.catch(() => undefined);
    await Promise.resolve();
    expect(failures.map((error) => error.problem)).toEqual(['failed']);

    const late = Promise.resolve('visitor-session-token');
    openSpeechStream(handlers, { token: late, createSocket }).close();
    await late;
    expect(sockets).toBe(0);
    expect(failures).toHaveLength(1);
  });
});

describe('toPcm16', () => {
  it('clamps to the 16-bit range', () => {
    expect([...new Int16Array(toPcm16(new Float32Array([2, -2, 0.25])))]).toEqual([32767, -32768, 8192]);
  });
});

describe('speechStreamCapability', () => {
  it('asks the function once per page view whether streaming is available and meant for every browser', async () => {
    const requests = installFetch(() => jsonResponse(200, { available: true, everyBrowser: true }));
    await expect(speechStreamCapability()).resolves.toEqual({ available: true, everyBrowser: true });
    await expect(speechStreamCapability()).resolves.toEqual({ available: true, everyBrowser: true });
    expect(requests).toHaveLength(1);
    expect(requests[0]?.url).toBe(`${env.VITE_SUPABASE_URL}/functions/v1/stt-stream`);
  });
});
