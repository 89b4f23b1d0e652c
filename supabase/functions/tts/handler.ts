/**
 * `POST /tts` `{ text, cache?, voiceSettings?, format?, previousText? }` → audio synthesised by
 * ElevenLabs with the key held here: `audio/mpeg` (format 'mp3', the default) or raw 16-bit mono
 * PCM (`audio/pcm`, format 'pcm', sample rate in `x-sample-rate`). The audio streams through as it
 * arrives, so playback starts with the first bytes; a cached synthesis (the greeting, `cache: true`)
 * streams too, from the cache or from the provider while it is being stored. Response headers tell the browser what
 * ElevenLabs cannot do: `x-playback-rate` (the rest of the speed) and `x-pitch`; `x-tts-cache`
 * says hit or miss when the cache was asked for.
 *
 * `GET /tts` → `{ available }`: whether a voice provider is configured, so the page learns once that
 * it must use the browser's own voice instead of asking (and failing) for every sentence.
 */
import { corsHeaders, preflight, withAllowedOrigin } from '../_shared/cors.ts';
import { admit, recordSpend } from '../_shared/guard.ts';
import { errorResponse, json, readJson } from '../_shared/http.ts';
import { serviceClient, type ServiceClient } from '../_shared/supabase.ts';
import { openCachedAudio, storeCachedAudio, ttsCacheKey } from '../_shared/ttsCache.ts';
import { storeWhileStreaming, streamUnlessEmpty } from './audioStream.ts';
import { elevenLabsConfig, PCM_SAMPLE_RATE, type ElevenLabsConfig, type SpeechRequest } from './elevenLabs.ts';
import { ttsMessages } from './messages.ts';
import { splitVoiceSettings, type SplitVoiceSettings } from './providerSettings.ts';
import { parseTtsRequest, type AudioFormat } from './request.ts';
import { synthesize } from './synthesis.ts';
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

/** The cached take of this text and voice, or a fresh one that is stored for the next visitor. */
async function cachedSpeech(
  env: Record<string, string>,
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
  // Streamed from the first bytes, hit or miss: the greeting starts as soon as they arrive.
  const stored = await openCachedAudio(supabase, key);
  const cached = stored ? await streamUnlessEmpty(stored).catch(() => null) : null;
  if (cached) return audioResponse(cached, speech.format, voice, 'hit');

  const [synthesis] = await Promise.all([synthesize(provider, speech), recordSpend(env, 'tts_characters', speech.text.length)]);
  if (!synthesis.ok) return errorResponse(502, synthesis.message, synthesis.code);
  // Stored once the provider's stream has ended, before the response ends (audioStream.ts).
  const audio = storeWhileStreaming(synthesis.audio, (complete) => storeCachedAudio(supabase, key, complete, CONTENT_TYPES[speech.format]));
  return audioResponse(audio, speech.format, voice, 'miss');
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

  // Per-client limits and the daily character cap, shared by all instances (../_shared/guard.ts).
  // A refusal (429, or 503 once the cap is reached) leaves the browser to its own de-DE voice.
  // The admission and the active voice are two database round trips on the way to the first
  // audio byte, so they run side by side; nothing reaches the provider before the admission.
  const admission = admit(request, env, { fn: 'tts', spends: ['tts_characters'] });
  const tts = parseTtsRequest(await readJson(request));
  const provider = elevenLabsConfig(env);
  const supabase = serviceClient(env);
  const visitorVoice = tts && provider && !overridesVoice(tts.voiceSettings) ? activeVoiceSettings(supabase) : null;

  const gate = await admission;
  if (!gate.ok) return gate.response;
  if (!tts) return errorResponse(400, ttsMessages.invalidText, 'invalid_text');
  // Without a provider the browser falls back to its own de-DE voice.
  if (!provider) return errorResponse(503, ttsMessages.notConfigured, 'not_configured');

  // An admin's override costs the round trip to auth, and only once admitted.
  const choice: VoiceChoice = visitorVoice
    ? { kind: 'active', settings: await visitorVoice }
    : await chooseVoice(supabase, request, tts.voiceSettings);
  if (choice.kind === 'invalid') return errorResponse(400, ttsMessages.invalidVoiceSettings, 'invalid_voice_settings');
  const voice = splitVoiceSettings(choice.settings);
  const speech: SpeechRequest = {
    text: tts.text,
    voiceSettings: voice.provider,
    format: tts.format,
    previousText: tts.previousText,
  };

  // An admin's unsaved sample is never cached: it would only fill the bucket with one-off takes.
  // Nor is a piece of a longer answer: its take depends on what was said before it.
  if (tts.cache && choice.kind === 'active' && !speech.previousText) return cachedSpeech(env, supabase, provider, speech, voice);

  // ElevenLabs bills the characters it was sent; a cached take costs nothing. The bookkeeping (a
  // database round trip) is written while the provider prepares its first byte, so the audio never
  // waits for it; a synthesis that then fails has been counted too (the cap errs on the safe side).
  const [synthesis] = await Promise.all([synthesize(provider, speech), recordSpend(env, 'tts_characters', tts.text.length)]);
  if (!synthesis.ok) return errorResponse(502, synthesis.message, synthesis.code);
  return audioResponse(synthesis.audio, tts.format, voice, null);
}
