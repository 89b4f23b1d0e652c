/** The answers of the stt function the browser may show (German, like the coach). */
export const sttMessages = {
  notConfigured: 'API-Konfiguration fehlt. Bitte kontaktieren Sie den Support.',
  tooLarge: 'Die Aufnahme ist zu lang. Bitte fasse dich kürzer (höchstens 60 Sekunden).',
  unsupportedType: 'Dieses Audioformat wird nicht unterstützt.',
  empty: 'Keine Sprache erkannt. Bitte sprich deutlicher.',
  failed: 'Es gab ein Problem bei der Verarbeitung.',
} as const;
