/**
 * The coach without a language model (no OPENAI_API_KEY): it answers from the knowledge base.
 * The search returns only passages above its relevance floor, best first. From the best passage
 * that shares words with the question, the answer is the sentence that shares the most and the
 * sentences that follow it in the same section (2–4 complete sentences), so it reads as an answer
 * rather than a collage; headings, tables of contents, option lists and code are never quoted.
 * With no passage (or nothing quotable), Mia says warmly that this is not in her knowledge and
 * what she can help with.
 */
import { splitSentences } from '../_shared/sentences.ts';
import { topicList } from './knowledge.ts';

export const OFFLINE_MODEL = 'knowledge-base';
/** The opening of every reply that says the knowledge base does not answer the question. */
export const NOT_IN_KNOWLEDGE = 'Dazu steht leider nichts in meinem Wissen, und ich möchte dir nichts Falsches erzählen.';

/** The honest reply: not in the knowledge base, what the knowledge base does cover, an invitation. */
export function honestReply(topics: readonly string[]): string {
  const covered = topics.length === 0 ? 'Meine Wissensdatenbank ist gerade noch leer.' : `In meinem Wissen geht es um ${topicList(topics)}.`;
  return `${NOT_IN_KNOWLEDGE} ${covered} Magst du mir dazu eine Frage stellen oder erzählen, was dich gerade beschäftigt?`;
}
export const MAX_SENTENCES = 4;

/** Whether a reply is the honest "not in my knowledge" instead of an answer. */
export const isHonestReply = (reply: string): boolean => reply.startsWith(NOT_IN_KNOWLEDGE);
export const MIN_SENTENCES = 2;

/** Frequent German words that say nothing about the topic of a question. */
const STOP_WORDS = new Set([
  'aber', 'alle', 'allem', 'allen', 'aller', 'alles', 'also', 'andere', 'anderen', 'auch', 'bist', 'bitte', 'dann',
  'darf', 'dass', 'dein', 'deine', 'deinen', 'deiner', 'dich', 'diese', 'diesem', 'diesen', 'dieser', 'dieses',
  'doch', 'dort', 'durch', 'eine', 'einem', 'einen', 'einer', 'eines', 'etwas', 'euch', 'gegen', 'gibt', 'habe',
  'haben', 'hast', 'hatte', 'ihnen', 'ihre', 'ihren', 'ihrer', 'immer', 'jetzt', 'kann', 'kannst', 'keine',
  'können', 'machen', 'mache', 'machst', 'mehr', 'mein', 'meine', 'meinen', 'meiner', 'mich', 'muss', 'nach',
  'nicht', 'noch', 'oder', 'ohne', 'schon', 'sehr', 'sein', 'seine', 'sich', 'sind', 'soll', 'sollte', 'über',
  'viel', 'warum', 'weil', 'welche', 'wenn', 'werde', 'werden', 'wieder', 'wird', 'wirst', 'wollen', 'zwischen',
  // Words that ask rather than name a topic (the knowledge search gives them no weight either).
  'bedeutet', 'beste', 'besser', 'eigentlich', 'einfach', 'erklären', 'frage', 'fragen', 'ganz', 'geht', 'genau',
  'gerade', 'gerne', 'gibts', 'heißt', 'hilft', 'lange', 'macht', 'merke', 'merken', 'sagen', 'tipps', 'total',
  'viele', 'wann', 'welcher', 'welches', 'wirklich', 'woran', 'typisch', 'typische', 'typischen', 'häufig', 'häufige',
  'häufigsten',
]);

/** Separable-verb prefixes that come before the "ge" of a participle ("angespannt", "ausgeruht"). */
const PARTICIPLE = /^(?:ab|an|auf|aus|ein|mit|nach|vor|zu|zurück)?ge(\p{L}{4,})t$/u;
/** Inflection and derivation endings, longest first; a stem keeps at least four letters. */
const ENDINGS = ['ungen', 'innen', 'heit', 'keit', 'lich', 'isch', 'ung', 'ern', 'est', 'em', 'en', 'er', 'es', 'st', 'e', 'n', 's'];

/**
 * A light German stem: umlauts folded, one ending stripped, and a participle reduced to its verb
 * ("gestresst" → "stres", like "Stress"), so "Pause" meets "Pausen" and "wichtig" meets "Wichtiges".
 */
