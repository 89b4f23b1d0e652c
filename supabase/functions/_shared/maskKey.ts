/**
 * Shows an operator which provider key is set without revealing it: `sk-proj-AbCd…x7Qa` becomes
 * `sk-…x7Qa`. The vendor prefix (up to the first '-' or '_' within the first four characters)
 * tells OpenAI and ElevenLabs keys apart; the last four characters tell two keys apart. Short keys
 * (under 12 characters) would give away too much that way, so they show only their last two.
 */
const MIN_LENGTH_FOR_PREFIX = 12;

export function maskKey(key: string): string {
  if (key.length < MIN_LENGTH_FOR_PREFIX) return `…${key.slice(-2)}`;
  const separator = key.slice(0, 4).search(/[-_]/);
  const prefix = separator === -1 ? '' : key.slice(0, separator + 1);
  return `${prefix}…${key.slice(-4)}`;
}
