import { persona } from '../../config/persona';
import { catalogue } from '../../../supabase/functions/_shared/catalogue';

/**
 * Every German text of the live coach in one place. The coach speaks German only, so these texts
 * are not i18n keys: that includes the generic controls of the chat (send button, input label),
 * which only ever appear next to German answers. The catalogue messages, labels and hints are the
 * specification's words, unchanged, except the ready label: the seed's 'sprich mit mich' is wrong
 * German and reads 'sprich mit mir' here (PRODUCT.md, "Seed text corrected").
 */
export const coachTexts = {
  heading: `Sprich jetzt mit ${persona.name} AI!`,
  instructions:
    'Für das beste Erlebnis brauchst du eine stabile Internetverbindung. Erlaube deinem Browser den Zugriff auf das Mikrofon, wenn er danach fragt – oder schreib einfach im Chat.',

  /** Labels of the voice button, one per state. */
  button: {
    /**
     * Before the first click nothing is recording yet and the click starts the conversation (panel
     * and spoken greeting), so the label says exactly that rather than inviting to speak.
     */
    idle: 'Klick hier und starte das Gespräch',
    ready: 'Klick hier und sprich mit mir',
    listening: 'Ich höre zu... (Klick zum Beenden)',
    /** Processing is not named by the specification: a short "wait" that needs no action. */
    processing: 'Einen Moment bitte...',
    speaking: `${persona.name} spricht...`,
    /** Hands-free after a long quiet spell (beyond the specification): how to go on. */
    paused: 'Pause – sprich einfach weiter',
  },

  /** The status hints of the aria-live region. */
  hints: {
    ready: 'Bereit zum Aufnehmen',
    listening: 'Aufnahme läuft...',
    stopped: 'Aufnahme gestoppt',
    processing: 'Verarbeite Anfrage...',
    answering: `${persona.name} antwortet...`,
    /** Hands-free paused (beyond the specification). */
    paused: 'Freihändig pausiert: Ich höre wieder zu, sobald du sprichst oder klickst.',
  },

  /** The specification's error catalogue, as far as the coach shows it. */
  errors: {
    noReply: catalogue.noReply,
    callFailed: catalogue.callFailed,
    processing: catalogue.processingFailed,
    microphoneDenied: catalogue.microphoneDenied,
    noSpeech: catalogue.noSpeech,
    unsupported: catalogue.unsupportedBrowser,
    playback: catalogue.playbackFailed,
    autoplayBlocked: catalogue.autoplayBlocked,
  },

  /** The hands-free switch beside the voice button. */
  handsFree: {
    label: 'Freihändig sprechen',
    hint: `Das Mikrofon bleibt offen: ${persona.name} hört nach jeder Antwort von selbst wieder zu, und du kannst sie jederzeit mit deiner Stimme unterbrechen.`,
  },

  chat: {
    title: `Chat mit ${persona.name}`,
    you: 'Du',
    assistant: persona.name,
    inputLabel: `Nachricht an ${persona.name}`,
    inputPlaceholder: 'Schreib deine Frage…',
    send: 'Senden',
    caption: 'Erkannt',
    offline:
      'Hinweis: Gerade ist kein KI-Sprachmodell verbunden. Die Antworten kommen nur aus der Wissensdatenbank.',
    writing: `${persona.name} schreibt…`,
    endConversation: 'Gespräch beenden',
    newConversation: 'Neues Gespräch',
  },

  rating: {
    question: 'Wie hilfreich war das Gespräch?',
    optional: 'Die Bewertung ist freiwillig und anonym.',
    /** The rating buttons' names ("3 von 5"); they show only the number. */
    outOf: ' von 5',
    sending: 'Bewertung wird gesendet…',
    thanks: 'Danke für deine Bewertung!',
    failed: 'Die Bewertung konnte nicht gesendet werden. Bitte versuche es noch einmal.',
    restart: 'Schreib oder sprich einfach weiter, um ein neues Gespräch zu beginnen.',
  },
} as const;
