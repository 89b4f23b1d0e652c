/**
 * The byte-stream helpers of the tts function: audio passes through as it arrives, and a stream
 * that must outlive some bookkeeping (the spend record) ends only after it.
 */
import { describe, expect, it } from 'vitest';
import { endingAfter, streamUnlessEmpty } from '../../supabase/functions/tts/audioStream';

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      chunks.forEach((chunk) => controller.enqueue(chunk));
      controller.close();
    },
  });
}

describe('tts audio streams', () => {
  it('passes the bytes through at once but ends only after the pending work has settled', async () => {
    let settle: () => void = () => undefined;
    const pending = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const reader = endingAfter(streamOf([new Uint8Array([1, 2]), new Uint8Array([3])]), pending).getReader();
    expect((await reader.read()).value).toEqual(new Uint8Array([1, 2]));
    expect((await reader.read()).value).toEqual(new Uint8Array([3]));
    let ended = false;
    const end = reader.read().then((result) => {
      ended = result.done;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ended).toBe(false);
    settle();
    await end;
    expect(ended).toBe(true);
  });

  it('tells an empty body apart from audio without holding the audio back', async () => {
    expect(await streamUnlessEmpty(streamOf([new Uint8Array(0)]))).toBeNull();
    const audio = await streamUnlessEmpty(streamOf([new Uint8Array(0), new Uint8Array([7]), new Uint8Array([8])]));
    expect(new Uint8Array(await new Response(audio).arrayBuffer())).toEqual(new Uint8Array([7, 8]));
  });
});
