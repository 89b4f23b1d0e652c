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

/** The whole body, for the cache, which stores complete files only. */
export function readAll(body: ReadableStream<Uint8Array>): Promise<ArrayBuffer> {
  return new Response(body).arrayBuffer();
}
