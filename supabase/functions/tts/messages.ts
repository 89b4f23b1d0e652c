import { catalogue } from '../_shared/catalogue.ts';
/** The answers of the tts function the browser shows: the seed's catalogue, word for word. */
export const ttsMessages = {
  invalidText: catalogue.invalidSpeechText,
  notConfigured: catalogue.voiceConfigMissing,
  emptyAudio: catalogue.emptyAudio,
  rateLimited: 'Zu viele Anfragen. Bitte warte einen Moment.',
  /** Not in the catalogue: only an admin's "Probehören" with out-of-range slider values sees it. */
  invalidVoiceSettings: 'Ungültige Stimmeinstellungen.',
} as const;

/** A provider answer with nothing usable in its body (also: the provider was unreachable). */
export const providerStatusMessage = catalogue.voiceApiStatus;
