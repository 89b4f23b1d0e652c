/**
 * German-aware sentence splitting, pure and dependency-free so the coach function (Deno and Node)
 * and the browser (re-exported from src/lib/sentences.ts) share one definition of "a sentence":
 * the function cuts replies after the 4th sentence, the browser sends each finished sentence to
 * text-to-speech while the reply is still streaming. Both must agree, or the spoken and the shown
 * reply would differ.
 *
 * A sentence ends at '.', '!', '?' or '…' (optionally followed by closing quotes or brackets) when
 * whitespace follows, and at a blank line. A '.' does not end a sentence after an abbreviation
 * (z. B., z.B., d. h., bzw., ca., Dr., Nr., …), after a single letter (initials, "z. B."), inside a
 * number (3.5, 03.10.2024: no whitespace follows), after an ordinal ("am 3. Oktober", "der 2.
 * Schritt") or a list number opening a sentence ("1. Atme ein."). Some cases need the first
 * character after the whitespace ("usw." ends a sentence before "Das", not before "und"; "…" before
 * a lowercase word continues the sentence): a streaming reader then waits for that character,
 * which costs at most one token of latency.
 */

/** A decided sentence end: the sentence is `text.slice(start, end)`, the next one starts at `next`. */
interface Boundary {
  start: number;
  end: number;
  next: number;
}

