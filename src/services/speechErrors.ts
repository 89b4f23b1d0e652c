/**
 * Why speech could not be heard, in one place: the two errors the speech output throws and the
 * catalogue message each reader is shown for them.
 *
 * - `TtsError`: the `tts` function refused or failed (its message is the function's catalogue
 *   text, e.g. 'Der Text ist zu lang oder ungültig für die Sprachausgabe.' or 'API-Fehler: 502').
 * - `PlaybackError`: the browser could not play: 'blocked' (no user gesture started the audio),
 *   'failed' (Web Audio missing, a broken stream, the browser's voice refusing).
 */
import { catalogue } from '../../supabase/functions/_shared/catalogue';

/** A refused or failed synthesis; `message` is the function's catalogue text. */
export class TtsError extends Error {
  override readonly name = 'TtsError';
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** 'blocked': the browser refused to start audio without a user gesture; 'failed': anything else. */
export class PlaybackError extends Error {
  override readonly name = 'PlaybackError';
  constructor(
    readonly reason: 'blocked' | 'failed',
    detail: string,
  ) {
    super(`playback ${reason}: ${detail}`);
  }
}

/**
 * What the live coach shows when its voice fails: the answer's text is on screen, so whatever broke
 * (the synthesis or the playback) the visitor is asked to read it; a blocked autoplay says so.
 */
export function coachPlaybackMessage(error: unknown): string {
  return error instanceof PlaybackError && error.reason === 'blocked' ? catalogue.autoplayBlocked : catalogue.playbackFailed;
}

/**
 * The catalogue message of a speech problem that has one of its own: the function's refusal (wrong
 * settings, a provider error) or a blocked autoplay; null for anything else, whose wording is the
 * caller's (the admin's "Probehören" says the sample could not be played).
 */
export function speechProblemMessage(error: unknown): string | null {
  if (error instanceof TtsError) return error.message;
  if (error instanceof PlaybackError && error.reason === 'blocked') return catalogue.autoplayBlocked;
  return null;
}
