/**
 * One streamed turn: the page's microphone goes to the transcriber while the visitor speaks, its
 * words come back, and the seconds streamed are what is counted.
 *
 * The upgrade is accepted at once; admission runs while the handshake completes, so a refusal
 * reaches the page as a message and a close code it can read (a refused handshake would only tell
 * it "1006"). Admission reserves `MAX_STREAM_SECONDS` against the client's budget, its network's and
 * the day's cap and holds one of the client's stt slots, as an upload does. Audio that arrives before
 * the transcriber listens is kept and sent on. The seconds settled are the bytes sent on to the
 * transcriber at 16 kHz 16-bit (32,000 bytes a second): what it bills. A stream that would pass the
 * reserved seconds is cut (4413); one that sends nothing for `IDLE_MS` (4408), or stays open longer
 * than its seconds could take in real time, is closed.
 */
import { inBackground } from '../_shared/background.ts';
import { admit, type Gate } from '../_shared/guard.ts';
import { isRecord } from '../_shared/http.ts';
import type { DuplexSocket, SocketRuntime } from '../_shared/webSocket.ts';
import { sttMessages } from '../stt/messages.ts';
import { BYTES_PER_SECOND, closeCodes, closeReason, encodeMessage, parseClientMessage, type ServerMessage } from './protocol.ts';
import { audioChunk, commitChunk, mintToken, readProviderMessage, realtimeUrl, type StreamProvider } from './scribe.ts';

/** The longest turn, as for an upload (the message names it). */
export const MAX_STREAM_SECONDS = 60;
/** A stream that sends nothing for this long is closed. */
export const IDLE_MS = 10_000;
/** Beyond its seconds of audio, how long a stream may stay open (the last words, the commit). */
const GRACE_MS = 15_000;
/** From admission to the transcriber listening, at most. */
const CONNECT_TIMEOUT_MS = 10_000;

type Phase = 'admitting' | 'connecting' | 'streaming' | 'closed';

interface Failure {
  code: number;
  message: string;
  reason: string;
}

async function refusalOf(gate: Extract<Gate, { ok: false }>): Promise<Failure> {
  const body: unknown = await gate.response.json().catch(() => null);
  const error = isRecord(body) && isRecord(body.error) ? body.error : {};
  const message = typeof error.message === 'string' ? error.message : sttMessages.failed;
  const code = gate.response.status === 429 ? closeCodes.refused : closeCodes.unavailable;
  return { code, message, reason: gate.reason };
}

/**
 * Accepts the upgrade and relays one stream. `admission` carries the caller's credentials and
 * address for the guard; `provider` null answers "not configured" over the socket.
 */
