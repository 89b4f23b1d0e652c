/**
 * The coach without a language model (no OPENAI_API_KEY): it answers from the knowledge base.
 *
 * The search returns only passages above its relevance floor, best first, each with its evidence:
 * which of its words count as which of the question's terms, and how much each term weighs. The
 * answer is the part of those passages that holds the most of the question's weight:
 *   - a list entry or a table row on its own, with what it belongs to ("Unter „Sonderurlaub“
 *     steht: Eigene Hochzeit: 2 Arbeitstage."; a row's cells with their column names);
 *   - or up to four consecutive sentences of prose, starting at the one that counts most.
 * What the heading above a passage holds counts half for each of its units; a passage that holds
 * less of the question in its own heading and text than another needs to hold more (its share of
 * that passage's, squared; what only the document's title holds does not count). A part that carries the kind of answer the question asks for
 * (a price for "Was kostet …?", a duration for "Wie lange …?", a time for "Wann …?": answerType.ts)
 * counts twice: of two parts that hold the question's words, it is the one that answers. Headings and title blocks are never quoted (the database keeps
 * them apart from the text), and neither is the opening of a section that holds nothing asked.
 *
 * A question in a conversation is answered by its own words: the previous turn's decide only
 * between parts that hold as much of it, unless the question marks itself as a follow-up
 * (marksFollowUp(): "Und …", "dafür", "dabei" …) or has no words of its own ("Und wie lange?").
 *
 * Words of the question that the passage's document title holds name the document, not what in it
 * answers: they do not count when the evidence is judged weak (below). A question that asks for a
 * kind of answer (a price, a duration, a time, a frequency, a number, someone to turn to) is
 * answered only by a part that carries one. A passage of a document that never mentions one of
 * the question's nouns does not answer it (the search's `foreign`).
 *
 * When no passage was found, Mia says warmly that this is not in her knowledge and what her
 * knowledge covers. When passages were found but the best part holds too little of the question
 * (the search matched it through words that do not answer it), she says so as honestly, naming the
 * section that comes closest instead of quoting it.
 */
import { splitSentences } from '../_shared/sentences.ts';
import { answerType, carriesAnswer, type AnswerType } from './answerType.ts';
import { topicList, topicOf, type Evidence, type Passage } from './knowledge.ts';
import { foldedWords, holdsLexeme, passageUnits, type Unit } from './passageUnits.ts';

export const OFFLINE_MODEL = 'knowledge-base';
/** The opening of every reply that says the knowledge base does not answer the question. */
export const NOT_IN_KNOWLEDGE = 'Dazu steht leider nichts in meinem Wissen, und ich möchte dir nichts Falsches erzählen.';
export const MAX_SENTENCES = 4;

/** Whether a reply is the honest "not in my knowledge" instead of an answer. */
export const isHonestReply = (reply: string): boolean => reply.startsWith(NOT_IN_KNOWLEDGE);

/** The honest reply: not in the knowledge base, what the knowledge base does cover, an invitation. */
export function honestReply(topics: readonly string[]): string {
  const covered = topics.length === 0 ? 'Meine Wissensdatenbank ist gerade noch leer.' : `In meinem Wissen geht es um ${topicList(topics)}.`;
  return `${NOT_IN_KNOWLEDGE} ${covered} Magst du mir dazu eine Frage stellen oder erzählen, was dich gerade beschäftigt?`;
}

/** The honest reply when the closest passage does not answer: where to ask more precisely. */
export function closestReply(passage: Pick<Passage, 'title' | 'heading'>): string {
  const section = headingText(passage.heading);
  const place = section === '' ? `im Dokument „${topicOf(passage.title)}“` : `im Abschnitt „${section}“ von „${topicOf(passage.title)}“`;
  return `${NOT_IN_KNOWLEDGE} Am nächsten kommt noch etwas ${place}. Frag mich gern genauer danach.`;
}

/** What a heading says, without its numbering ("2.1 Beenden" → "Beenden"); the innermost level. */
function headingText(heading: string): string {
  const innermost = heading.split(' › ').at(-1) ?? '';
  return innermost.replace(/^\d{1,2}(?:\.\d{1,2})*\.?\s+/u, '').trim();
}

