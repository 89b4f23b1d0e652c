/**
 * `POST /stt` (body: one segment of the visitor's speech as a 16 kHz mono 16-bit PCM WAV, see
 * ./audio.ts; optional `x-previous-text`, URI-encoded, the words said just before it) → `{ text }`:
 * speech to text for browsers without their own speech recognition (Firefox) or whose recognition
 * service fails. German (`language=de`). At most 60 s a segment; the audio is passed to the
 * provider and never stored. `text` is '' when nothing was understood.
 *
 * `GET /stt` → `{ available }`: whether a provider is configured, so the page knows once whether it
 * can offer voice input without the browser's recogniser.
 */
import { preflight, refuseForeignOrigin, withAllowedOrigin } from '../_shared/cors.ts';
import { inBackground } from '../_shared/background.ts';
import { reportBudgetFit } from '../_shared/budgetFit.ts';
import { admitCaller, identify } from '../_shared/guard.ts';
import { errorResponse, json } from '../_shared/http.ts';
import { declaredTooLarge } from '../_shared/requestBody.ts';
import { MAX_AUDIO_BYTES, readUtterance, type AudioCheck } from './audio.ts';
import { sttMessages } from './messages.ts';
import { previousTextOf } from './previousText.ts';
import { sttProvider, transcribe } from './providers.ts';

function refusal(problem: Extract<AudioCheck, { ok: false }>['problem']): Response {
  if (problem === 'type') return errorResponse(415, sttMessages.unsupportedType, 'unsupported_type');
  if (problem === 'size') return errorResponse(413, sttMessages.tooLarge, 'too_large');
  if (problem === 'slow') return errorResponse(408, sttMessages.tooSlow, 'body_timeout');
  return errorResponse(400, sttMessages.empty, 'empty_audio');
}

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
  reportBudgetFit('stt', env);
  const caller = identify(request, env, 'stt');
  if (!caller.ok) return caller.response;

  // The audio is read and checked first: its bytes say how many seconds it is, and that is what
  // is reserved against the budgets and the day's cap, together with the per-client limits and one
  // utterance at a time. What is settled afterwards is the same, when the provider may bill it.
  const check = await readUtterance(request);
  if (!check.ok) return refusal(check.problem);
  const { utterance } = check;
  const gate = await admitCaller(caller, env, { fn: 'stt', reserve: { kind: 'stt_seconds', amount: utterance.seconds }, stream: true });
  if (!gate.ok) return gate.response;
  try {
    const result = await transcribe(provider, utterance, { signal: request.signal, previousText: previousTextOf(request) });
    // Neither round trip waits in front of the visitor's words. The slot's release is sent now,
    // before the answer, so it reaches the database ahead of the next segment's admission; the
    // seconds are settled after the answer (until then the reservation counts them already).
    inBackground(Promise.all([gate.release(), gate.settle(result.ok || result.billed ? utterance.seconds : 0)]));
    if (!result.ok) return errorResponse(502, sttMessages.failed, 'provider_error');
    return json(200, { text: result.text });
  } finally {
    await gate.settle(0);
    await gate.release();
  }
}
