/**
 * The tts function's admission: before its body is read, a synthesis reserves the most it can
 * cost, the text's limit or the body's size if smaller (a text never has more UTF-16 units than
 * its JSON body has bytes), and holds one of the client's concurrent slots (TTS_CONCURRENT_LIMIT)
 * until its audio has streamed. ElevenLabs bills the characters of `text` (`previous_text` is
 * context for the intonation, not billed), so a settled synthesis counts `text.length`; a cached
 * answer, a refused text and a provider error count nothing.
 */
import { admit, type Gate } from '../_shared/guard.ts';
import { declaredBodyBytes, MAX_JSON_BODY_BYTES } from '../_shared/requestBody.ts';
import { MAX_TEXT_CHARACTERS } from './request.ts';

export function admitSynthesis(request: Request, env: Record<string, string>, configured: boolean): Promise<Gate> {
  if (!configured) return admit(request, env, { fn: 'tts' });
  const body = Math.min(declaredBodyBytes(request) ?? MAX_JSON_BODY_BYTES, MAX_JSON_BODY_BYTES);
  return admit(request, env, { fn: 'tts', reserve: { kind: 'tts_characters', amount: Math.min(MAX_TEXT_CHARACTERS, body) }, stream: true });
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
