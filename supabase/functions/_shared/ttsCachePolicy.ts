/**
 * What the TTS cache may hold and for how long. Only the coach's greeting is cached: it is the
 * one text every visitor hears, word for word, and a visitor must not be able to fill the
 * operator's storage with texts of their own (`cache: true` on any other text is synthesised as
 * usual and not stored). The key of an entry covers voice, model, settings, text and format, so
 * changing the voice or the greeting leaves the old entries unread; the retention rule removes
 * them: an entry older than TTS_CACHE_MAX_AGE_DAYS goes, and of the rest only the newest
 * TTS_CACHE_MAX_ENTRIES stay (the greeting in both formats, with room for a few voice changes).
 * The rule is applied whenever an entry is stored, which only happens on a miss.
 */
import { persona } from './persona.ts';
import type { ServiceClient } from './supabase.ts';
import { TTS_CACHE_BUCKET } from './ttsCache.ts';

export const TTS_CACHE_MAX_AGE_DAYS = 30;
export const TTS_CACHE_MAX_ENTRIES = 20;

const CACHEABLE_TEXTS: ReadonlySet<string> = new Set([persona.greeting.trim()]);

/** Whether this text may be stored in the cache. */
export function cacheableText(text: string): boolean {
  return CACHEABLE_TEXTS.has(text.trim());
}

/**
 * Applies the retention rule to the bucket, sparing `keep` (the entry just stored); returns how
 * many entries were removed. A failure is logged: the next store tries again.
 */
export async function pruneTtsCache(supabase: ServiceClient, keep: string, now: number = Date.now()): Promise<number> {
  const bucket = supabase.storage.from(TTS_CACHE_BUCKET);
  try {
    // Newest first; the cache is flat and small (one page holds it and then some).
    const listing = await bucket.list('', { limit: 1000, offset: 0, sortBy: { column: 'created_at', order: 'desc' } });
    if (listing.error) throw listing.error;
    const maxAge = TTS_CACHE_MAX_AGE_DAYS * 24 * 60 * 60 * 1000;
    const entries = listing.data.filter((entry) => typeof entry.id === 'string' && entry.name !== keep);
    const expired = entries.filter((entry, index) => {
      const created = Date.parse(entry.created_at ?? '');
      return index >= TTS_CACHE_MAX_ENTRIES - 1 || !Number.isFinite(created) || now - created > maxAge;
    });
    if (expired.length === 0) return 0;
    const removed = await bucket.remove(expired.map((entry) => entry.name));
    if (removed.error) throw removed.error;
    return removed.data.length;
  } catch (error) {
    console.error('[tts] applying the cache retention failed:', error instanceof Error ? error.message : String(error));
    return 0;
  }
}
