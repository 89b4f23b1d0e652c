/**
 * `POST /tts` `{ text, cache?, voiceSettings?, format?, previousText? }` → audio synthesised by
 * ElevenLabs with the key held here: `audio/mpeg` (format 'mp3', the default) or raw 16-bit mono
 * PCM (`audio/pcm`, format 'pcm', sample rate in `x-sample-rate`). The audio streams through as it
 * arrives, so playback starts with the first bytes; a cached synthesis (the greeting, `cache: true`)
 * streams too, from the cache or from the provider while it is being stored. Response headers tell
 * the browser what ElevenLabs cannot do: `x-playback-rate` (the rest of the speed) and `x-pitch`;
 * `x-tts-cache` says hit or miss when the cache was asked for.
 *
 * `GET /tts` → `{ available }`: whether a voice provider is configured, so the page learns once that
 * it must use the browser's own voice instead of asking (and failing) for every sentence.
 */
import { corsHeaders, preflight, refuseForeignOrigin, withAllowedOrigin } from '../_shared/cors.ts';
import type { Spending } from '../_shared/guard.ts';
import { errorResponse, json } from '../_shared/http.ts';
import { reportBudgetFit } from '../_shared/budgetFit.ts';
import { identify } from '../_shared/guard.ts';
import { declaredTooLarge, MAX_JSON_BODY_BYTES, readJsonUpTo } from '../_shared/requestBody.ts';
import { serviceClient, type ServiceClient } from '../_shared/supabase.ts';
import { openCachedAudio, storeCachedAudio, ttsCacheKey } from '../_shared/ttsCache.ts';
import { cacheableText, pruneTtsCache } from '../_shared/ttsCachePolicy.ts';
import { admitSynthesis, untilStreamed } from './admission.ts';
import { storeWhileStreaming, streamUnlessEmpty } from './audioStream.ts';
import { elevenLabsConfig, PCM_SAMPLE_RATE, type ElevenLabsConfig, type SpeechRequest } from './elevenLabs.ts';
import { ttsMessages } from './messages.ts';
import { splitVoiceSettings, type SplitVoiceSettings } from './providerSettings.ts';
import { parseTtsRequest, type AudioFormat, type TtsRequest } from './request.ts';
import { synthesize } from './synthesis.ts';
import type { VoiceSettings } from '../_shared/voiceSettings.ts';
import { activeVoiceSettings, chooseVoice, overridesVoice, type VoiceChoice } from './voiceChoice.ts';

const CONTENT_TYPES: Record<AudioFormat, string> = { mp3: 'audio/mpeg', pcm: 'audio/pcm' };

function audioResponse(
  audio: ReadableStream<Uint8Array> | ArrayBuffer,
  format: AudioFormat,
  voice: SplitVoiceSettings,
  cache: 'hit' | 'miss' | null,
): Response {
  const headers: Record<string, string> = {
    ...corsHeaders(),
    'content-type': CONTENT_TYPES[format],
    'cache-control': 'no-store',
    'x-playback-rate': String(voice.playbackRate),
    'x-pitch': String(voice.pitch),
  };
  if (format === 'pcm') headers['x-sample-rate'] = String(PCM_SAMPLE_RATE);
  if (cache) headers['x-tts-cache'] = cache;
  return new Response(audio, { status: 200, headers });
}

/**
 * `audio` as the response's body, with the spend settled at `characters` while it streams (the
 * settlement is a database round trip that need not come before the first byte) and the client's
 * slot released once the audio has streamed and the settlement is done.
 */
function settledWhileStreaming(
  audio: ReadableStream<Uint8Array>,
  gate: Spending & { release: () => Promise<void> },
  characters: number,
): ReadableStream<Uint8Array> {
  const settled = gate.settle(characters);
  return untilStreamed(audio, async () => {
    await settled;
    await gate.release();
  });
}

/**
 * The cached take of this text and voice, or a fresh one that is stored for the next visitor. Both
 * stream from their first bytes (the greeting starts as soon as they arrive) and hold the client's
 * slot until they have streamed.
 */
async function cachedSpeech(
  gate: Spending & { release: () => Promise<void> },
  handOver: () => void,
  supabase: ServiceClient,
  provider: ElevenLabsConfig,
  speech: SpeechRequest,
  voice: SplitVoiceSettings,
): Promise<Response> {
  const key = await ttsCacheKey({
    voiceId: provider.voiceId,
    model: provider.model,
    settings: voice.provider,
    text: speech.text,
    format: speech.format,
  });
  const stored = await openCachedAudio(supabase, key);
  const cached = stored ? await streamUnlessEmpty(stored).catch(() => null) : null;
  if (cached) {
    handOver();
    return audioResponse(settledWhileStreaming(cached, gate, 0), speech.format, voice, 'hit');
  }

  const synthesis = await synthesize(provider, speech);
  if (!synthesis.ok) {
    await gate.settle(synthesis.billed ? speech.text.length : 0);
    return errorResponse(502, synthesis.message, synthesis.code);
  }
  // Stored once the provider's stream has ended, before the response ends (audioStream.ts); a
  // failed store only means the next request synthesises again.
  const audio = storeWhileStreaming(synthesis.audio, async (complete) => {
    if (await storeCachedAudio(supabase, key, complete, CONTENT_TYPES[speech.format])) await pruneTtsCache(supabase, key);
  });
  handOver();
  return audioResponse(settledWhileStreaming(audio, gate, speech.text.length), speech.format, voice, 'miss');
}

