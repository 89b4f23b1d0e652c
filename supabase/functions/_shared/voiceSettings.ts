/**
 * The coach's voice settings as the admin sliders hold them (and as `public.voice_configs` stores
 * them): ElevenLabs' four settings plus speed and pitch. Pure, so the browser can share the bounds.
 */
export interface VoiceSettings {
  stability: number;
  similarity_boost: number;
  style: number;
  use_speaker_boost: boolean;
  speed: number;
  pitch: number;
}

/** The seed's slider bounds (stability, similarity, style 0–1; speed and pitch 0.5–2). */
export const voiceSettingBounds = {
  stability: { min: 0, max: 1 },
  similarity_boost: { min: 0, max: 1 },
  style: { min: 0, max: 1 },
  speed: { min: 0.5, max: 2 },
  pitch: { min: 0.5, max: 2 },
} as const;

/** The seed's local defaults; used only when no active row can be read. */
export const defaultVoiceSettings: VoiceSettings = {
  stability: 0.25,
  similarity_boost: 0.75,
  style: 0.45,
  use_speaker_boost: true,
  speed: 1,
  pitch: 1,
};

function inBounds(value: unknown, bounds: { min: number; max: number }): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= bounds.min && value <= bounds.max;
}

/** A complete settings object within the slider bounds, or null (extra keys are dropped). */
export function parseVoiceSettings(value: unknown): VoiceSettings | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const candidate = value as Record<string, unknown>;
  const { stability, similarity_boost, style, use_speaker_boost, speed, pitch } = candidate;
  if (
    !inBounds(stability, voiceSettingBounds.stability) ||
    !inBounds(similarity_boost, voiceSettingBounds.similarity_boost) ||
    !inBounds(style, voiceSettingBounds.style) ||
    !inBounds(speed, voiceSettingBounds.speed) ||
    !inBounds(pitch, voiceSettingBounds.pitch) ||
    typeof use_speaker_boost !== 'boolean'
  ) {
    return null;
  }
  return { stability, similarity_boost, style, use_speaker_boost, speed, pitch };
}
