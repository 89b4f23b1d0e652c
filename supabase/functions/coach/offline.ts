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

export const OFFLINE_MODEL = 'knowledge-base';
export const FALLBACK_ANSWER =
  'Dazu steht leider nichts in meinem Wissen, und ich möchte dir nichts Falsches erzählen. ' +
  'Ich kann dir bei Themen wie Stress, Pausen, Schlaf, Atemübungen und schwierigen Gesprächen im Arbeitsalltag helfen. ' +
  'Magst du mir erzählen, was dich gerade beschäftigt?';
export const MAX_SENTENCES = 4;
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
  'viele', 'wann', 'welcher', 'welches', 'wirklich', 'woran',
]);

/**
 * The words of a text that can carry its topic, with a crude stem (their first six letters), so
 * "Atemübung" meets "Atemübungen" and "Schlaf" meets "schlafen".
 */
function topicWords(text: string): Set<string> {
  const words = text.toLowerCase().split(/[^\p{L}\p{N}]+/u);
  const topical = words.filter((word) => word.length >= 4 && !STOP_WORDS.has(word));
  // The whole word as well as its stem (an exact match counts twice); a participle also gives its
  // verb stem ("gestresst" → "stress").
  return new Set(
    topical.flatMap((word) => {
      const participle = /^ge(\p{L}{4,})t$/u.exec(word)?.[1];
      return [word.slice(0, 6), word, ...(participle === undefined ? [] : [participle.slice(0, 6)])];
    }),
  );
}

/** A heading: a short line that does not end like a sentence. */
const isHeading = (paragraph: string): boolean => paragraph.length < 90 && !/[.!?…:"“”»]$/u.test(paragraph);

/** Text that is not prose: code signatures, option lists, tables of contents, URLs. */
const notProse = (sentence: string): boolean =>
  /[{}<>*=_]|\w\(|\);|--\w|\.{4,}|https?:\/\//u.test(sentence) || !/\p{Ll}{3}/u.test(sentence) || sentence.split(/\s+/).length < 3;

/** A passage's sections (the paragraphs between headings), each as its prose sentences. */
function sections(passage: string): string[][] {
  const result: string[][] = [[]];
  for (const paragraph of passage.split(/\n\s*\n/)) {
    const text = paragraph.replace(/\s+/g, ' ').trim();
    if (text === '') continue;
    if (isHeading(text)) {
      if ((result.at(-1) ?? []).length > 0) result.push([]);
      continue;
    }
    result.at(-1)?.push(...splitSentences(text).filter((sentence) => !notProse(sentence)));
  }
  return result.filter((section) => section.length > 0);
}

/** Up to four sentences starting at the best one, at least two where the section has them. */
function excerpt(section: readonly string[], best: number): string[] {
  const start = Math.max(0, Math.min(best, section.length - MIN_SENTENCES));
  return section.slice(start, start + MAX_SENTENCES);
}

interface Choice {
  section: string[];
  index: number;
  score: number;
}

export function offlineAnswer(question: string, passages: string[]): string {
  const asked = topicWords(question);
  const found = passages.map(sections);
  // A shared word weighs by how rare it is among the passages' sentences: "Temperatur" in one
  // sentence says more than "Schlaf" in ten.
  const sentenceCount = new Map<string, number>();
  for (const section of found.flat()) {
    for (const sentence of section) for (const word of topicWords(sentence)) sentenceCount.set(word, (sentenceCount.get(word) ?? 0) + 1);
  }
  let best: Choice | null = null;
  for (const [rank, passageSections] of found.entries()) {
    // Later passages ranked lower by the search: their sentences need to share more.
    const rankFactor = 1 / (1 + 0.5 * rank);
    for (const section of passageSections) {
      for (const [index, sentence] of section.entries()) {
        let shared = 0;
        for (const word of topicWords(sentence)) if (asked.has(word)) shared += 1 / (sentenceCount.get(word) ?? 1);
        const score = shared * rankFactor;
        if (score > (best?.score ?? 0)) best = { section, index, score };
      }
    }
  }
  if (best !== null) return excerpt(best.section, best.index).join(' ');
  // The search found the passages relevant (through stemming or the title): the best one's opening.
  const first = found.find((passageSections) => passageSections.length > 0)?.[0];
  return first === undefined ? FALLBACK_ANSWER : excerpt(first, 0).join(' ');
}

/** The answer as word-sized deltas, so the browser receives it the way a model would stream it. */
export function* answerDeltas(answer: string): Generator<string> {
  for (const token of answer.match(/\s*\S+/gu) ?? []) yield token;
}
