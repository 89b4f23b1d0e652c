/**
 * One synthesis at the provider, reduced to what the handler needs: audio that has started to
 * arrive, or the catalogue error to answer with. Errors are decided before the first byte goes to
 * the browser, so a failure is always a proper JSON answer and never a truncated file.
 */
import { streamUnlessEmpty } from './audioStream.ts';
import { providerErrorMessage, requestSpeech, type ElevenLabsConfig, type SpeechRequest } from './elevenLabs.ts';
import { providerStatusMessage, ttsMessages } from './messages.ts';

export type Synthesis =
  | { ok: true; audio: ReadableStream<Uint8Array> }
  | { ok: false; message: string; code: 'provider_error' | 'empty_audio' };

/** What the function answers when the provider cannot be reached at all (no status of its own). */
const UNREACHABLE_STATUS = 502;

export async function synthesize(provider: ElevenLabsConfig, request: SpeechRequest): Promise<Synthesis> {
  let upstream: Response;
  try {
    upstream = await requestSpeech(provider, request);
  } catch {
    return { ok: false, message: providerStatusMessage(UNREACHABLE_STATUS), code: 'provider_error' };
  }
  if (!upstream.ok) {
    const body = await upstream.text().catch(() => '');
    return { ok: false, message: providerErrorMessage(upstream.status, body), code: 'provider_error' };
  }
  const audio = upstream.body ? await streamUnlessEmpty(upstream.body) : null;
  if (!audio) return { ok: false, message: ttsMessages.emptyAudio, code: 'empty_audio' };
  return { ok: true, audio };
}
