/** Byte-stream helpers for passing provider audio through without buffering it. */
import { inBackground } from '../_shared/background.ts';

/**
 * Waits for the first non-empty chunk and returns a stream that replays it and then the rest, or
 * null when the body ends without a byte. That is how an empty answer is told apart from audio
 * before the response status is committed, while audio still flows as it arrives.
 */
export async function streamUnlessEmpty(body: ReadableStream<Uint8Array>): Promise<ReadableStream<Uint8Array> | null> {
  const reader = body.getReader();
  let first: Uint8Array | undefined;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return null;
    if (value.length > 0) {
      first = value;
      break;
    }
  }
  let pending: Uint8Array | undefined = first;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (pending) {
        controller.enqueue(pending);
        pending = undefined;
        return;
      }
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      // The listener went away (barge-in): stop downloading from the provider too.
      return reader.cancel(reason);
    },
  });
}

/** How long the rest of a take whose listener left may take to arrive (a greeting takes seconds). */
export const BACKGROUND_READ_LIMIT_MS = 30_000;

/**
 * Passes a stream through as it arrives and, once it has ended, hands the whole of it to `store`
 * (the greeting's cache) before the passed-through stream ends: the listener hears the first bytes
 * at once, and the response is complete only when the audio is stored, so an edge runtime that
 * stops an instance after its response does not lose the copy.
 *
 * A listener that goes away (a barge-in, a closed tab) does not cut the take short: it has been
 * paid for, so the rest is read from the provider and the whole take stored for the next visitor,
 * as background work (`keepAlive`, ../_shared/background.ts), for at most `backgroundLimitMs`. A
 * take the provider breaks off or does not finish in that time is never stored. Cancelling a
 * reader resolves its pending read as done, so that end would look like the end of a whole take:
 * the provider's reader is cancelled here only once nothing of it will be stored.
 */
export function storeWhileStreaming(
  body: ReadableStream<Uint8Array>,
  store: (audio: ArrayBuffer) => Promise<unknown>,
  keepAlive: (task: Promise<unknown>) => void = inBackground,
  backgroundLimitMs = BACKGROUND_READ_LIMIT_MS,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  let listening = true;
  /** The read under way for the listener, so the background reading continues after it. */
  let reading: Promise<unknown> = Promise.resolve();
  const keep = (value: Uint8Array) => {
    parts.push(value);
    size += value.length;
  };
  /** Once, whoever reaches the end first (the listener's read or the background one). */
  let storing: Promise<void> | null = null;
  const storeWhole = (): Promise<void> => {
    storing ??= (async () => {
      const audio = new Uint8Array(size);
      let offset = 0;
      for (const part of parts) {
        audio.set(part, offset);
        offset += part.length;
      }
      // A failed store only means the next request synthesises again.
      await store(audio.buffer).catch(() => undefined);
    })();
    return storing;
  };
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const step = reader.read().then(async ({ done, value }) => {
        if (!done) {
          keep(value);
          if (listening) controller.enqueue(value);
        } else if (listening) {
          await storeWhole();
          controller.close();
        }
      });
      reading = step.catch(() => undefined);
      return step;
    },
    cancel() {
      listening = false;
      // A provider that stalls is given up after a while; what it sent is then not stored.
      let overdue = false;
      const limit = setTimeout(() => {
        overdue = true;
        void reader.cancel().catch(() => undefined);
      }, backgroundLimitMs);
      const rest = reading
        .then(async () => {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            keep(value);
          }
          if (!overdue) await storeWhole();
        })
        .finally(() => clearTimeout(limit));
      keepAlive(rest.catch(() => reader.cancel().catch(() => undefined)));
    },
  });
}