export function stem(word: string): string {
  const folded = word.toLowerCase().replace(/ß/gu, 'ss').replace(/ä/gu, 'a').replace(/ö/gu, 'o').replace(/ü/gu, 'u');
  const stripped = withoutEnding(folded);
  // "angespannt", "angespannten" → "spann"; "gestresst" → "stres", as "Stress" → "stres".
  const participle = PARTICIPLE.exec(stripped)?.[1] ?? PARTICIPLE.exec(folded)?.[1];
  return participle === undefined ? stripped : withoutEnding(participle);
}

function withoutEnding(word: string): string {
  const ending = ENDINGS.find((suffix) => word.endsWith(suffix) && word.length - suffix.length >= 4);
  return ending === undefined ? word : word.slice(0, -ending.length);
}

/**
 * The stems of the words of a text that can carry its topic. Hyphenated names stay whole as well
 * ("4-7-8-Atmung" gives "4-7-8-atmung", "4-7-8" and "atmung").
 */
function topicStems(text: string): Set<string> {
  const result = new Set<string>();
  for (const token of text.toLowerCase().split(/[^\p{L}\p{N}-]+/u)) {
    const parts = token.split('-').filter((part) => part !== '');
    const whole = parts.join('-');
    if (parts.length > 1) {
      result.add(whole);
      const numbers = parts.filter((part) => /^\p{N}+$/u.test(part));
      if (numbers.length > 1) result.add(numbers.join('-'));
    }
    for (const part of parts) {
      if (part.length >= 4 && !STOP_WORDS.has(part)) result.add(stem(part));
    }
  }
  return result;
}

/**
 * How well a stem of the text stands for a stem of the question. The same stem fully. A compound
 * of the question's word, as its first part or its head ("Stress" – "Stressmomente", "Schlaf" –
 * "Mittagsschlaf"), mostly. When the question asks for the compound, the text's word is its head
 * ("ausschlafen" – "schlafen") in part, its first part ("Stressauslöser" – "Stress") less. Parts
 * shorter than five letters, and numbers, only match exactly.
 */
function closeness(asked: string, seen: string): number {
  if (asked === seen) return 1;
  const [shorter, longer] = asked.length <= seen.length ? [asked, seen] : [seen, asked];
  if (shorter.length < 5 || /\p{N}/u.test(shorter)) return 0;
  if (shorter === asked) return longer.startsWith(shorter) || longer.endsWith(shorter) ? 0.7 : 0;
  return longer.endsWith(shorter) ? 0.5 : longer.startsWith(shorter) ? 0.25 : 0;
}

