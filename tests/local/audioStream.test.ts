/**
 * The byte-stream helper of the tts function: audio passes through as it arrives, and an empty
 * answer is told apart from audio before anything is sent.
 */
import { describe, expect, it } from 'vitest';
import { streamUnlessEmpty } from '../../supabase/functions/tts/audioStream';

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      chunks.forEach((chunk) => controller.enqueue(chunk));
      controller.close();
    },
  });
}

describe('tts audio streams', () => {
  it('tells an empty body apart from audio without holding the audio back', async () => {
    expect(await streamUnlessEmpty(streamOf([new Uint8Array(0)]))).toBeNull();
    const audio = await streamUnlessEmpty(streamOf([new Uint8Array(0), new Uint8Array([7]), new Uint8Array([8])]));
    expect(new Uint8Array(await new Response(audio).arrayBuffer())).toEqual(new Uint8Array([7, 8]));
  });
});
