/**
 * Which voice settings a synthesis uses: the active `voice_configs` row, or, for an admin's
 * "Probehören" with unsaved slider values, the settings in the request. Anyone else's override is
 * ignored, so visitors cannot make the coach speak in a voice the operator did not choose.
 */
import { callerUser, serviceFetch, type SupabaseEnv } from '../_shared/supabase.ts';
import { defaultVoiceSettings, parseVoiceSettings, type VoiceSettings } from '../_shared/voiceSettings.ts';

const ACTIVE_ROW =
  '/rest/v1/voice_configs?select=stability,similarity_boost,style,use_speaker_boost,speed,pitch&is_active=eq.true&limit=1';

export type VoiceChoice =
  | { kind: 'active'; settings: VoiceSettings }
  | { kind: 'override'; settings: VoiceSettings }
  /** An admin sent settings outside the slider bounds. */
  | { kind: 'invalid' };

/**
 * The active row's settings. The migrations guarantee one active row; should it be missing or the
 * read fail, the coach still speaks with the seed's defaults rather than falling silent.
 */
export async function activeVoiceSettings(supabase: SupabaseEnv): Promise<VoiceSettings> {
  try {
    const rows = await serviceFetch(supabase, ACTIVE_ROW);
    const row: unknown = Array.isArray(rows) ? rows[0] : null;
    return parseVoiceSettings(row) ?? defaultVoiceSettings;
  } catch {
    return defaultVoiceSettings;
  }
}

export async function chooseVoice(supabase: SupabaseEnv, request: Request, requested: unknown): Promise<VoiceChoice> {
  // Only an override costs the round trip to auth; the visitors' sentences go straight on.
  if (requested !== undefined && requested !== null && (await callerUser(supabase, request))?.isAdmin) {
    const settings = parseVoiceSettings(requested);
    return settings ? { kind: 'override', settings } : { kind: 'invalid' };
  }
  return { kind: 'active', settings: await activeVoiceSettings(supabase) };
}
