/**
 * The specification's error catalogue, word for word, in one place: the edge functions and the
 * browser import it from here (src may import supabase/functions/_shared), so a text cannot drift
 * between the server that sends it and the page that shows it. Each module keeps its own name for
 * the texts it uses (e.g. `coachTexts.errors`, `ttsMessages`), built from these.
 */
export const catalogue = {
  /** The coach's model gave no text. */
  noReply: 'Entschuldigung, ich konnte dazu gerade keine passende Antwort finden. Kannst du deine Frage vielleicht anders formulieren?',
  /** The coach call failed. */
  callFailed: 'Tut mir leid, ich habe gerade technische Schwierigkeiten. Kannst du es in einem Moment noch einmal versuchen?',
  microphoneDenied: 'Mikrofon-Zugriff verweigert. Bitte erlaube den Zugriff.',
  noSpeech: 'Keine Sprache erkannt. Bitte sprich deutlicher.',
  unsupportedBrowser: 'Browser unterstützt keine Spracherkennung',
  processingFailed: 'Es gab ein Problem bei der Verarbeitung.',
  /** The voice API failed without a message of its own. */
  voiceApiStatus: (status: number) => `API-Fehler: ${String(status)}`,
  emptyAudio: 'Die API hat keine Audio-Daten zurückgegeben.',
  playbackFailed: 'Es gab ein Problem bei der Audiowiedergabe. Lies bitte die Textantwort.',
  autoplayBlocked:
    'Die automatische Audiowiedergabe wurde vom Browser blockiert. Bitte erlaube die Audiowiedergabe oder lies die Textantwort.',
  invalidSpeechText: 'Der Text ist zu lang oder ungültig für die Sprachausgabe.',
  voiceConfigMissing: 'API-Konfiguration fehlt. Bitte kontaktieren Sie den Support.',
  /** Sign-in failed without a message from the server. */
  loginUnexpected: 'Ein unerwarteter Fehler ist bei der Anmeldung aufgetreten',
  loginNoSession: 'Login failed - no session returned',
  voiceSettingsSaved: 'Einstellungen erfolgreich gespeichert',
  voiceSettingsSaveFailed: 'Fehler beim Speichern der Einstellungen',
  documentsLoadFailed: 'Failed to load documents',
  documentUploadFailed: 'Failed to upload document',
  documentDeleteFailed: 'Failed to delete document',
  documentSearchFailed: 'Failed to search documents',
  uploadNotAuthenticated: 'User not authenticated',
  uploadNotPdf: 'Only PDF files are supported',
  uploadRevertFailed: 'Error removing file',
} as const;
