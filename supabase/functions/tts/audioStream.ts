/** Byte-stream helpers for passing provider audio through without buffering it. */

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

/**
 * Passes a stream through as it arrives and, once it has ended, hands the whole of it to `store`
 * (the greeting's cache) before the passed-through stream ends: the listener hears the first bytes
 * at once, and the response is complete only when the audio is stored, so an edge runtime that
 * stops an instance after its response does not lose the copy. A listener that goes away cancels
 * the source; nothing is stored then, not even while a read from the provider is waiting.
 */
export function storeWhileStreaming(
  body: ReadableStream<Uint8Array>,
  store: (audio: ArrayBuffer) => Promise<unknown>,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  // Cancelling a reader resolves its pending read as done, so the end of a cancelled take looks
  // like the end of a complete one; only this flag tells them apart.
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (cancelled) return;
      if (!done) {
        parts.push(value);
        size += value.length;
        controller.enqueue(value);
        return;
      }
      const audio = new Uint8Array(size);
      let offset = 0;
      for (const part of parts) {
        audio.set(part, offset);
        offset += part.length;
      }
      // A failed store only means the next request synthesises again.
      await store(audio.buffer).catch(() => undefined);
      controller.close();
    },
    cancel(reason) {
      cancelled = true;
      return reader.cancel(reason);
    },
  });
}