/**
 * The share of the question's weight the best part must hold to be quoted; below it the evidence
 * is weak (bench:rag, development half).
 */
export const WEAK_SHARE = 0.25;
/** What the heading (or a list's lead-in, a table's column names) holds counts at this share. */
const HEADING_SHARE = 0.5;
/** In a window of sentences, each later sentence counts this much less than the one before. */
const WINDOW_DECAY = 0.8;
/**
 * A part of a passage that holds less of the question than the passage holding the most counts
 * (its passage's held share / the largest held share, heldShare()) to this power: the passage's
 * other parts hold the rest (bench:rag, development half: 2 quotes the passage that answers more
 * often than 1, 4 no more than 2).
 */
const STANDING_POWER = 2;
/** Two words of the question in a row found in a row in the text count this much of the later word's weight. */
const PHRASE_SHARE = 0.5;
/**
 * A part that carries the kind of answer the question asks for counts this many times as much
 * when the answer is chosen (bench:rag, development half); the weak-evidence check does not see it.
 */
export const TYPE_FACTOR = 2;

interface Choice {
  passage: Passage;
  unit: Unit | null;
  /** The sentences of a prose answer (empty for an entry or a row). */
  sentences: string[];
  /**
   * The share of the latest question's weight it holds, before the passage's own standing, without
   * the terms its document's title holds: those say which document, not what in it answers.
   */
  share: number;
  /** What decides, weighed as askedOnly() weighs the question. */
  score: number;
  /** The score with the previous turn's terms at their weight: decides between equal scores. */
  withPrevious: number;
}

/**
 * Whether a question says that it goes on with the one before: it starts with "und", "aber",
 * "oder" or "auch", or it points back with a pronominal adverb ("dabei", "dafür", "damit" …: "da"
 * and a preposition). German marks a follow-up this way; a question without such a mark may be
 * a new one, also in a conversation.
 */
export function marksFollowUp(question: string): boolean {
  const words = question.toLowerCase().match(/\p{L}+/gu) ?? [];
  if (['und', 'aber', 'oder', 'auch'].includes(words[0] ?? '')) return true;
  return words.some((word) => POINTING_BACK.test(word));
}

const POINTING_BACK =
  /^(?:da|dar)(?:an|auf|aus|bei|durch|für|gegen|hinter|in|mit|nach|neben|über|um|unter|von|vor|zu|zwischen)$/u;

/**
 * The evidence as the latest question alone weighs it: the previous turn's terms weigh nothing.
 * A visitor who asks something new in a conversation is answered by what they ask now; the
 * previous turn only decides between parts that hold as much of it. A follow-up (marksFollowUp(),
 * or one without weighted words of its own: "Und wie lange?") keeps the previous turn's weight.
 */
function askedOnly(evidence: Evidence, followUp: boolean): Evidence {
  // Without a previous turn's weight there is nothing to take out.
  if (followUp || evidence.asked === 0 || evidence.askedWeight <= 0 || evidence.askedWeight >= evidence.total) return evidence;
  return {
    ...evidence,
    total: evidence.askedWeight,
    terms: evidence.terms.map((term) => (term.previous ? { ...term, weight: 0 } : term)),
  };
}

/**
 * How much of each term's weight a text holds: 1 per term whose words it has, the evidence's
 * related share for one it has only through a thesaurus synonym, else 0.
 */
function heldTerms(evidence: Evidence, text: string): number[] {
  const words = foldedWords(text);
  return evidence.terms.map((term) => {
    if (term.words.some((word) => holdsLexeme(words, word))) return 1;
    return term.related.some((word) => holdsLexeme(words, word)) ? evidence.relatedShare : 0;
  });
}

/**
 * Pairs of the question's words that stand side by side in the question, the second one a term
 * ("nicht wichtig", "dringend wichtig"); a sentence with the same pair side by side says more than
 * one with both words apart.
 */
