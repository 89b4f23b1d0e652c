import { catalogue } from '../_shared/catalogue.ts';
/** The answers of the stt function the browser may show (German, like the coach). */
export const sttMessages = {
  notConfigured: catalogue.voiceConfigMissing,
  tooLarge: 'Die Aufnahme ist zu lang. Bitte fasse dich kürzer (höchstens 60 Sekunden).',
  unsupportedType:
    'Dieses Audioformat wird nicht unterstützt: erwartet wird eine WAV-Datei mit 16 kHz, mono, 16 Bit PCM und einem Datenblock bis zum Ende der Datei.',
  tooSlow: 'Die Aufnahme kam nicht rechtzeitig an. Bitte versuche es noch einmal.',
  empty: catalogue.noSpeech,
  failed: catalogue.processingFailed,
} as const;
