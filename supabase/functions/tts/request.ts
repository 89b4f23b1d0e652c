/** Reads and checks the body of `POST /tts`: `{ text, cache?, voiceSettings?, format?, previousText? }`. */
import { isRecord } from '../_shared/http.ts';

/** The seed's limit for one synthesis. */
export const MAX_TEXT_CHARACTERS = 5000;

/**
 * How much of the text already spoken goes along as `previous_text`: enough for the voice to carry
 * the intonation on (a clause or two), short enough to cost nothing noticeable.
 */
export const MAX_PREVIOUS_TEXT_CHARACTERS = 1000;

/**
 * 'mp3': one file the browser can hand to an audio element (the seed's audio/mpeg). 'pcm': raw
 * 16-bit mono samples that the live coach plays from the first bytes on, in every browser.
 */
export type AudioFormat = 'mp3' | 'pcm';

export interface TtsRequest {
  /** Trimmed, 1–5,000 characters. */
  text: string;
  cache: boolean;
  /** Present when the client sent an override; checked later, and only honoured for admins. */
  voiceSettings: unknown;
  format: AudioFormat;
  /**
   * The answer's text spoken right before this piece (the coach sends an answer in pieces), so
   * the provider continues the intonation instead of starting a new utterance; '' when none.
   */
  previousText: string;
}

/** The request, or null when the text is missing, blank or too long (the catalogue's invalid text). */
export function parseTtsRequest(body: unknown): TtsRequest | null {
  if (!isRecord(body) || typeof body.text !== 'string') return null;
  const text = body.text.trim();
  // UTF-16 units, as JavaScript counts (and as the browser checks before sending): an emoji counts
  // twice, so the limit is never exceeded in characters either.
  if (text.length === 0 || text.length > MAX_TEXT_CHARACTERS) return null;
  const previous = typeof body.previousText === 'string' ? body.previousText.trim() : '';
  return {
    text,
    cache: body.cache === true,
    voiceSettings: body.voiceSettings,
    format: body.format === 'pcm' ? 'pcm' : 'mp3',
    // The end of what was said is what shapes the next words.
    previousText: previous.slice(-MAX_PREVIOUS_TEXT_CHARACTERS),
  };
}
