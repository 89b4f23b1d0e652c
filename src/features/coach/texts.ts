import { persona } from '../../config/persona';

/** The coach's German-only texts (the coach speaks German only, so they are not translated). */
export const coachTexts = {
  heading: `Sprich jetzt mit ${persona.name} AI!`,
  instructions:
    'Für das beste Erlebnis brauchst du eine stabile Internetverbindung. Erlaube deinem Browser den Zugriff auf das Mikrofon, wenn er danach fragt – oder schreib einfach im Chat.',
} as const;