/** A heading: a short line that does not end like a sentence. */
const isHeading = (paragraph: string): boolean => paragraph.length < 90 && !/[.!?…:"“”»]$/u.test(paragraph);

/** Text that is not prose: code signatures, option lists, tables of contents, URLs. */
const notProse = (sentence: string): boolean =>
  /[{}<>*=_]|\w\(|\);|--\w|\.{4,}|https?:\/\//u.test(sentence) || !/\p{Ll}{3}/u.test(sentence) || sentence.split(/\s+/).length < 3;

interface Section {
  /** The heading above the section ('' for text before the first heading). */
  heading: string;
  sentences: string[];
}

/** A passage's sections (the paragraphs between headings), each as its prose sentences. */
function sections(passage: string): Section[] {
  const result: Section[] = [{ heading: '', sentences: [] }];
  for (const paragraph of passage.split(/\n\s*\n/)) {
    const text = paragraph.replace(/\s+/g, ' ').trim();
    if (text === '') continue;
    if (isHeading(text)) {
      const last = result.at(-1);
      if (last !== undefined && last.sentences.length === 0) last.heading = `${last.heading} ${text}`.trim();
      else result.push({ heading: text, sentences: [] });
      continue;
    }
    result.at(-1)?.sentences.push(...splitSentences(text).filter((sentence) => !notProse(sentence)));
  }
  return result.filter((section) => section.sentences.length > 0);
}

/** Stems of the words that negate the word after them ("nicht wichtig", "keine Pause"). */
const NEGATIONS = new Set(['nicht', 'kein', 'keine', 'keinen', 'keiner', 'keinem'].map((word) => stem(word)));

/** Two words of the question in a row ("nicht wichtig") found in a row in the text count this much. */
const PHRASE_WEIGHT = 0.5;

/** The text's pairs of consecutive words of four letters or more (articles and the like skipped), stemmed. */
function wordPairs(text: string): Set<string> {
  const words = text.toLowerCase().split(/[^\p{L}\p{N}-]+/u).filter((word) => word.length >= 4).map(stem);
  const pairs = new Set<string>();
  for (let index = 1; index < words.length; index++) pairs.add(`${words[index - 1] ?? ''} ${words[index] ?? ''}`);
  return pairs;
}

/** What the heading above a sentence says counts for the sentence at this share. */
const HEADING_SHARE = 0.5;
/** In a window of sentences, each later sentence counts this much less than the one before. */
const WINDOW_DECAY = 0.8;

interface Choice {
  sentences: string[];
  score: number;
}

/**
 * The answer: of all windows of up to four consecutive sentences in one section, the one whose
 * sentences share the most with the question, its first sentence counting most. What a section's
 * heading shares counts half for each of its sentences; passages the search scored lower (or
 * ranked lower, without scores) need to share more.
 *
 * Every question word counts the same here. How rare a word is matters, but in the whole knowledge
 * base, where the search weighs it (its scores carry that): among the passages it returned, the
 * question's topic is common by selection ("Pausen" is in every passage found for a question about
 * pauses), so rarity counted there would favour the incidental words of a question over its topic.
 */
export function offlineAnswer(question: string, passages: readonly string[], scores: readonly number[] = [], topics: readonly string[] = []): string {
  const asked = [...topicStems(question)];
  const found = passages.map(sections);
  const allSentences = found.flat().flatMap((section) => section.sentences);
  const credit = (stems: Set<string>, term: string): number => {
    let best = 0;
    for (const seen of stems) best = Math.max(best, closeness(term, seen));
    return best;
  };
  const sentenceStems = new Map(allSentences.map((sentence) => [sentence, topicStems(sentence)]));
  // The question's word pairs that say something together: two topic words ("Aufgaben dringend"),
  // or a negation and the topic word it negates ("dringend, aber nicht wichtig" asks for the
  // sentence that says "nicht wichtig", not the one that says "nicht dringend"). A topic word next
  // to any other word ("abends nicht", "kann abends") is no phrase.
  const topical = new Set(asked);
  const phrases = [...wordPairs(question)].filter((pair) => {
    const [first = '', second = ''] = pair.split(' ');
    return topical.has(second) && (topical.has(first) || NEGATIONS.has(first));
  });
  // How much each question term (and word pair) a sentence covers.
  const coverage = (text: string, stems: Set<string>): number[] => {
    const pairs = phrases.length > 0 ? wordPairs(text) : new Set<string>();
    return [
      ...asked.map((term) => credit(stems, term)),
      ...phrases.map((pair) => (pairs.has(pair) ? PHRASE_WEIGHT : 0)),
    ];
  };

  let best: Choice | null = null;
  for (const [rank, passageSections] of found.entries()) {
    // The search's own score where given (equal scores weigh the same), else the rank.
    const top = scores[0] ?? 0;
    const rankFactor = top > 0 ? (scores[rank] ?? 0) / top : 1 / (1 + 0.5 * rank);
    for (const section of passageSections) {
      const heading = coverage(section.heading, topicStems(section.heading)).map((value) => HEADING_SHARE * value);
      const covered = section.sentences.map((sentence) =>
        coverage(sentence, sentenceStems.get(sentence) ?? new Set()).map((value, term) => Math.max(value, heading[term] ?? 0)),
      );
      for (let start = 0; start < section.sentences.length; start++) {
        const first = covered[start] ?? [];
        if (!first.some((value) => value > 0)) continue;
        // Each question term counts once, where the window covers it best; later sentences less.
        const window = covered.slice(start, start + MAX_SENTENCES);
        let score = 0;
        for (let term = 0; term < heading.length; term++) {
          score += Math.max(...window.map((values, offset) => (values[term] ?? 0) * WINDOW_DECAY ** offset));
        }
        score *= rankFactor;
        if (score > (best?.score ?? 0)) best = { sentences: excerpt(section.sentences, start), score };
      }
    }
  }
  if (best !== null) return best.sentences.join(' ');
  // The search found the passages relevant (through stemming or the title): the best one's opening.
  const first = found.find((passageSections) => passageSections.length > 0)?.[0];
  return first === undefined ? honestReply(topics) : excerpt(first.sentences, 0).join(' ');
}

/** Up to four sentences starting at the chosen one, at least two where the section has them. */
function excerpt(section: readonly string[], start: number): string[] {
  const from = Math.max(0, Math.min(start, section.length - MIN_SENTENCES));
  return section.slice(from, from + MAX_SENTENCES);
}

/** The answer as word-sized deltas, so the browser receives it the way a model would stream it. */
export function* answerDeltas(answer: string): Generator<string> {
  for (const token of answer.match(/\s*\S+/gu) ?? []) yield token;
}