export function relayStream(
  upgrade: Request,
  admission: Request,
  env: Record<string, string>,
  runtime: SocketRuntime,
  provider: StreamProvider | null,
): Response {
  let phase: Phase = 'admitting';
  let clientOpen = false;
  /** Messages for the page before its socket opened, and the close that follows them. */
  const toClient: ServerMessage[] = [];
  let closeWith: { code: number; reason: string } | null = null;
  /** Audio and commits before the transcriber listens, in order. */
  const pending: (Uint8Array | 'commit')[] = [];
  let received = 0;
  let sent = 0;
  let gate: Extract<Gate, { ok: true }> | null = null;
  let upstream: DuplexSocket | null = null;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let deadline: ReturnType<typeof setTimeout> | undefined;
  let connecting: ReturnType<typeof setTimeout> | undefined;
  let finished: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finished = resolve;
  });
  const maxBytes = MAX_STREAM_SECONDS * BYTES_PER_SECOND;
  /** Read after an await: the page or a timer may have ended the stream meanwhile. */
  const ended = () => phase === 'closed';

  const tell = (message: ServerMessage) => {
    if (clientOpen) client.send(encodeMessage(message));
    else toClient.push(message);
  };

  /** Ends the stream once: closes both sockets, settles what was sent on, frees the slot. */
  const end = (failure: Failure | null) => {
    if (phase === 'closed') return;
    phase = 'closed';
    clearTimeout(idle);
    clearTimeout(deadline);
    clearTimeout(connecting);
    if (failure) tell({ type: 'error', error: { message: failure.message, code: failure.reason } });
    closeWith = { code: failure?.code ?? closeCodes.normal, reason: closeReason(failure?.message ?? '') };
    // A socket still in its handshake is closed once open, after the messages queued for it.
    if (clientOpen) client.close(closeWith.code, closeWith.reason);
    upstream?.close(1000);
    const held = gate;
    void (held ? Promise.all([held.settle(sent / BYTES_PER_SECOND), held.release()]) : Promise.resolve()).finally(finished);
  };

  const providerFailed = () => end({ code: closeCodes.providerFailed, message: sttMessages.failed, reason: 'provider_error' });

  const forward = (item: Uint8Array | 'commit') => {
    if (!upstream) return;
    if (item === 'commit') {
      upstream.send(commitChunk());
      return;
    }
    upstream.send(audioChunk(item));
    sent += item.byteLength;
  };

  const restartIdle = () => {
    clearTimeout(idle);
    idle = setTimeout(() => end({ code: closeCodes.idle, message: sttMessages.empty, reason: 'idle' }), IDLE_MS);
  };

  const { socket: client, response } = runtime.upgradeWebSocket(upgrade, {
    open() {
      clientOpen = true;
      for (const message of toClient.splice(0)) client.send(encodeMessage(message));
      if (closeWith) client.close(closeWith.code, closeWith.reason);
    },
    message(data) {
      if (phase === 'closed') return;
      restartIdle();
      const message = parseClientMessage(data);
      if (message.type === 'invalid') {
        end({ code: closeCodes.badMessage, message: sttMessages.failed, reason: message.why });
        return;
      }
      if (message.type === 'audio') {
        if (received + message.bytes.byteLength > maxBytes) {
          end({ code: closeCodes.tooLong, message: sttMessages.tooLarge, reason: 'too_large' });
          return;
        }
        received += message.bytes.byteLength;
      }
      const item = message.type === 'audio' ? message.bytes : 'commit';
      if (phase === 'streaming') forward(item);
      else pending.push(item);
    },
    close() {
      clientOpen = false;
      end(null);
    },
  });

  const start = async () => {
    if (!provider) return end({ code: closeCodes.unavailable, message: sttMessages.notConfigured, reason: 'not_configured' });
    const admitted = await admit(admission, env, { fn: 'stt', reserve: { kind: 'stt_seconds', amount: MAX_STREAM_SECONDS }, stream: true });
    if (!admitted.ok) return end(await refusalOf(admitted));
    gate = admitted;
    if (ended()) {
      // The page left while it was admitted.
      await Promise.all([admitted.settle(0), admitted.release()]);
      return;
    }
    phase = 'connecting';
    deadline = setTimeout(() => end({ code: closeCodes.tooLong, message: sttMessages.tooLarge, reason: 'too_long' }), MAX_STREAM_SECONDS * 1000 + GRACE_MS);
    connecting = setTimeout(providerFailed, CONNECT_TIMEOUT_MS);
    const token = await mintToken(provider);
    if (ended()) return;
    if (!token) return providerFailed();
    upstream = runtime.connectWebSocket(realtimeUrl(provider, token), {
      open: () => undefined,
      message(data) {
        if (phase === 'closed') return;
        const event = readProviderMessage(data);
        if (event.kind === 'started' && phase === 'connecting') {
          phase = 'streaming';
          clearTimeout(connecting);
          for (const item of pending.splice(0)) forward(item);
          tell({ type: 'ready' });
        } else if (event.kind === 'partial' || event.kind === 'final') {
          tell({ type: event.kind, text: event.text });
        } else if (event.kind === 'error') {
          providerFailed();
        }
      },
      close() {
        // The transcriber never ends a stream the page still uses.
        if (phase !== 'closed') providerFailed();
      },
    });
  };

  restartIdle();
  const started = start().catch(() => providerFailed());
  // An instance stays up while the stream lasts (Supabase: a background task until the socket closes).
  inBackground(Promise.all([done, started]));
  return response;
}
