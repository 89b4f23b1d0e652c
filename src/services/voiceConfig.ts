/**
 * The coach's voice settings: the active voice_configs row. Anyone may read it (the coach uses it);
 * only admins may change it, which row level security enforces: a refused update changes no row
 * and returns none, so "nothing saved" counts as a failure here. Their shape, bounds, defaults and
 * stored names come from supabase/functions/_shared/voiceSettings.ts.
 */
import { getSupabase } from './supabase';
import { catalogue } from '../../supabase/functions/_shared/catalogue';
import {
  defaultVoiceSettings as storedDefaults,
  fromStoredVoiceSettings,
  toStoredVoiceSettings,
  type BrowserVoiceSettings,
} from '../../supabase/functions/_shared/voiceSettings';

/** The seed's defaults ("Standardwerte"), as the browser holds them. */
export const defaultVoiceSettings: BrowserVoiceSettings = fromStoredVoiceSettings(storedDefaults);

export const voiceSaveMessages = {
  saved: catalogue.voiceSettingsSaved,
  failed: catalogue.voiceSettingsSaveFailed,
} as const;

export class VoiceSaveError extends Error {
  override readonly name = 'VoiceSaveError';
  constructor(readonly reason: string) {
    super(voiceSaveMessages.failed);
  }
}

const columns = 'stability, similarity_boost, style, use_speaker_boost, speed, pitch';

export async function loadActiveVoiceSettings(): Promise<BrowserVoiceSettings> {
  const { data, error } = await getSupabase().from('voice_configs').select(columns).eq('is_active', true).maybeSingle();
  if (error) throw new Error(`Failed to load voice settings: ${error.message}`);
  return data ? fromStoredVoiceSettings(data) : defaultVoiceSettings;
}

export async function saveVoiceSettings(settings: BrowserVoiceSettings): Promise<void> {
  const { data, error } = await getSupabase()
    .from('voice_configs')
    .update(toStoredVoiceSettings(settings))
    .eq('is_active', true)
    .select('id');
  if (error) throw new VoiceSaveError(error.message);
  if (data.length === 0) throw new VoiceSaveError('no active voice configuration was changed');
}