const TERMINATOR = /[.!?…]/u;
/** Closing quotes, brackets and Markdown emphasis that belong to the sentence they close: „Atme ruhig.“ Dann … */
const CLOSER = /["'“”‘’»«)\]*_]/u;
const OPENER = /^["'„“‘‚»«([]+/u;
const WHITESPACE = /\s/u;
/** A blank line (a paragraph break) with the whitespace after it. */
const PARAGRAPH = /\n[^\S\n]*\n\s*/uy;
/** A sentence needs a letter or digit; a stray "…" or "." alone joins the next one. */
const CONTENT = /[\p{L}\p{N}]/u;
const LOWERCASE = /^\p{Ll}/u;

/** Abbreviations after which a '.' never ends a sentence (compared lowercased, without the dot). */
const ABBREVIATIONS = new Set([
  'abs', 'allg', 'bspw', 'bzgl', 'bzw', 'ca', 'dr', 'evtl', 'ggf', 'ggü', 'hr', 'fr', 'inkl', 'jh', 'max',
  'mind', 'mio', 'mrd', 'nr', 'prof', 'sog', 'str', 'tel', 'vgl', 'zzgl',
]);
/** Abbreviations that close a list and often the sentence too: an end unless lowercase follows. */
const LIST_ABBREVIATIONS = new Set(['usw', 'etc', 'usf']);
/** Words that make the number after them an ordinal: "am 3. Oktober", "der 2. Schritt". */
const ORDINAL_CONTEXT = new Set([
  'am', 'im', 'zum', 'zur', 'vom', 'beim', 'ab', 'seit', 'der', 'die', 'das', 'den', 'dem', 'des',
  'ein', 'eine', 'einer', 'einem', 'einen', 'jede', 'jeder', 'jedem', 'jeden', 'jedes',
]);

type Decision = 'end' | 'continue' | 'need-more';

/** The word right before `index` within the sentence, with quotes and brackets around it removed. */
function wordBefore(text: string, sentenceStart: number, index: number): { word: string; start: number } {
  let start = index;
  while (start > sentenceStart && !WHITESPACE.test(text.charAt(start - 1))) start--;
  let word = text.slice(start, index).replace(OPENER, '');
  while (word.length > 0 && CLOSER.test(word.charAt(word.length - 1))) word = word.slice(0, -1);
  return { word, start };
}

/** Whether the first character of the next sentence is a lowercase letter; null when not yet known. */
function lowercaseFollows(next: string | undefined): boolean | null {
  return next === undefined ? null : LOWERCASE.test(next);
}

function endUnlessLowercase(next: string | undefined): Decision {
  const lowercase = lowercaseFollows(next);
  if (lowercase === null) return 'need-more';
  return lowercase ? 'continue' : 'end';
}

/** Decides whether the terminators `text.slice(runStart, runEnd)` followed by whitespace end the sentence. */
function decide(text: string, sentenceStart: number, runStart: number, runEnd: number, next: string | undefined): Decision {
  const run = text.slice(runStart, runEnd);
  if (/[!?]/u.test(run)) return 'end';
  if (run.includes('…') || run.length > 1) return endUnlessLowercase(next);

  const { word, start } = wordBefore(text, sentenceStart, runStart);
  if (word === '') return 'end';
  const lower = word.toLowerCase();
  if (/^\p{L}$/u.test(word)) return 'continue';
  if (/^(?:\p{L}{1,3}\.)+\p{L}{1,3}$/u.test(word)) return 'continue';
  if (ABBREVIATIONS.has(lower)) return 'continue';
  if (LIST_ABBREVIATIONS.has(lower)) return endUnlessLowercase(next);
  if (/^\d+(?:\.\d+)*$/u.test(word)) {
    if (text.slice(sentenceStart, start).trim() === '') return 'continue';
    const previous = wordBefore(text, sentenceStart, Math.max(sentenceStart, start - 1)).word.toLowerCase();
    if (ORDINAL_CONTEXT.has(previous)) return 'continue';
    return endUnlessLowercase(next);
  }
  return 'end';
}

/**
 * The sentence boundaries of `text` from `from` on. With `final` false (a stream that may go on),
 * a case that depends on text not yet there is left open; `from` must be a sentence start.
 */
function scan(text: string, from: number, final: boolean): Boundary[] {
  const boundaries: Boundary[] = [];
  let sentenceStart = from;
  let i = from;
  while (i < text.length) {
    const char = text.charAt(i);

    if (char === '\n') {
      PARAGRAPH.lastIndex = i;
      const paragraph = PARAGRAPH.exec(text);
      if (paragraph && CONTENT.test(text.slice(sentenceStart, i))) {
        boundaries.push({ start: sentenceStart, end: i, next: i + paragraph[0].length });
        sentenceStart = i + paragraph[0].length;
        i = sentenceStart;
        continue;
      }
      i++;
      continue;
    }

    if (!TERMINATOR.test(char)) {
      i++;
      continue;
    }
    let runEnd = i;
    while (runEnd < text.length && TERMINATOR.test(text.charAt(runEnd))) runEnd++;
    let end = runEnd;
    while (end < text.length && CLOSER.test(text.charAt(end))) end++;

    if (end === text.length) break; // the end of the text; what follows decides, or flush() does
    if (!WHITESPACE.test(text.charAt(end))) {
      i = end; // 3.5, z.B., example.com, „Warum?“, fragte sie
      continue;
    }
    let next = end;
    while (next < text.length && WHITESPACE.test(text.charAt(next))) next++;
    const following = next < text.length ? text.charAt(next) : undefined;
    let decision = decide(text, sentenceStart, i, runEnd, following);
    if (decision === 'need-more') {
      if (!final) break;
      decision = 'end';
    }
    if (decision === 'end' && CONTENT.test(text.slice(sentenceStart, end))) {
      boundaries.push({ start: sentenceStart, end, next });
      sentenceStart = next;
    }
    i = next;
  }
  return boundaries;
}

/** Splits a complete text into trimmed sentences (the last one may lack a terminator). */
export function splitSentences(text: string): string[] {
  const boundaries = scan(text, 0, true);
  const sentences = boundaries.map(({ start, end }) => text.slice(start, end).trim());
  const rest = text.slice(boundaries.at(-1)?.next ?? 0).trim();
  if (rest !== '') sentences.push(rest);
  return sentences;
}

/**
 * The beginning of `text` up to the end of its `max`-th sentence (unchanged when it has no more
 * than `max` sentences). Cuts at the same places a sentence stream fed the same text would.
 */
export function limitSentences(text: string, max: number): string {
  if (max <= 0) return '';
  const boundary = scan(text, 0, true)[max - 1];
  return boundary ? text.slice(0, boundary.end) : text;
}

export interface SentenceStream {
  /** Adds streamed text; returns the sentences it completed (trimmed), possibly none. */
  push(delta: string): string[];
  /** Ends the stream: the unfinished last sentence (trimmed), or null when nothing is left. */
  flush(): string | null;
}

/** Splits text that arrives in pieces (a streamed reply) into sentences as soon as each is decided. */
export function createSentenceStream(): SentenceStream {
  let text = '';
  let sentenceStart = 0;
  return {
    push(delta) {
      text += delta;
      const boundaries = scan(text, sentenceStart, false);
      const last = boundaries.at(-1);
      if (last) sentenceStart = last.next;
      return boundaries.map(({ start, end }) => text.slice(start, end).trim());
    },
    flush() {
      const rest = text.slice(sentenceStart).trim();
      text = '';
      sentenceStart = 0;
      return rest === '' ? null : rest;
    },
  };
}
