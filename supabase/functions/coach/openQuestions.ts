/**
 * Open questions: a visitor's question the coach could not answer from its knowledge is kept for
 * the operator ("Offene Fragen" in the admin area), narrowly, because visitors speak about health
 * and life topics:
 *   - only a question (isQuestion()): something a visitor tells about themselves, a greeting or a
 *     thank-you is never kept;
 *   - only its text, scrubbed of what names or reaches a person (scrubQuestion()), at most 300
 *     characters;
 *   - nothing else: no conversation id, address or browser detail. The client's name goes to the
 *     database only for its daily limit (the guard's per-client counts), never into the question.
 * The database decides the rest (`record_open_question`): the admin's switch, whether any word
 * names a topic, the client's limit, and counting a question with the same lexemes instead of
 * keeping it twice.
 */
import type { ServiceClient } from '../_shared/supabase.ts';

export const MAX_QUESTION_CHARS = 300;

/** What stands in the kept text where an identifier was. */
export const PLACEHOLDERS = {
  email: '[E-Mail]',
  link: '[Link]',
  phone: '[Telefonnummer]',
  iban: '[IBAN]',
  number: '[Zahl]',
  name: '[Name]',
} as const;

const EMAIL = /[\p{L}\d._%+-]+@[\p{L}\d-]+(?:\.[\p{L}\d-]+)*\.\p{L}{2,}/giu;
/**
 * A scheme or "www.", or a domain with a common top-level domain ("beispiel.de/preise"); the
 * punctuation after it ("… auf www.beispiel.de, oder?") is the sentence's.
 */
const LINK =
  /\b(?:[a-z][a-z\d+.-]*:\/\/|www\.)\S*[^\s.,;:!?)\]"'»“”]|\b[\p{L}\d-]+(?:\.[\p{L}\d-]+)*\.(?:de|com|org|net|eu|at|ch|info|io|biz|app|online|shop)\b(?:[/?#]\S*[^\s.,;:!?)\]"'»“”])?/giu;
const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z\d]{4}){3,7}(?: ?[A-Z\d]{1,3})?\b/gu;
/**
 * A phone number: "+49 170 1234567", "0170/1234567", "(030) 123 45 67", "030-12345": a "+", a
 * leading 0 or an opening bracket, then digits with spaces, slashes, hyphens and brackets, six
 * digits or more in all. Dots do not join it, so a date ("03.10.2024") is none.
 */
