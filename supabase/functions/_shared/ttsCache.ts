/**
 * The synthesised-audio cache in the private `tts-cache` bucket. The bucket has no policies, so
 * every call here uses the service role; nothing else can read, fill or empty it. The object key
 * is a hash of everything that shapes the audio, so a changed voice setting or text never serves
 * stale audio, and clearing the bucket is only needed to reclaim space or force a fresh take.
 */
import { serviceFetch, type SupabaseEnv } from './supabase.ts';

export const TTS_CACHE_BUCKET = 'tts-cache';

/** Storage removes at most 1,000 objects per request; listing pages the same size. */
const PAGE_SIZE = 1000;

function serviceHeaders(supabase: SupabaseEnv): Record<string, string> {
  return { apikey: supabase.serviceKey, authorization: `Bearer ${supabase.serviceKey}` };
}

/** `<sha256 hex of voiceId|model|settings json|text>.<format>` (mp3, or pcm for raw samples) */
export async function ttsCacheKey(parts: {
  voiceId: string;
  model: string;
  settings: unknown;
  text: string;
  format: 'mp3' | 'pcm';
}): Promise<string> {
  const source = [parts.voiceId, parts.model, JSON.stringify(parts.settings), parts.text].join('|');
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(source));
  const hex = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex}.${parts.format}`;
}

/** The stored audio, or null on a miss. A failing cache only costs a fresh synthesis. */
export async function readCachedAudio(supabase: SupabaseEnv, key: string): Promise<ArrayBuffer | null> {
  try {
    const response = await fetch(`${supabase.url}/storage/v1/object/authenticated/${TTS_CACHE_BUCKET}/${key}`, {
      headers: serviceHeaders(supabase),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return null;
    }
    const audio = await response.arrayBuffer();
    return audio.byteLength > 0 ? audio : null;
  } catch {
    return null;
  }
}

/** Stores audio under its key (replacing a concurrent writer's identical copy); true on success. */
export async function storeCachedAudio(
  supabase: SupabaseEnv,
  key: string,
  audio: ArrayBuffer,
  contentType: string,
): Promise<boolean> {
  try {
    const response = await fetch(`${supabase.url}/storage/v1/object/${TTS_CACHE_BUCKET}/${key}`, {
      method: 'POST',
      headers: { ...serviceHeaders(supabase), 'content-type': contentType, 'x-upsert': 'true' },
      body: audio,
    });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

function objectNames(listing: unknown): string[] {
  if (!Array.isArray(listing)) return [];
  // Folder entries carry no id; the cache is flat, so only objects are removed.
  return listing.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { name, id } = entry as { name?: unknown; id?: unknown };
    return typeof name === 'string' && typeof id === 'string' ? [name] : [];
  });
}

/** Removes every cached object; returns how many were removed. */
export async function clearTtsCache(supabase: SupabaseEnv): Promise<number> {
  let removed = 0;
  for (;;) {
    // Always the first page: the previous page is gone by the time the next one is listed.
    const listing = await serviceFetch(supabase, `/storage/v1/object/list/${TTS_CACHE_BUCKET}`, {
      method: 'POST',
      body: { prefix: '', limit: PAGE_SIZE, offset: 0, sortBy: { column: 'name', order: 'asc' } },
    });
    const names = objectNames(listing);
    if (names.length === 0) return removed;
    const deleted = await serviceFetch(supabase, `/storage/v1/object/${TTS_CACHE_BUCKET}`, {
      method: 'DELETE',
      body: { prefixes: names },
    });
    const count = Array.isArray(deleted) ? deleted.length : 0;
    // Nothing removed although something was listed: stop instead of looping forever.
    if (count === 0) return removed;
    removed += count;
  }
}
