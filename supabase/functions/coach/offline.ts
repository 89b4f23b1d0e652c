/**
 * The coach without a language model (no OPENAI_API_KEY): it answers with what the knowledge base
 * says. From the passages the search found, it keeps the sentences that share the most words with
 * the question (at most four, in their original order, so they still read as connected text), or
 * the best passage's opening sentences when no sentence shares a word (the search also matches
 * through stemming). With no passage at all, a fixed German answer invites the visitor to rephrase.
 */
import { splitSentences } from '../_shared/sentences.ts';

export const OFFLINE_MODEL = 'knowledge-base';
export const FALLBACK_ANSWER =
  'Dazu habe ich in meiner Wissensdatenbank leider nichts gefunden. Magst du deine Frage anders formulieren oder mir mehr erzählen?';
export const MAX_SENTENCES = 4;

/** Frequent German words that say nothing about the topic of a question. */
const STOP_WORDS = new Set([
  'aber', 'alle', 'allem', 'allen', 'aller', 'alles', 'also', 'andere', 'anderen', 'auch', 'bist', 'bitte', 'dann',
  'darf', 'dass', 'dein', 'deine', 'deinen', 'deiner', 'dich', 'diese', 'diesem', 'diesen', 'dieser', 'dieses',
  'doch', 'dort', 'durch', 'eine', 'einem', 'einen', 'einer', 'eines', 'etwas', 'euch', 'gegen', 'gibt', 'habe',
  'haben', 'hast', 'hatte', 'ihnen', 'ihre', 'ihren', 'ihrer', 'immer', 'jetzt', 'kann', 'kannst', 'keine',
  'können', 'machen', 'mache', 'machst', 'mehr', 'mein', 'meine', 'meinen', 'meiner', 'mich', 'muss', 'nach',
  'nicht', 'noch', 'oder', 'ohne', 'schon', 'sehr', 'sein', 'seine', 'sich', 'sind', 'soll', 'sollte', 'über',
  'viel', 'warum', 'weil', 'welche', 'wenn', 'werde', 'werden', 'wieder', 'wird', 'wirst', 'wollen', 'zwischen',
]);

/**
 * The words of a text that can carry its topic, reduced to a crude stem (their first six letters),
 * so "Atemübung" meets "Atemübungen" and "Schlaf" meets "schlafen".
 */
function topicWords(text: string): Set<string> {
  const words = text.toLowerCase().split(/[^\p{L}\p{N}]+/u);
  return new Set(words.filter((word) => word.length >= 4 && !STOP_WORDS.has(word)).map((word) => word.slice(0, 6)));
}

interface Candidate {
  sentence: string;
  passage: number;
  position: number;
  shared: number;
}

export function offlineAnswer(question: string, passages: string[]): string {
  if (passages.length === 0) return FALLBACK_ANSWER;
  const asked = topicWords(question);
  const candidates: Candidate[] = passages.flatMap((passage, passageIndex) =>
    splitSentences(passage).map((sentence, position) => {
      let shared = 0;
      for (const word of topicWords(sentence)) if (asked.has(word)) shared++;
      return { sentence, passage: passageIndex, position, shared };
    }),
  );
  const inTextOrder = (a: Candidate, b: Candidate) => a.passage - b.passage || a.position - b.position;
  const matching = candidates.filter((candidate) => candidate.shared > 0);
  const chosen =
    matching.length > 0
      ? [...matching].sort((a, b) => b.shared - a.shared || inTextOrder(a, b)).slice(0, MAX_SENTENCES).sort(inTextOrder)
      : candidates.filter((candidate) => candidate.passage === 0).slice(0, MAX_SENTENCES);
  return chosen.map((candidate) => candidate.sentence).join(' ') || FALLBACK_ANSWER;
}

/** The answer as word-sized deltas, so the browser receives it the way a model would stream it. */
export function* answerDeltas(answer: string): Generator<string> {
  for (const token of answer.match(/\s*\S+/gu) ?? []) yield token;
}