const PHONE = /(?:\+|\(|\b0)[\d ()/-]{4,}\d/gu;
const LONG_NUMBER = /\d{5,}/gu;

/**
 * What introduces a name. After the first group the next word is a name whatever its case
 * ("ich heiße anna"); after the second only a capitalised one ("Ich bin Anna", not "ich bin
 * müde"; a German noun after "ich bin" is taken for a name too, which costs a word, never a name).
 * A capitalised word after the name is taken for the surname.
 */
const NAMING_ALWAYS = String.raw`ich\s+hei(?:ß|ss)e|mein\s+(?:vor|nach)?name\s+(?:ist|lautet|wäre)|man\s+nennt\s+mich|nennt?\s+mich|my\s+name\s+is|call\s+me`;
const NAMING_CAPITALISED = String.raw`ich\s+bin|hier\s+(?:spricht|schreibt)|i\s+am|i['’]m`;
const WORD = String.raw`\p{L}[\p{L}'’-]*`;
const NAME = new RegExp(String.raw`(?<!\p{L})(?:(${NAMING_ALWAYS})|(${NAMING_CAPITALISED}))\s+(${WORD})(?:\s+(${WORD}))?`, 'giu');
/** Capitalised words that start the next sentence rather than end a name ("Ich bin Anna Wie …"). */
const NOT_A_SURNAME = new Set(
  'ich und aber oder wie was wann warum wieso wo wer welche welcher welches kann könnt können darf soll muss gibt hat habe ist sind hallo hi danke bitte frage'.split(' '),
);
const capitalised = (word: string): boolean => /^\p{Lu}/u.test(word);

function replaceName(match: string, always: string | undefined, onlyCapitalised: string | undefined, name: string, next: string | undefined): string {
  if (always === undefined && !capitalised(name)) return match;
  const surname = next !== undefined && capitalised(next) && !NOT_A_SURNAME.has(next.toLowerCase());
  return `${always ?? onlyCapitalised ?? ''} ${PLACEHOLDERS.name}${next === undefined || surname ? '' : ` ${next}`}`;
}

/**
 * The question as it may be kept: e-mail addresses, links, IBANs, phone numbers, numbers of five
 * or more digits and the name after "ich heiße", "mein Name ist", "ich bin", "I am" and the like
 * replaced by a placeholder; whitespace collapsed; at most MAX_QUESTION_CHARS characters, cut at a
 * word with "…".
 */
export function scrubQuestion(text: string): string {
  const scrubbed = text
    .replace(EMAIL, PLACEHOLDERS.email)
    .replace(LINK, PLACEHOLDERS.link)
    .replace(IBAN, PLACEHOLDERS.iban)
    .replace(PHONE, (match) => ((match.match(/\d/gu)?.length ?? 0) >= 6 ? PLACEHOLDERS.phone : match))
    .replace(LONG_NUMBER, PLACEHOLDERS.number)
    .replace(NAME, replaceName)
    .replace(/\s+/gu, ' ')
    .trim();
  if (scrubbed.length <= MAX_QUESTION_CHARS) return scrubbed;
  const cut = scrubbed.slice(0, MAX_QUESTION_CHARS - 1);
  const atWord = cut.lastIndexOf(' ');
  return `${(atWord > MAX_QUESTION_CHARS / 2 ? cut.slice(0, atWord) : cut).trimEnd()}…`;
}

/** Words that open a question: interrogatives, and verbs a German yes/no question starts with. */
const QUESTION_OPENERS = new Set(
  (
    'wie was wann wo woher wohin warum wieso weshalb weswegen wer wen wem wessen welche welcher welches welchen welchem ' +
    'wozu wofür womit wodurch worauf worüber wovon woran worin wieviel wieviele inwiefern inwieweit ' +
    'kann kannst können könnt könnte könntest könnten darf darfst dürfen soll sollte solltest sollten sollen muss musst müssen ' +
    'gibt gibts hast habt hat haben ist sind bist seid wird werden wirst würde würdest hilft helfen weißt wisst ' +
    'lohnt funktioniert bietet bietest bietet kostet dauert stimmt geht brauche brauchst braucht ' +
    // Asking for something: "Erklär mir …", "Sag mir …".
    'erklär erkläre erklärst erzähl erzähle sag sage nenn nenne beschreib beschreibe zeig zeige ' +
    'what how when where why who which can could do does is are'
  ).split(' '),
);
/** Words a question may start with before its opener ("Und wie …", "Hallo Mia, was …"). */
const LEAD_INS = new Set('und aber also oder ok okay hallo hi hey mia noch eine frage sorry ähm äh nun jetzt dann'.split(' '));
const ASKING_PHRASE = /\b(?:ich\s+(?:möchte|will|würde\s+gerne?|wüsste\s+gerne?)\s+(?:\p{L}+\s+){0,4}(?:wissen|erfahren)|ich\s+frage\s+mich|mich\s+interessiert)\b/iu;

/**
 * Whether a message asks something: it has a question mark, opens with an interrogative or a verb
 * (after lead-ins such as "Und" or "Hallo Mia,"), as a spoken question does without its mark, or
 * says that it wants to know. A greeting, a thank-you or something a visitor tells about themselves
 * is no question.
 */
export function isQuestion(text: string): boolean {
  if (text.includes('?')) return true;
  if (ASKING_PHRASE.test(text)) return true;
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  const opener = words.find((word) => !LEAD_INS.has(word));
  return opener !== undefined && QUESTION_OPENERS.has(opener);
}

export type RecordOutcome = 'kept' | 'off' | 'no_topic' | 'limited' | 'not_a_question';

/**
 * Keeps (or counts again) a question the knowledge base could not answer, for `client`'s daily
 * limit; what the database decided, or 'not_a_question' without asking it.
 */
export async function keepOpenQuestion(supabase: ServiceClient, question: string, client: string, perDay: number): Promise<RecordOutcome> {
  if (!isQuestion(question)) return 'not_a_question';
  const text = scrubQuestion(question);
  if (text === '') return 'not_a_question';
  const { data } = await supabase.rpc('record_open_question', { question: text, client, per_day: perDay }).throwOnError();
  return data === 'kept' || data === 'off' || data === 'no_topic' || data === 'limited' ? data : 'kept';
}