function phrases(question: string, evidence: Evidence): { pair: string; weight: number }[] {
  const words = foldedWords(question).filter((word) => !word.includes('-'));
  const termOf = (word: string) => evidence.terms.find((candidate) => candidate.words.some((lexeme) => holdsLexeme([word], lexeme)));
  const found: { pair: string; weight: number }[] = [];
  for (let index = 1; index < words.length; index++) {
    const first = words[index - 1] ?? '';
    const second = words[index] ?? '';
    const term = termOf(second);
    // Two terms side by side, or a negation and the term it negates; not "bei Nordlicht".
    if (term !== undefined && (NEGATIONS.has(first) || termOf(first) !== undefined)) {
      found.push({ pair: `${first} ${second}`, weight: PHRASE_SHARE * term.weight });
    }
  }
  return found;
}

/** Words that negate the word after them. */
const NEGATIONS = new Set(['nicht', 'kein', 'keine', 'keinen', 'keinem', 'keiner', 'ohne', 'nie']);

function phraseWeight(text: string, pairs: readonly { pair: string; weight: number }[]): number {
  if (pairs.length === 0) return 0;
  const joined = ` ${foldedWords(text).filter((word) => !word.includes('-')).join(' ')} `;
  return pairs.reduce((sum, { pair, weight }) => {
    const [first = '', second = ''] = pair.split(' ');
    // The same words side by side, each as the beginning of the text's word ("dringende" for "dringend").
    const pattern = new RegExp(` ${escape(first)}\\S* ${escape(second.slice(0, Math.max(3, second.length - 2)))}\\S* `, 'u');
    return pattern.test(joined) ? sum + weight : sum;
  }, 0);
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');

/**
 * Whether a part speaks to the latest question: it holds one of that question's own terms, or the
 * question has none (a follow-up like "Und wie lange?" lives on the previous turn's terms). A
 * follow-up is answered by what it asks now, not by what was asked before.
 */
function answersNow(evidence: Evidence, text: string): boolean {
  if (evidence.asked === 0) return true;
  const words = foldedWords(text);
  return evidence.terms.some((term) => !term.previous && [...term.words, ...term.related].some((word) => holdsLexeme(words, word)));
}

/** The weight a part holds: each term once, its own text fully, its context (heading …) at HEADING_SHARE. */
function weightOf(evidence: Evidence, own: readonly number[], context: readonly number[]): number {
  return evidence.terms.reduce((sum, term, index) => sum + term.weight * Math.max(own[index] ?? 0, HEADING_SHARE * (context[index] ?? 0)), 0);
}

/**
 * The share of the question's weight a passage holds in its own heading and text: each term it has
 * fully, one it has only through a thesaurus synonym at the evidence's related share. What only the
 * document's title holds, which the search counts too, is in none of the passage's parts.
 */
export function heldShare(passage: Pick<Passage, 'evidence'>): number {
  return heldShareOf(passage.evidence);
}

function heldShareOf(evidence: Evidence): number {
  if (evidence.total <= 0) return 0;
  const held = evidence.terms.reduce(
    (sum, term) => sum + term.weight * (term.words.length > 0 ? 1 : term.related.length > 0 ? evidence.relatedShare : 0),
    0,
  );
  return held / evidence.total;
}

/** How much more a part counts for the kind of answer it carries. */
const typeFactor = (type: AnswerType | null, text: string, row: boolean): number => (type !== null && carriesAnswer(type, text, row) ? TYPE_FACTOR : 1);

/** One way of weighing a passage's parts: its evidence, its standing among the passages, the question's word pairs. */
interface Scoring {
  evidence: Evidence;
  standing: number;
  pairs: { pair: string; weight: number }[];
}

function scoring(question: string, evidence: Evidence, top: number): Scoring {
  return {
    evidence,
    standing: top > 0 ? (heldShareOf(evidence) / top) ** STANDING_POWER : 1,
    pairs: phrases(question, evidence),
  };
}

/**
 * The share of the question a part holds and its score, by one way of weighing: `own` and
 * `context` what its text and its heading hold of each term, `phraseText` where the question's
 * word pairs count, `typed` the factor for the kind of answer it carries.
 */
function weigh({ evidence, standing, pairs }: Scoring, own: readonly number[], context: readonly number[], phraseText: string, typed: number) {
  const share = evidence.total > 0 ? (weightOf(evidence, own, context) + phraseWeight(phraseText, pairs)) / evidence.total : 0;
  return { share, score: share * standing * typed };
}

/**
 * Every quotable part of the passages with its score; the best one wins. `type`: the kind of
 * answer asked for (a follow-up without question words asks for what the previous turn did).
 * Unless the question is a follow-up, parts are compared by what they hold of the latest question
 * and the previous turn's terms decide only between parts that hold as much of it (askedOnly()).
 */
function bestPart(question: string, type: AnswerType | null, passages: readonly Passage[]): Choice | null {
  // A question that itself asks for a kind of answer is answered only by a part that carries one:
  // a part that only talks about its subject ("Sitzung") is no answer to "Was kostet eine
  // Sitzung?", nor one without a frequency to "Wie oft muss die Anlage gewartet werden?".
  const typedOnly = type !== null && answerType(question) === type;
  const top = Math.max(0, ...passages.map(heldShare));
  const followUp = marksFollowUp(question);
  const askedEvidence = passages.map((passage) => askedOnly(passage.evidence, followUp));
  const topAsked = Math.max(0, ...askedEvidence.map(heldShareOf));
  let best: Choice | null = null;
  const consider = (choice: Choice) => {
    const leader: Choice | null = best;
    const same = (a: number, b: number) => Math.abs(a - b) <= 1e-9;
    // Of two parts holding as much, an entry or a row says it more directly than prose.
    const better =
      leader === null ||
      choice.score > leader.score + 1e-9 ||
      (same(choice.score, leader.score) &&
        (choice.withPrevious > leader.withPrevious + 1e-9 ||
          (same(choice.withPrevious, leader.withPrevious) && choice.unit !== null && leader.unit === null)));
    if (better) best = choice;
  };
  for (const [position, passage] of passages.entries()) {
    const { evidence } = passage;
    if (evidence.total <= 0 || evidence.terms.length === 0) continue;
    // A noun of the question that the passage's document never mentions: the question is about
    // something else ("Was kostet eine Flasche Entkalker?" against house rules that sell drinks by
    // the bottle), however many of its other words the passage shares.
    if (evidence.terms.some((term) => term.foreign)) continue;
    const full = scoring(question, evidence, top);
    const asked = scoring(question, askedEvidence[position] ?? evidence, topAsked);
    const headingHeld = heldTerms(evidence, passage.heading);
    const units = passageUnits(passage.content);
    // Words of the question the document's title holds ("Waschmaschine" in a washing machine's
    // manual) name the document; a part that holds nothing else of the question does not answer it.
    const titleWords = foldedWords(passage.title);
    // A question whose every word is in the title ("Was ist die Wolkenpause?" to "Wolkenpause.pdf")
    // asks what the document itself says: then the title's words count as everything else does.
    const naming = evidence.terms.map((term) => holdsLexeme(titleWords, term.term));
    const titleWeight = evidence.terms.reduce((sum, term, index) => sum + (naming[index] === true && !term.previous ? term.weight : 0), 0);
    const onlyTitle = titleWeight > 0 && titleWeight >= evidence.askedWeight;
    const beyondTitle = (values: readonly number[]) => (onlyTitle ? values : values.map((value, index) => (naming[index] === true ? 0 : value)));

    // Entries and rows on their own, with their lead-in and heading as context. A table's column
    // names count fully: the question "Was kostet …" asks for the column "Preis".
    for (const unit of units.filter((candidate) => candidate.kind !== 'prose')) {
      if (!answersNow(evidence, unit.text)) continue;
      const own = heldTerms(evidence, [unit.text, ...(unit.header ?? [])].join('\t'));
      const context = heldTerms(evidence, [passage.heading, unit.leadIn ?? ''].join(' ')).map((value, index) => Math.max(value, headingHeld[index] ?? 0));
      if (weightOf(evidence, own, context) <= 0) continue;
      const typed = typeFactor(type, [unit.text, ...(unit.header ?? [])].join('\t'), true);
      if (typedOnly && typed === 1) continue;
      const now = weigh(asked, own, context, unit.text, typed);
      const share = weigh(asked, beyondTitle(own), beyondTitle(context), unit.text, typed).share;
      consider({ passage, unit, sentences: [], share, score: now.score, withPrevious: weigh(full, own, context, unit.text, typed).score });
    }

    // Prose: windows of up to four sentences of one paragraph or the ones after it, each term
    // counted where the window holds it best, later sentences less.
    const sentences = units.filter((unit) => unit.kind === 'prose').flatMap((unit) => splitSentences(unit.text));
    const held = sentences.map((sentence) => heldTerms(evidence, sentence));
    // A window starts at a sentence that holds the question, or at the section's first sentence
    // when the heading does (an FAQ's answer below its question).
    const headingAnswers = headingHeld.some((value) => value > 0) && answersNow(evidence, passage.heading);
    for (let start = 0; start < sentences.length; start++) {
      const first = held[start] ?? [];
      const opens = start === 0 && headingAnswers;
      if (!opens && (!first.some((value) => value > 0) || !answersNow(evidence, sentences[start] ?? ''))) continue;
      const window = held.slice(start, start + MAX_SENTENCES);
      const own = evidence.terms.map((_, term) => Math.max(...window.map((values, offset) => (values[term] ?? 0) * WINDOW_DECAY ** offset)));
      const chosen = sentences.slice(start, start + MAX_SENTENCES);
      const typed = typeFactor(type, chosen.join(' '), false);
      if (typedOnly && typed === 1) continue;
      const now = weigh(asked, own, headingHeld, sentences[start] ?? '', typed);
      const share = weigh(asked, beyondTitle(own), beyondTitle(headingHeld), sentences[start] ?? '', typed).share;
      consider({ passage, unit: null, sentences: chosen, share, score: now.score, withPrevious: weigh(full, own, headingHeld, sentences[start] ?? '', typed).score });
    }
  }
  return best;
}

/** A sentence ends with a full stop (or its own ending). */
const asSentence = (text: string): string => (/[.!?…]$/u.test(text) ? text : `${text}.`);

/** An entry or a row as a spoken answer, with what it belongs to. */
function entryAnswer(passage: Passage, unit: Unit): string {
  let text: string;
  if (unit.kind === 'row' && unit.header !== null && unit.header.length === unit.cells.length) {
    const [subject = '', ...rest] = unit.cells;
    text = `${subject} – ${rest.map((cell, index) => `${unit.header?.[index + 1] ?? ''}: ${cell}`).join(', ')}`;
  } else {
    text = unit.cells.map((cell) => cell.replace(/[:.]$/u, '')).join(': ');
  }
  const context = unit.leadIn?.replace(/:$/u, '').trim() || headingText(passage.heading);
  return context === '' ? asSentence(text) : `Unter „${context}“ steht: ${asSentence(text)}`;
}

/**
 * What the offline coach says: an answer from the knowledge base, or the honest reply, because no
 * passage was found (`no_passage`) or the closest one does not answer (`weak_evidence`).
 */
export interface OfflineReply {
  kind: 'answer' | 'no_passage' | 'weak_evidence';
  text: string;
}

/**
 * The offline reply to `question` from the passages the search found (best first); `topics`
 * (what the knowledge base covers) for the honest reply; `previous`, the visitor's previous
 * question, for what a follow-up asks ("Wie lange hebt ihr meine Daten auf?" – "Und die Rechnungen?").
 */
export function offlineReply(question: string, passages: readonly Passage[], topics: readonly string[], previous: string | null = null): OfflineReply {
  const first = passages[0];
  if (first === undefined) return { kind: 'no_passage', text: honestReply(topics) };
  const type = answerType(question) ?? (previous === null ? null : answerType(previous));
  const best = bestPart(question, type, passages);
  if (best === null || best.share < WEAK_SHARE) return { kind: 'weak_evidence', text: closestReply(first) };
  const { passage, unit, sentences } = best;
  return { kind: 'answer', text: unit === null ? sentences.join(' ') : entryAnswer(passage, unit) };
}

/** The offline reply's text. */
export function offlineAnswer(question: string, passages: readonly Passage[], topics: readonly string[], previous: string | null = null): string {
  return offlineReply(question, passages, topics, previous).text;
}

/** The answer as word-sized deltas, so the browser receives it the way a model would stream it. */
export function* answerDeltas(answer: string): Generator<string> {
  for (const token of answer.match(/\s*\S+/gu) ?? []) yield token;
}
