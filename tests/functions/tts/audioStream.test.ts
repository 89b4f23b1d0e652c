/**
 * The greeting cache's stream helper (supabase/functions/tts/audioStream.ts): the listener hears the
 * provider's audio as it arrives, and only a take that was streamed to its end is stored.
 */
import { describe, expect, it } from 'vitest';

import { storeWhileStreaming } from '../../../supabase/functions/tts/audioStream';

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

describe('storeWhileStreaming', () => {
  it('passes every chunk through and stores the whole take once the provider has ended', async () => {
    const { body, controller } = providerStream();
    const stored: Uint8Array[] = [];
    const reader = storeWhileStreaming(body, (audio) => {
      stored.push(new Uint8Array(audio));
      return Promise.resolve();
    }).getReader();
    controller.enqueue(new Uint8Array([1, 2]));
    expect((await reader.read()).value).toEqual(new Uint8Array([1, 2]));
    controller.enqueue(new Uint8Array([3]));
    expect((await reader.read()).value).toEqual(new Uint8Array([3]));
    expect(stored).toEqual([]);
    controller.close();
    expect((await reader.read()).done).toBe(true);
    expect(stored).toEqual([new Uint8Array([1, 2, 3])]);
  });

  it('stores nothing when the listener goes away while a read from the provider waits', async () => {
    const { body, controller } = providerStream();
    const stored: number[] = [];
    const reader = storeWhileStreaming(body, (audio) => {
      stored.push(audio.byteLength);
      return Promise.resolve();
    }).getReader();
    controller.enqueue(new Uint8Array(4_800));
    await reader.read();
    // The next read waits for the provider; the listener leaves (barge-in, a closed tab). The
    // cancelled provider read then resolves as done, as if the take had ended.
    const waiting = reader.read();
    await tick();
    await reader.cancel('listener gone');
    expect((await waiting).done).toBe(true);
    await tick();
    expect(stored).toEqual([]);
  });

  it('stores nothing when the listener goes away between reads', async () => {
    const { body, controller } = providerStream();
    const stored: number[] = [];
    const stream = storeWhileStreaming(body, (audio) => {
      stored.push(audio.byteLength);
      return Promise.resolve();
    });
    const reader = stream.getReader();
    controller.enqueue(new Uint8Array(4_800));
    await reader.read();
    await tick();
    await reader.cancel('listener gone');
    await tick();
    expect(stored).toEqual([]);
  });
});
