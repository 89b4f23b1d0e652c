/**
 * The coach's voice settings, the one source for the browser, the `tts` function and the database:
 * ElevenLabs' four settings plus speed and pitch, their slider bounds and the seed's defaults.
 * `public.voice_configs` stores them (its check constraints and column defaults restate the bounds
 * and defaults; tests/db/voiceSettings.test.ts holds them equal), the `tts` function reads them in
 * the stored form, and the browser holds them in its own camelCase form, mapped here and nowhere
 * else. Pure, so Deno and the browser import the same file.
 */

/** As `public.voice_configs` stores them and the `tts` function reads them (snake_case). */
export interface VoiceSettings {
  stability: number;
  similarity_boost: number;
  style: number;
  use_speaker_boost: boolean;
  speed: number;
  pitch: number;
}

/** As the browser holds them: the admin's sliders, the coach's saved speed and pitch (camelCase). */
export interface BrowserVoiceSettings {
  stability: number;
  similarityBoost: number;
  style: number;
  useSpeakerBoost: boolean;
  speed: number;
  pitch: number;
}

export type NumericVoiceSetting = 'stability' | 'similarity_boost' | 'style' | 'speed' | 'pitch';

export interface VoiceSettingBounds {
  min: number;
  max: number;
  /** The slider's step (the seed's: 0.01 for the 0–1 settings, 0.1 for speed and pitch). */
  step: number;
}

/** The seed's slider bounds (stability, similarity, style 0–1; speed and pitch 0.5–2). */
export const voiceSettingBounds: Record<NumericVoiceSetting, VoiceSettingBounds> = {
  stability: { min: 0, max: 1, step: 0.01 },
  similarity_boost: { min: 0, max: 1, step: 0.01 },
  style: { min: 0, max: 1, step: 0.01 },
  speed: { min: 0.5, max: 2, step: 0.1 },
  pitch: { min: 0.5, max: 2, step: 0.1 },
};

/** The seed's defaults ("Standardwerte"): the active row's first values, and what is used when none can be read. */
export const defaultVoiceSettings: VoiceSettings = {
  stability: 0.25,
  similarity_boost: 0.75,
  style: 0.45,
  use_speaker_boost: true,
  speed: 1,
  pitch: 1,
};

/** The stored name of each of the browser's settings. */
export const storedVoiceSettingName = {
  stability: 'stability',
  similarityBoost: 'similarity_boost',
  style: 'style',
  useSpeakerBoost: 'use_speaker_boost',
  speed: 'speed',
  pitch: 'pitch',
} as const satisfies Record<keyof BrowserVoiceSettings, keyof VoiceSettings>;

export function toStoredVoiceSettings(settings: BrowserVoiceSettings): VoiceSettings {
  return {
    stability: settings.stability,
    similarity_boost: settings.similarityBoost,
    style: settings.style,
    use_speaker_boost: settings.useSpeakerBoost,
    speed: settings.speed,
    pitch: settings.pitch,
  };
}

export function fromStoredVoiceSettings(settings: VoiceSettings): BrowserVoiceSettings {
  return {
    stability: settings.stability,
    similarityBoost: settings.similarity_boost,
    style: settings.style,
    useSpeakerBoost: settings.use_speaker_boost,
    speed: settings.speed,
    pitch: settings.pitch,
  };
}

function inBounds(value: unknown, bounds: VoiceSettingBounds): value is number {
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
