/**
 * The synthesised-audio cache in the private `tts-cache` bucket. The bucket has no policies, so
 * every call here uses the service role; nothing else can read, fill or empty it. The object key
 * is a hash of everything that shapes the audio, so a changed voice setting or text never serves
 * stale audio, and clearing the bucket is only needed to reclaim space or force a fresh take.
 */
import type { ServiceClient } from './supabase.ts';

export const TTS_CACHE_BUCKET = 'tts-cache';

/** Storage removes at most 1,000 objects per request; listing pages the same size. */
const PAGE_SIZE = 1000;

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

/**
 * The stored audio as a stream, handed over from its first bytes (the caller need not wait for
 * the whole file), or null on a miss. A failing cache only costs a fresh synthesis.
 */
export async function openCachedAudio(supabase: ServiceClient, key: string): Promise<ReadableStream<Uint8Array> | null> {
  try {
    const { data, error } = await supabase.storage.from(TTS_CACHE_BUCKET).download(key).asStream();
    return error ? null : (data as ReadableStream<Uint8Array>);
  } catch {
    return null;
  }
}

/** Stores audio under its key (replacing a concurrent writer's identical copy); true on success. */
export async function storeCachedAudio(
  supabase: ServiceClient,
  key: string,
  audio: ArrayBuffer,
  contentType: string,
): Promise<boolean> {
  try {
    const { error } = await supabase.storage.from(TTS_CACHE_BUCKET).upload(key, audio, { contentType, upsert: true });
    return error === null;
  } catch {
    return false;
  }
}

/** Removes every cached object; returns how many were removed. */
export async function clearTtsCache(supabase: ServiceClient): Promise<number> {
  const bucket = supabase.storage.from(TTS_CACHE_BUCKET);
  let removed = 0;
  for (;;) {
    // Always the first page: the previous page is gone by the time the next one is listed.
    const listing = await bucket.list('', { limit: PAGE_SIZE, offset: 0, sortBy: { column: 'name', order: 'asc' } });
    if (listing.error) throw listing.error;
    // Folder entries carry no id; the cache is flat, so only objects are removed.
    const names = listing.data.flatMap((entry) => (typeof entry.id === 'string' ? [entry.name] : []));
    if (names.length === 0) return removed;
    const deleted = await bucket.remove(names);
    if (deleted.error) throw deleted.error;
    const count = deleted.data.length;
    // Nothing removed although something was listed: stop instead of looping forever.
    if (count === 0) return removed;
    removed += count;
  }
}
