/**
 * The coach's voice settings: the active voice_configs row. Anyone may read it (the coach uses it);
 * only admins may change it, which row level security enforces: a refused update changes no row
 * and returns none, so "nothing saved" counts as a failure here.
 */
import { getSupabase } from './supabase';
import { catalogue } from '../../supabase/functions/_shared/catalogue';

export interface VoiceSettings {
  stability: number;
  similarityBoost: number;
  style: number;
  useSpeakerBoost: boolean;
  speed: number;
  pitch: number;
}

/** The seed's defaults ("Standardwerte"). */
export const defaultVoiceSettings: VoiceSettings = {
  stability: 0.25,
  similarityBoost: 0.75,
  style: 0.45,
  useSpeakerBoost: true,
  speed: 1,
  pitch: 1,
};

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

export async function loadActiveVoiceSettings(): Promise<VoiceSettings> {
  const { data, error } = await getSupabase().from('voice_configs').select(columns).eq('is_active', true).maybeSingle();
  if (error) throw new Error(`Failed to load voice settings: ${error.message}`);
  if (!data) return defaultVoiceSettings;
  return {
    stability: data.stability,
    similarityBoost: data.similarity_boost,
    style: data.style,
    useSpeakerBoost: data.use_speaker_boost,
    speed: data.speed,
    pitch: data.pitch,
  };
}

export async function saveVoiceSettings(settings: VoiceSettings): Promise<void> {
  const { data, error } = await getSupabase()
    .from('voice_configs')
    .update({
      stability: settings.stability,
      similarity_boost: settings.similarityBoost,
      style: settings.style,
      use_speaker_boost: settings.useSpeakerBoost,
      pitch: settings.pitch,
      speed: settings.speed,
    })
    .eq('is_active', true)
    .select('id');
  if (error) throw new VoiceSaveError(error.message);
  if (data.length === 0) throw new VoiceSaveError('no active voice configuration was changed');
}
