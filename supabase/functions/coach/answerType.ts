/**
 * What kind of answer a question asks for, read from its question words, and whether a piece of
 * text carries such an answer. "Was kostet …?" asks for a price, "Wie lange …?" for a duration,
 * "Wann …?" for a time or a day (a duration answers it too: "Wer länger als drei Monate …"), "Wie
 * oft …?" for a frequency, "Wie viel …?" for a number, "Wer …?" or "An wen …?" for a person or a
 * way to reach one ("Wer zahlt …?" asks who bears a cost: no kind). Of two parts of a passage that
 * hold the question's words equally, the one with a price, a duration or a time answers the
 * question; the other only talks about its subject (offline.ts quotes only a part that carries the
 * kind the question itself asks for).
 *
 * Only the kind is read, never the subject: the rules are German (and a few English) question
 * words, the same for any knowledge base.
 */
import { foldGerman } from './passageUnits.ts';

export type AnswerType = 'price' | 'duration' | 'time' | 'frequency' | 'quantity' | 'contact';

/** Question patterns, most specific first (on text folded as `foldGerman` folds it). */
const QUESTION_PATTERNS: readonly [AnswerType, RegExp][] = [
  ['price', /\bkost(?:et|en|est)\b|\bwie teuer\b|\b(?:preis|preise|kosten|gebuhr|gebuhren|honorar|tarif)\b|\bhow much (?:is|does|do)\b|\bcost\b|\bprice\b/u],
  ['frequency', /\bwie (?:oft|haufig)\b|\bhow often\b/u],
  [
    'duration',
    /\bwie lange?\b|\bwie ?viel zeit\b|\bwie ?viele? (?:sekunden|minuten|stunden|tage|arbeitstage|wochen|monate|jahre)\b|\bhow long\b|\bhow many (?:seconds|minutes|hours|days|weeks|months|years)\b/u,
  ],
  ['time', /\b(?:bis|ab|seit) wann\b|\bwann\b|\bum wie ?viel uhr\b|\bwelche uhrzeit\b|\ban welchem tag\b|\bwhen\b|\bwhat time\b/u],
  ['quantity', /\bwie ?viele?\b|\bwie (?:hoch|gross|weit|schwer|alt|breit|tief|schnell)\b|\bhow (?:much|many|big|large|high|far|old)\b/u],
  // "Wer zahlt …?" asks who bears a cost ("tragen Sie"), not whom to turn to.
  ['contact', /^(?:\S+ ){0,3}(?:wer|wen|wem)\b(?! (?:zahlt|bezahlt|tragt|ubernimmt|haftet|erstattet)\b)|\ban wen\b|\bbei wem\b|\bwho\b|\bwhom\b/u],
];

/** The kind of answer `question` asks for; null when its words do not say. */
export function answerType(question: string): AnswerType | null {
  const folded = foldGerman(question).replace(/\s+/gu, ' ').trim();
  for (const [type, pattern] of QUESTION_PATTERNS) if (pattern.test(folded)) return type;
  return null;
}

const NUMBER_WORD =
  '(?:ein|eine|einen|einem|einer|zwei|drei|vier|funf|sechs|sieben|acht|neun|zehn|elf|zwolf|zwanzig|dreissig|vierzig|funfzig|sechzig|neunzig|hundert|tausend|halbe?n?|anderthalb|erste[nmrs]?|zweite[nmrs]?|dritte[nmrs]?|vierte[nmrs]?|funfte[nmrs]?|sechste[nmrs]?|siebte[nmrs]?|achte[nmrs]?|zehnte[nmrs]?|one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|thirty|half)';
const NUMBER = `(?:\\d+(?:[.,]\\d+)?|${NUMBER_WORD})`;
/** A number word that is no article ("ein", "eine" …): what a count is, also in a compound ("elfstellig"). */
const COUNT_WORD = NUMBER_WORD.replace('ein|eine|einen|einem|einer|', '');
const COUNT = `(?:\\d+(?:[.,]\\d+)?|${COUNT_WORD})`;
const TIME_UNIT =
  '(?:sekunde|sekunden|minute|minuten|min|stunde|stunden|std|tag|tage|tagen|tages|arbeitstag|arbeitstage|arbeitstagen|kalendertag|kalendertage|werktag|werktage|woche|wochen|monat|monate|monaten|monats|jahr|jahre|jahren|jahres|second|seconds|minutes|hour|hours|day|days|week|weeks|month|months|year|years)';
