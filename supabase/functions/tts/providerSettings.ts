/**
 * Splits the slider settings into what ElevenLabs can do and what the browser must do. ElevenLabs
 * has no pitch and accepts speed only from 0.7 to 1.2, while the sliders go from 0.5 to 2. The
 * provider gets the nearest speed it accepts; the browser's player reads the audio at the
 * remaining rate and a SoundTouch node takes the pitch rise of that faster reading back out and
 * applies the pitch setting, which keeps speed and pitch independent of each other.
 */
import type { VoiceSettings } from '../_shared/voiceSettings.ts';

export const PROVIDER_SPEED = { min: 0.7, max: 1.2 } as const;

/** The `voice_settings` object ElevenLabs takes. */
export interface ProviderVoiceSettings {
  stability: number;
  similarity_boost: number;
  style: number;
  use_speaker_boost: boolean;
  speed: number;
}

export interface SplitVoiceSettings {
  provider: ProviderVoiceSettings;
  /** Sent as `x-playback-rate`: requested speed / speed ElevenLabs got. */
  playbackRate: number;
  /** Sent as `x-pitch`. */
  pitch: number;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** Four decimals are far below what a listener hears and keep the header short. */
const round = (value: number) => Math.round(value * 10_000) / 10_000;

export function splitVoiceSettings(settings: VoiceSettings): SplitVoiceSettings {
  const speed = clamp(settings.speed, PROVIDER_SPEED.min, PROVIDER_SPEED.max);
  return {
    provider: {
      stability: settings.stability,
      similarity_boost: settings.similarity_boost,
      style: settings.style,
      use_speaker_boost: settings.use_speaker_boost,
      speed,
    },
    playbackRate: round(settings.speed / speed),
    pitch: settings.pitch,
  };
}
