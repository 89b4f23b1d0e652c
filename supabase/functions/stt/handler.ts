/**
 * `POST /stt` (body: one recorded utterance or segment of one, raw, with its Content-Type; optional
 * `x-audio-duration` in seconds and `x-previous-text`, URI-encoded, the words said just before it)
 * → `{ text }`: speech to text for browsers without their own speech recognition (Firefox) or whose
 * recognition service fails. German (`language=de`). At most 60 s and 10 MB an utterance; the audio
 * is passed to the provider and never stored. `text` is '' when nothing was understood.
 *
 * `GET /stt` → `{ available }`: whether a provider is configured, so the page knows once whether it
 * can offer voice input without the browser's recogniser.
 */
import { preflight, refuseForeignOrigin, withAllowedOrigin } from '../_shared/cors.ts';
import { inBackground } from '../_shared/background.ts';
import { admit } from '../_shared/guard.ts';
import { errorResponse, json } from '../_shared/http.ts';
import { declaredTooLarge } from '../_shared/requestBody.ts';
import { MAX_AUDIO_BYTES, MAX_COUNTED_SECONDS, readUtterance } from './audio.ts';
import { sttMessages } from './messages.ts';
import { previousTextOf } from './previousText.ts';
import { sttProvider, transcribe } from './providers.ts';

export async function handle(request: Request, env: Record<string, string>): Promise<Response> {
  return withAllowedOrigin(request, env, await respond(request, env));
}

async function respond(request: Request, env: Record<string, string>): Promise<Response> {
  if (request.method === 'OPTIONS') return preflight(request);
  if (new URL(request.url).pathname.replace(/\/+$/, '') !== '/stt') return errorResponse(404, 'Not found', 'not_found');
  const provider = sttProvider(env);
  if (request.method === 'GET') return json(200, { available: provider !== null });
  if (request.method !== 'POST') {
    return errorResponse(405, 'Method not allowed', 'method_not_allowed', { Allow: 'GET, POST, OPTIONS' });
  }
  // Nothing is read or spent for a page of another site, or for a body over the size limit.
  const foreign = refuseForeignOrigin(request, env);
  if (foreign) return foreign;
  if (declaredTooLarge(request, MAX_AUDIO_BYTES)) return errorResponse(413, sttMessages.tooLarge, 'too_large');
  if (!provider) return errorResponse(503, sttMessages.notConfigured, 'not_configured');

  // Per client per minute and per day, one utterance at a time, and the longest utterance
  // reserved against the client's budget and the day's cap before the audio is read. What is
  // settled afterwards is the audio's measured length, only when the provider may bill it.
  const gate = await admit(request, env, { fn: 'stt', reserve: { kind: 'stt_seconds', amount: MAX_COUNTED_SECONDS }, stream: true });
  if (!gate.ok) return gate.response;
  try {
    const check = await readUtterance(request);
    if (!check.ok) {
      if (check.problem === 'type') return errorResponse(415, sttMessages.unsupportedType, 'unsupported_type');
      if (check.problem === 'size') return errorResponse(413, sttMessages.tooLarge, 'too_large');
      return errorResponse(400, sttMessages.empty, 'empty_audio');
    }
    const result = await transcribe(provider, check.utterance, { signal: request.signal, previousText: previousTextOf(request) });
    // Neither round trip waits in front of the visitor's words. The slot's release is sent now,
    // before the answer, so it reaches the database ahead of the next segment's admission; the
    // seconds are settled after the answer (until then the reservation counts at its maximum).
    inBackground(Promise.all([gate.release(), gate.settle(result.ok || result.billed ? check.utterance.seconds : 0)]));
    if (!result.ok) return errorResponse(502, sttMessages.failed, 'provider_error');
    return json(200, { text: result.text });
  } finally {
    await gate.settle(0);
    await gate.release();
  }
}
