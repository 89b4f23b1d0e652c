/** The answers of the tts function the browser shows: the seed's catalogue, word for word. */
export const ttsMessages = {
  invalidText: 'Der Text ist zu lang oder ungültig für die Sprachausgabe.',
  notConfigured: 'API-Konfiguration fehlt. Bitte kontaktieren Sie den Support.',
  emptyAudio: 'Die API hat keine Audio-Daten zurückgegeben.',
  rateLimited: 'Zu viele Anfragen. Bitte warte einen Moment.',
  /** Not in the catalogue: only an admin's "Probehören" with out-of-range slider values sees it. */
  invalidVoiceSettings: 'Ungültige Stimmeinstellungen.',
} as const;

/** A provider answer with nothing usable in its body (also: the provider was unreachable). */
export const providerStatusMessage = (status: number) => `API-Fehler: ${String(status)}`;
