/**
 * Cuts a streamed reply into the pieces that go to text-to-speech. The first piece need not wait
 * for a whole sentence: a clause of a few words (up to a comma, semicolon, colon or dash) is
 * enough, so the voice can start sooner; every later piece is a sentence (the rest of the first
 * sentence, then one sentence each), as the shared sentence splitter decides them, so the spoken
 * pieces match the sentences the coach function counts.
 */
import { createSentenceStream } from './sentences';

export interface SpeechChunker {
  /** Adds streamed text; returns the pieces it completed (trimmed), possibly none. */
  push(delta: string): string[];
  /** Ends the stream: the last piece, or null when nothing is left. */
  flush(): string | null;
}

/** Fewer words than this make no clause of their own ("Ja, …" waits for the sentence). */
export const MIN_CLAUSE_WORDS = 4;

/**
 * A clause end: , ; : followed by whitespace, or a dash between spaces. A , ; : that ends the text
 * streamed so far counts at once (the space after it arrives only with the next token), unless a
 * digit stands before it: "3," may become "3,5" and "10:" "10:30".
 */
const CLAUSE_END = /[,;:](?=\s)|(?<!\p{N})[,;:]$|\s[-–—](?=\s)/gu;
/** Text before a clause end must not contain a possible sentence end (the sentence splitter's job). */
const SENTENCE_MARK = /[.!?…\n]/u;

/** The first clause of `text` with at least `minWords` words, or null. */
export function firstClause(text: string, minWords = MIN_CLAUSE_WORDS): string | null {
  const start = text.length - text.trimStart().length;
  for (const match of text.matchAll(CLAUSE_END)) {
    const end = match.index + match[0].length;
    const clause = text.slice(start, end).trim();
    if (SENTENCE_MARK.test(clause)) return null;
    if (clause.split(/\s+/u).filter((word) => /[\p{L}\p{N}]/u.test(word)).length >= minWords) return clause;
  }
  return null;
}

export function createSpeechChunker(minClauseWords = MIN_CLAUSE_WORDS): SpeechChunker {
  const sentences = createSentenceStream();
  let text = '';
  /** The clause already sent ahead of the first sentence, or null. */
  let clause: string | null = null;
  let firstSentenceDone = false;

  /** The first sentence loses the clause that was already spoken. */
  const rest = (sentence: string): string | null => {
    if (firstSentenceDone) return sentence;
    firstSentenceDone = true;
    if (clause === null) return sentence;
    const remainder = sentence.startsWith(clause) ? sentence.slice(clause.length).trim() : sentence;
    return remainder === '' ? null : remainder;
  };

  return {
    push(delta) {
      text += delta;
      const pieces = sentences.push(delta).flatMap((sentence) => rest(sentence) ?? []);
      if (!firstSentenceDone && clause === null) {
        clause = firstClause(text, minClauseWords);
        if (clause !== null) pieces.push(clause);
      }
      return pieces;
    },
    flush() {
      const last = sentences.flush();
      const piece = last === null ? null : rest(last);
      text = '';
      clause = null;
      firstSentenceDone = false;
      return piece;
    },
  };
}