const WEEKDAY = '(?:montags?|dienstags?|mittwochs?|donnerstags?|freitags?|samstags?|sonntags?|werktags?|wochenende|feiertags?|monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend)';
/** An hour said in words ("um zehn Uhr", "bis fünfzehn Uhr"): the number words and the teens. */
const HOUR_WORD = `(?:${NUMBER_WORD}|dreizehn|vierzehn|funfzehn|sechzehn|siebzehn|achtzehn|neunzehn)`;
const MONTH = '(?:januar|februar|marz|april|mai|juni|juli|august|september|oktober|november|dezember|january|february|march|june|july|october|december)';

/** Whether the text carries an answer of the kind (on text folded as `foldGerman` folds it). */
const CARRIES: Record<AnswerType, RegExp> = {
  price: new RegExp(`\\d\\s*(?:€|euro\\b|eur\\b|ct\\b|cent\\b|%|prozent\\b)|(?:€|\\$|£)\\s*\\d|\\b(?:kostenlos|kostenfrei|gebuhrenfrei|gratis|umsonst|unentgeltlich|free of charge)\\b`, 'u'),
  duration: new RegExp(`\\b${NUMBER}(?:[-–]${NUMBER})?\\s+(?:\\S+\\s+)?${TIME_UNIT}\\b|\\b(?:taglich|wochentlich|monatlich|jahrlich|rund um die uhr|unbefristet|dauerhaft)\\b`, 'u'),
  time: new RegExp(`\\b\\d{1,2}(?:[:.]\\d{2})?\\s*(?:uhr|h\\b|am\\b|pm\\b)|\\b${HOUR_WORD}\\s+uhr\\b|\\b${WEEKDAY}\\b|\\b\\d{1,2}\\.\\s*(?:${MONTH}|\\d{1,2}\\.)|\\b${MONTH}\\b|\\b(?:vor|nach|ab|bis|innerhalb|spatestens|fruhestens|binnen|before|after|within|until)\\b[^.;]*\\b${NUMBER}\\b`, 'u'),
  frequency: new RegExp(`\\b${NUMBER}\\s*-?\\s*mal\\b|\\b(?:taglich|wochentlich|monatlich|jahrlich|stundlich|einmal|zweimal|dreimal|mehrmals|jeden|jede|jedes|alle|pro|je|daily|weekly|monthly|yearly|once|twice|every|per)\\b[^.;]{0,20}\\b(?:${TIME_UNIT}|mal|tag|woche|monat|jahr|stunde)\\b|\\b\\d+\\s*(?:mal|x)\\b|\\b(?:taglich|wochentlich|monatlich|jahrlich|stundlich|daily|weekly|monthly|yearly|hourly)\\b`, 'u'),
  quantity: new RegExp(`\\b${COUNT}\\b|\\b${COUNT_WORD}(?:stellig|teilig|seitig|malig|tagig|wochig|monatig|jahrig|stundig|minutig)`, 'u'),
  contact:
    /@|\b\d{3,5}[ /-]?\d{2,}(?:[ -]?\d+)*\b|\b(?:telefon|tel|durchwahl|e-mail|mail|ansprechpartner\S*|zustandig\S*|wenden sie sich|phone|contact|frau|herr|dr|leiter\S*|leitung|trainer\S*|lehrer\S*|dozent\S*|berater\S*|therapeut\S*|arzt|arztin|empfang|sekretariat|kundendienst|kundenservice|support|hotline|betriebsrat|vorgesetzte\S*|fuhrungskraft|personalabteilung|buchhaltung)\b/u,
};

/** A number and a unit of time anywhere in a table row (the unit may be in a column name or a key: "aufbewahrung_tage"). */
const ROW_DURATION = new RegExp(`(?=.*\\b${NUMBER}\\b)(?=.*(?<![a-z])${TIME_UNIT}(?![a-z]))`, 'u');

/**
 * Whether `text` carries an answer of the kind `type`. A table row or list entry (`row`) counts as
 * carrying a duration with a number in one cell and a unit of time in another or in its column names.
 */
export function carriesAnswer(type: AnswerType, text: string, row = false): boolean {
  const folded = foldGerman(text);
  // A time may be given as a duration ("Wann zum Arzt?" – "Wer länger als drei Monate …").
  const durationToo = type === 'time' || type === 'duration';
  return CARRIES[type].test(folded) || (durationToo && (CARRIES.duration.test(folded) || (row && ROW_DURATION.test(folded))));
}
