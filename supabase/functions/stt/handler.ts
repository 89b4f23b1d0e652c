/**
 * `POST /stt` (body: one recorded utterance, raw, with its Content-Type; optional
 * `x-audio-duration` in seconds) → `{ text }`: speech to text for browsers without their own speech
 * recognition (Firefox) or whose recognition service fails. German (`language=de`). At most 60 s and
 * 10 MB an utterance; the audio is passed to the provider and never stored. `text` is '' when
 * nothing was understood.
 *
 * `GET /stt` → `{ available }`: whether a provider is configured, so the page knows once whether it
 * can offer voice input without the browser's recogniser.
 */
import { preflight } from '../_shared/cors.ts';
import { errorResponse, json } from '../_shared/http.ts';
import { clientKey, createRateLimiter, limitFromEnv, type RateLimiter } from '../_shared/rateLimit.ts';
import { readUtterance } from './audio.ts';
import { sttMessages } from './messages.ts';
import { sttProvider, transcribe } from './providers.ts';

const DEFAULT_RATE_LIMIT = 30;
const RATE_WINDOW_MS = 60_000;

/** One limiter per configured limit, kept for the life of the instance (the env arrives per request). */
const limiters = new Map<number, RateLimiter>();

function limiterFor(env: Record<string, string>): RateLimiter {
  const limit = limitFromEnv(env.STT_RATE_LIMIT, DEFAULT_RATE_LIMIT);
  let limiter = limiters.get(limit);
  if (!limiter) {
    limiter = createRateLimiter(limit, RATE_WINDOW_MS);
    limiters.set(limit, limiter);
  }
  return limiter;
}

export async function handle(request: Request, env: Record<string, string>): Promise<Response> {
  if (request.method === 'OPTIONS') return preflight(request);
  if (new URL(request.url).pathname.replace(/\/+$/, '') !== '/stt') return errorResponse(404, 'Not found', 'not_found');
  const provider = sttProvider(env);
  if (request.method === 'GET') return json(200, { available: provider !== null });
  if (request.method !== 'POST') {
    return errorResponse(405, 'Method not allowed', 'method_not_allowed', { Allow: 'GET, POST, OPTIONS' });
  }

  const retryAfter = limiterFor(env).take(clientKey(request));
  if (retryAfter > 0) {
    return errorResponse(429, sttMessages.rateLimited, 'rate_limited', { 'Retry-After': String(retryAfter) });
  }
  if (!provider) return errorResponse(503, sttMessages.notConfigured, 'not_configured');

  const check = await readUtterance(request);
  if (!check.ok) {
    if (check.problem === 'type') return errorResponse(415, sttMessages.unsupportedType, 'unsupported_type');
    if (check.problem === 'size') return errorResponse(413, sttMessages.tooLarge, 'too_large');
    return errorResponse(400, sttMessages.empty, 'empty_audio');
  }
  const result = await transcribe(provider, check.utterance, request.signal);
  if (!result.ok) return errorResponse(502, sttMessages.failed, 'provider_error');
  return json(200, { text: result.text });
}
