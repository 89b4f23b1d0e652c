/**
 * One synthesis at the provider, reduced to what the handler needs: audio that has started to
 * arrive, or the catalogue error to answer with. Errors are decided before the first byte goes to
 * the browser, so a failure is always a proper JSON answer and never a truncated file. A provider
 * failure is answered with the catalogue's 'API-Fehler: {status}' only; what the provider said
 * goes to the function's log, since it can name the account's plan or remaining credits.
 */
import { streamUnlessEmpty } from './audioStream.ts';
import { providerErrorDetail, requestSpeech, type ElevenLabsConfig, type SpeechRequest } from './elevenLabs.ts';
import { providerStatusMessage, ttsMessages } from './messages.ts';

export type Synthesis =
  | { ok: true; audio: ReadableStream<Uint8Array> }
  /** `billed`: the provider accepted the text (it answered 200), so its characters count. */
  | { ok: false; message: string; code: 'provider_error' | 'empty_audio'; billed: boolean };

/** What the function answers when the provider cannot be reached at all (no status of its own). */
const UNREACHABLE_STATUS = 502;

/** `signal`: the visitor left, so the synthesis is stopped at the provider too. */
export async function synthesize(provider: ElevenLabsConfig, request: SpeechRequest, signal?: AbortSignal): Promise<Synthesis> {
  let upstream: Response;
  try {
    upstream = await requestSpeech(provider, request, signal);
  } catch (error) {
    // Given up on (no status in time, or the visitor left): the text may have reached the
    // provider, so it counts; a connection that failed outright never got there.
    const abandoned = error instanceof Error && error.name === 'AbortError';
    if (!signal?.aborted) console.error(`[tts] ElevenLabs ${abandoned ? 'did not answer in time' : 'unreachable'}:`, error instanceof Error ? error.message : String(error));
    return { ok: false, message: providerStatusMessage(UNREACHABLE_STATUS), code: 'provider_error', billed: abandoned };
  }
  if (!upstream.ok) {
    const body = await upstream.text().catch(() => '');
    console.error(`[tts] ElevenLabs answered ${String(upstream.status)}: ${providerErrorDetail(body)}`);
    return { ok: false, message: providerStatusMessage(upstream.status), code: 'provider_error', billed: false };
  }
  const audio = upstream.body ? await streamUnlessEmpty(upstream.body) : null;
  if (!audio) return { ok: false, message: ttsMessages.emptyAudio, code: 'empty_audio', billed: true };
  return { ok: true, audio };
}
