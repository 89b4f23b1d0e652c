/** Reads and checks the body of `POST /tts`: `{ text, cache?, voiceSettings? }`. */
import { isRecord } from '../_shared/http.ts';

/** The seed's limit for one synthesis. */
export const MAX_TEXT_CHARACTERS = 5000;

export interface TtsRequest {
  /** Trimmed, 1–5,000 characters. */
  text: string;
  cache: boolean;
  /** Present when the client sent an override; checked later, and only honoured for admins. */
  voiceSettings: unknown;
}

/** The request, or null when the text is missing, blank or too long (the catalogue's invalid text). */
export function parseTtsRequest(body: unknown): TtsRequest | null {
  if (!isRecord(body) || typeof body.text !== 'string') return null;
  const text = body.text.trim();
  // UTF-16 units, as JavaScript counts (and as the browser checks before sending): an emoji counts
  // twice, so the limit is never exceeded in characters either.
  if (text.length === 0 || text.length > MAX_TEXT_CHARACTERS) return null;
  return { text, cache: body.cache === true, voiceSettings: body.voiceSettings };
}
