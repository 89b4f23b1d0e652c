/**
 * The tts function's stream helpers (supabase/functions/tts/audioStream.ts): an empty answer is
 * told apart from audio before anything is sent; the greeting cache's listener hears the
 * provider's audio as it arrives; the whole take is stored once the provider has sent it, also when
 * the listener went away before (the rest is read in the background); a take the provider breaks
 * off is never stored.
 */
import { describe, expect, it } from 'vitest';

import { storeWhileStreaming, streamUnlessEmpty } from '../../../supabase/functions/tts/audioStream';

/** A provider stream the test feeds by hand, so a read can be left waiting. */
function providerStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(started) {
      controller = started;
    },
  });
  return { body, controller };
}

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 10));

/** The helper with a store and a background that the test can look at. */
function passedThrough(body: ReadableStream<Uint8Array>, backgroundLimitMs?: number) {
  const stored: Uint8Array[] = [];
  const background: Promise<unknown>[] = [];
  const stream = storeWhileStreaming(
    body,
    (audio) => {
      stored.push(new Uint8Array(audio));
      return Promise.resolve();
    },
    (task) => background.push(task),
    backgroundLimitMs,
  );
  return { reader: stream.getReader(), stored, background };
}

describe('storeWhileStreaming', () => {
  it('passes every chunk through and stores the whole take once the provider has ended', async () => {
    const { body, controller } = providerStream();
    const { reader, stored, background } = passedThrough(body);
    controller.enqueue(new Uint8Array([1, 2]));
    expect((await reader.read()).value).toEqual(new Uint8Array([1, 2]));
    controller.enqueue(new Uint8Array([3]));
    expect((await reader.read()).value).toEqual(new Uint8Array([3]));
    expect(stored).toEqual([]);
    controller.close();
    expect((await reader.read()).done).toBe(true);
    expect(stored).toEqual([new Uint8Array([1, 2, 3])]);
    expect(background).toEqual([]);
  });

  it('reads the rest in the background when the listener goes away while a read waits, and stores the whole take', async () => {
    const { body, controller } = providerStream();
    const { reader, stored, background } = passedThrough(body);
    controller.enqueue(new Uint8Array([1, 2]));
    await reader.read();
    // The next read waits for the provider; the listener leaves (barge-in, a closed tab).
    const waiting = reader.read();
    await tick();
    await reader.cancel('listener gone');
    expect((await waiting).done).toBe(true);
    expect(background).toHaveLength(1);
    // Nothing is stored from the listener's part alone.
    await tick();
    expect(stored).toEqual([]);
    controller.enqueue(new Uint8Array([3]));
    controller.enqueue(new Uint8Array([4, 5]));
    await tick();
    expect(stored).toEqual([]);
    controller.close();
    await background[0];
    expect(stored).toEqual([new Uint8Array([1, 2, 3, 4, 5])]);
  });

  it('reads the rest when the listener goes away between reads', async () => {
    const { body, controller } = providerStream();
    const { reader, stored, background } = passedThrough(body);
    controller.enqueue(new Uint8Array([1]));
    controller.enqueue(new Uint8Array([2]));
    await reader.read();
    await tick();
    await reader.cancel('listener gone');
    controller.enqueue(new Uint8Array([3]));
    controller.close();
    await background[0];
    expect(stored).toEqual([new Uint8Array([1, 2, 3])]);
  });

  it('stores nothing of a take the provider breaks off, before or after the listener went away', async () => {
    for (const leaveFirst of [false, true]) {
      const { body, controller } = providerStream();
      const { reader, stored, background } = passedThrough(body);
      controller.enqueue(new Uint8Array([1, 2]));
      await reader.read();
      if (leaveFirst) await reader.cancel('listener gone');
      controller.error(new Error('connection reset'));
      if (!leaveFirst) await expect(reader.read()).rejects.toThrow('connection reset');
      await Promise.all(background);
      await tick();
      expect(stored).toEqual([]);
    }
  });

  it('gives up on a provider that stalls after the listener went away, and stores nothing', async () => {
    const { body, controller } = providerStream();
    const { reader, stored, background } = passedThrough(body, 50);
    controller.enqueue(new Uint8Array([1, 2]));
    await reader.read();
    await reader.cancel('listener gone');
    controller.enqueue(new Uint8Array([3]));
    // No end ever comes: the background reading stops at its limit.
    await background[0];
    await tick();
    expect(stored).toEqual([]);
  });
});

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      chunks.forEach((chunk) => controller.enqueue(chunk));
      controller.close();
    },
  });
}

describe('streamUnlessEmpty', () => {
  it('tells an empty body apart from audio without holding the audio back', async () => {
    expect(await streamUnlessEmpty(streamOf([new Uint8Array(0)]))).toBeNull();
    const audio = await streamUnlessEmpty(streamOf([new Uint8Array(0), new Uint8Array([7]), new Uint8Array([8])]));
    expect(new Uint8Array(await new Response(audio).arrayBuffer())).toEqual(new Uint8Array([7, 8]));
  });
});