export async function handle(request: Request, env: Record<string, string>): Promise<Response> {
  return withAllowedOrigin(request, env, await respond(request, env));
}

async function respond(request: Request, env: Record<string, string>): Promise<Response> {
  if (request.method === 'OPTIONS') return preflight(request);
  if (new URL(request.url).pathname.replace(/\/+$/, '') !== '/tts') return errorResponse(404, 'Not found', 'not_found');
  if (request.method === 'GET') return json(200, { available: elevenLabsConfig(env) !== null });
  if (request.method !== 'POST') {
    return errorResponse(405, 'Method not allowed', 'method_not_allowed', { Allow: 'GET, POST, OPTIONS' });
  }

  // Nothing is read or spent for a page of another site, or for a body over the cap.
  const foreign = refuseForeignOrigin(request, env);
  if (foreign) return foreign;
  if (declaredTooLarge(request, MAX_JSON_BODY_BYTES)) return errorResponse(413, ttsMessages.invalidText, 'too_large');
  reportBudgetFit('tts', env);
  const caller = identify(request, env, 'tts');
  if (!caller.ok) return caller.response;

  const body = await readJsonUpTo(request, MAX_JSON_BODY_BYTES);
  if (!body.ok) {
    return body.problem === 'too_large'
      ? errorResponse(413, ttsMessages.invalidText, 'too_large')
      : errorResponse(408, 'the request body did not arrive in time', 'body_timeout');
  }
  const tts = parseTtsRequest(body.value);
  if (!tts) return errorResponse(400, ttsMessages.invalidText, 'invalid_text');

  // Per-client limits, the budgets of the client, its network and session and the day's
  // character cap, shared by all instances (./admission.ts): the text's characters reserved and a
  // concurrent slot held until its audio has streamed. A refusal (429, or 503 once the cap is
  // reached) leaves the browser to its own de-DE voice.
  const provider = elevenLabsConfig(env);
  const supabase = serviceClient(env);
  // The active voice is a database round trip on the way to the first audio byte, so it is read
  // while the request is admitted (a read, no spend); an admin's override does not use it.
  const activeVoice = provider ? activeVoiceSettings(supabase) : null;
  const gate = await admitSynthesis(caller, env, provider ? tts.text.length : null);
  if (!gate.ok) return gate.response;
  const slot = { handedOver: false };
  try {
    return await synthesis(request, tts, { supabase, provider, activeVoice }, gate, () => {
      slot.handedOver = true;
    });
  } finally {
    if (!slot.handedOver) {
      await gate.settle(0);
      await gate.release();
    }
  }
}

/** The answer of an admitted request; `handOver` passes the slot to a streamed answer. */
async function synthesis(
  request: Request,
  tts: TtsRequest,
  { supabase, provider, activeVoice }: { supabase: ServiceClient; provider: ElevenLabsConfig | null; activeVoice: Promise<VoiceSettings> | null },
  gate: Spending & { release: () => Promise<void> },
  handOver: () => void,
): Promise<Response> {
  // Without a provider the browser falls back to its own de-DE voice.
  if (!provider || !activeVoice) return errorResponse(503, ttsMessages.notConfigured, 'not_configured');

  // An admin's override costs the round trip to auth.
  const choice: VoiceChoice = overridesVoice(tts.voiceSettings)
    ? await chooseVoice(supabase, request, tts.voiceSettings)
    : { kind: 'active', settings: await activeVoice };
  if (choice.kind === 'invalid') return errorResponse(400, ttsMessages.invalidVoiceSettings, 'invalid_voice_settings');
  const voice = splitVoiceSettings(choice.settings);
  const speech: SpeechRequest = {
    text: tts.text,
    voiceSettings: voice.provider,
    format: tts.format,
    previousText: tts.previousText,
  };

  // Only the greeting is cached (../_shared/ttsCachePolicy.ts), and only in the saved voice: an
  // admin's unsaved sample would fill the bucket with one-off takes. Nor is a piece of a longer
  // answer: its take depends on what was said before it.
  if (tts.cache && cacheableText(tts.text) && choice.kind === 'active' && !speech.previousText) {
    return cachedSpeech(gate, handOver, supabase, provider, speech, voice);
  }

  // The visitor's leaving cuts the synthesis short (the provider stops too).
  const synthesis = await synthesize(provider, speech, request.signal);
  if (!synthesis.ok) {
    await gate.settle(synthesis.billed ? tts.text.length : 0);
    return errorResponse(502, synthesis.message, synthesis.code);
  }
  handOver();
  return audioResponse(settledWhileStreaming(synthesis.audio, gate, tts.text.length), tts.format, voice, null);
}
