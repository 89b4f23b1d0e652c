/**
 * The tts function's admission: once its body has been read and checked, a synthesis reserves
 * what it will cost, the characters of its text (ElevenLabs bills the characters of `text`;
 * `previous_text` is context for the intonation, not billed), and holds one of the client's
 * concurrent slots (TTS_CONCURRENT_LIMIT) until its audio has streamed. A cached answer, a refused
 * text and a provider error settle nothing.
 */
import { admitCaller, type Caller, type Gate } from '../_shared/guard.ts';

export function admitSynthesis(caller: Caller, env: Record<string, string>, characters: number | null): Promise<Gate> {
  if (characters === null) return admitCaller(caller, env, { fn: 'tts' });
  return admitCaller(caller, env, { fn: 'tts', reserve: { kind: 'tts_characters', amount: characters }, stream: true });
}

/** `audio` passed through; `done` runs once when it has been read to the end, failed or was cancelled. */
export function untilStreamed(audio: ReadableStream<Uint8Array>, done: () => Promise<void>): ReadableStream<Uint8Array> {
  const reader = audio.getReader();
  let finished = false;
  const finish = async () => {
    if (finished) return;
    finished = true;
    await done();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (error) {
        await finish();
        controller.error(error);
        return;
      }
      if (next.done) {
        await finish();
        controller.close();
      } else controller.enqueue(next.value);
    },
    async cancel(reason) {
      await reader.cancel(reason).catch(() => undefined);
      await finish();
    },
  });
}
