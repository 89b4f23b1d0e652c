/**
 * Which voice settings a synthesis uses: the active `voice_configs` row, or, for an admin's
 * "Probehören" with unsaved slider values, the settings in the request. Anyone else's override is
 * ignored, so visitors cannot make the coach speak in a voice the operator did not choose.
 */
import { callerUser, type ServiceClient } from '../_shared/supabase.ts';
import { defaultVoiceSettings, parseVoiceSettings, type VoiceSettings } from '../_shared/voiceSettings.ts';

const VOICE_COLUMNS = 'stability,similarity_boost,style,use_speaker_boost,speed,pitch';

export type VoiceChoice =
  | { kind: 'active'; settings: VoiceSettings }
  | { kind: 'override'; settings: VoiceSettings }
  /** An admin sent settings outside the slider bounds. */
  | { kind: 'invalid' };

/**
 * The active row's settings. The migrations guarantee one active row; should it be missing or the
 * read fail, the coach still speaks with the seed's defaults rather than falling silent.
 */
export async function activeVoiceSettings(supabase: ServiceClient): Promise<VoiceSettings> {
  try {
    const { data: rows, error } = await supabase
      .from('voice_configs')
      .select(VOICE_COLUMNS)
      .eq('is_active', true)
      .limit(1)
      .retry(false); // see NO_READ_RETRIES in ../_shared/supabase.ts
    return (error ? null : parseVoiceSettings(rows[0])) ?? defaultVoiceSettings;
  } catch {
    return defaultVoiceSettings;
  }
}

/** Whether the request asks for settings of its own (honoured only for an admin). */
export function overridesVoice(requested: unknown): boolean {
  return requested !== undefined && requested !== null;
}

export async function chooseVoice(supabase: ServiceClient, request: Request, requested: unknown): Promise<VoiceChoice> {
  // Only an override costs the round trip to auth; the visitors' sentences go straight on.
  if (overridesVoice(requested) && (await callerUser(supabase, request))?.isAdmin) {
    const settings = parseVoiceSettings(requested);
    return settings ? { kind: 'override', settings } : { kind: 'invalid' };
  }
  return { kind: 'active', settings: await activeVoiceSettings(supabase) };
}
