import { catalogue } from '../_shared/catalogue.ts';
/** The answers of the stt function the browser may show (German, like the coach). */
export const sttMessages = {
  notConfigured: catalogue.voiceConfigMissing,
  tooLarge: 'Die Aufnahme ist zu lang. Bitte fasse dich kürzer (höchstens 60 Sekunden).',
  unsupportedType: 'Dieses Audioformat wird nicht unterstützt.',
  empty: catalogue.noSpeech,
  failed: catalogue.processingFailed,
} as const;
