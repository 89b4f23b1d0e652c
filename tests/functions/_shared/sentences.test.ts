/**
 * The sentence splitter the coach function (4-sentence cut) and the browser (one TTS request per
 * finished sentence) share. The streaming reader must find exactly the sentences the one-shot
 * splitter finds, however the text is cut into deltas.
 */
import { describe, expect, it } from 'vitest';
import { createSentenceStream, limitSentences, splitSentences } from '../../../supabase/functions/_shared/sentences';

/** Feeds `deltas` one by one; returns what each push completed and what flush() left. */
function streamed(deltas: string[]): { perPush: string[][]; sentences: string[] } {
  const stream = createSentenceStream();
  const perPush = deltas.map((delta) => stream.push(delta));
  const rest = stream.flush();
  return { perPush, sentences: [...perPush.flat(), ...(rest === null ? [] : [rest])] };
}

/** Every way of cutting `text` into two deltas, plus one delta per character. */
function cuts(text: string): string[][] {
  const all: string[][] = [Array.from(text)];
  for (let i = 1; i < text.length; i++) all.push([text.slice(0, i), text.slice(i)]);
  return all;
}

const cases: [string, string, string[]][] = [
  ['plain sentences', 'Atme tief ein. Halte kurz inne! Wie fühlst du dich?', ['Atme tief ein.', 'Halte kurz inne!', 'Wie fühlst du dich?']],
  ['z. B. with a space', 'Probiere z. B. eine Atemübung. Das hilft.', ['Probiere z. B. eine Atemübung.', 'Das hilft.']],
  ['z.B. without a space', 'Probiere z.B. Yoga. Das hilft.', ['Probiere z.B. Yoga.', 'Das hilft.']],
  ['d. h.', 'Mach Pausen, d. h. kurze Unterbrechungen. Gut so.', ['Mach Pausen, d. h. kurze Unterbrechungen.', 'Gut so.']],
  ['bzw. and ca.', 'Das dauert ca. zehn bzw. fünfzehn Minuten. Danach ruhst du.', ['Das dauert ca. zehn bzw. fünfzehn Minuten.', 'Danach ruhst du.']],
  ['Dr. and Nr.', 'Frag Dr. Weber nach Übung Nr. 3. Sie kennt sie.', ['Frag Dr. Weber nach Übung Nr. 3.', 'Sie kennt sie.']],
  ['usw. before an uppercase word ends the sentence', 'Sport, Yoga usw. Das alles hilft.', ['Sport, Yoga usw.', 'Das alles hilft.']],
  ['usw. before a lowercase word does not', 'Sport, Yoga usw. sind gut. Probier es.', ['Sport, Yoga usw. sind gut.', 'Probier es.']],
  ['etc. at the end', 'Tee, Musik etc.', ['Tee, Musik etc.']],
  ['decimal numbers', 'Schlafe 7.5 Stunden. Das reicht.', ['Schlafe 7.5 Stunden.', 'Das reicht.']],
  ['dates', 'Am 03.10.2024 war Feiertag. Schön.', ['Am 03.10.2024 war Feiertag.', 'Schön.']],
  ['ordinals after an article or preposition', 'Am 3. Oktober und beim 2. Versuch klappte es. Super.', ['Am 3. Oktober und beim 2. Versuch klappte es.', 'Super.']],
  ['a list number opening a sentence', '1. Atme ein. 2. Atme aus.', ['1. Atme ein.', '2. Atme aus.']],
  ['a number ending a sentence', 'Zähle langsam bis 4. Dann atme aus.', ['Zähle langsam bis 4.', 'Dann atme aus.']],
  ['a number before a lowercase word', 'Platz 3. und 4. gingen an uns. Ok.', ['Platz 3. und 4. gingen an uns.', 'Ok.']],
  ['ellipsis character', 'Hmm… Lass uns überlegen. Gut.', ['Hmm…', 'Lass uns überlegen.', 'Gut.']],
  ['three dots', 'Tja... Das ist schwer. Ja.', ['Tja...', 'Das ist schwer.', 'Ja.']],
  ['ellipsis before lowercase continues', 'Ich weiß nicht … vielleicht morgen. Ok.', ['Ich weiß nicht … vielleicht morgen.', 'Ok.']],
  ['quotes after the terminator', 'Sag dir: „Ich schaffe das.“ Dann atme.', ['Sag dir: „Ich schaffe das.“', 'Dann atme.']],
  ['question inside quotes mid-sentence', '„Warum ich?“, fragst du dich. Das ist normal.', ['„Warum ich?“, fragst du dich.', 'Das ist normal.']],
  ['brackets', 'Atme (ganz ruhig.) Dann weiter.', ['Atme (ganz ruhig.)', 'Dann weiter.']],
  ['multiple punctuation', 'Wirklich?! Ja!! Toll?', ['Wirklich?!', 'Ja!!', 'Toll?']],
  ['newlines as whitespace', 'Erstens.\nZweitens.', ['Erstens.', 'Zweitens.']],
  ['a blank line without terminator', 'Tipps für dich\n\nAtme tief ein.', ['Tipps für dich', 'Atme tief ein.']],
  ['trailing whitespace', '  Atme ein.   Atme aus.  \n ', ['Atme ein.', 'Atme aus.']],
  ['no terminator at the end', 'Atme ein. Und dann', ['Atme ein.', 'Und dann']],
  ['no split without whitespace', 'Besuche example.com oder ruf an.', ['Besuche example.com oder ruf an.']],
  ['initials', 'Das sagte J. K. Rowling einmal. Stimmt.', ['Das sagte J. K. Rowling einmal.', 'Stimmt.']],
  ['markdown emphasis', '**Atme tief.** Dann weiter.', ['**Atme tief.**', 'Dann weiter.']],
  ['a stray dot joins the next sentence', '. Hallo du.', ['. Hallo du.']],
];

describe('splitSentences', () => {
  it.each(cases)('%s', (_name, text, expected) => {
    expect(splitSentences(text)).toEqual(expected);
  });

  it('returns nothing for blank text', () => {
    expect(splitSentences('')).toEqual([]);
    expect(splitSentences('  \n ')).toEqual([]);
  });
});

describe('createSentenceStream', () => {
  it.each(cases)('finds the same sentences however the text is cut: %s', (_name, text, expected) => {
    for (const deltas of cuts(text)) {
      expect(streamed(deltas).sentences, JSON.stringify(deltas)).toEqual(expected);
    }
  });

  it('completes a sentence when the space and capital after its dot arrive in the next delta', () => {
    const { perPush } = streamed(['Atme tief ein.', ' Dann', ' halte inne.']);
    expect(perPush).toEqual([[], ['Atme tief ein.'], []]);
  });

  it('completes a sentence as soon as whitespace follows when nothing else is needed', () => {
    const { perPush } = streamed(['Wie geht es dir?', ' ', 'Gut.']);
    expect(perPush).toEqual([[], ['Wie geht es dir?'], []]);
  });

  it('waits for the next word where the case decides (usw., ellipsis, numbers)', () => {
    expect(streamed(['Sport usw.', ' ', 'und', ' mehr.']).perPush).toEqual([[], [], [], []]);
    expect(streamed(['Sport usw.', ' ', 'Dann', ' mehr.']).perPush).toEqual([[], [], ['Sport usw.'], []]);
    expect(streamed(['Zähle bis 4.', ' ', 'Dann']).perPush).toEqual([[], [], ['Zähle bis 4.']]);
  });

  it('never ends a sentence at an abbreviation split across deltas', () => {
    const { perPush, sentences } = streamed(['Probiere z', '.', ' B', '.', ' Yoga', '.', ' Gut', '.']);
    expect(perPush.flat()).toEqual(['Probiere z. B. Yoga.']);
    expect(sentences).toEqual(['Probiere z. B. Yoga.', 'Gut.']);
  });

  it('flushes the unfinished last sentence once, then nothing', () => {
    const stream = createSentenceStream();
    expect(stream.push('Eins. Zwei')).toEqual(['Eins.']);
    expect(stream.flush()).toBe('Zwei');
    expect(stream.flush()).toBeNull();
  });

  it('flush() gives null when the text ended with a finished sentence and whitespace', () => {
    const stream = createSentenceStream();
    expect(stream.push('Eins! ')).toEqual(['Eins!']);
    expect(stream.flush()).toBeNull();
  });
});

describe('limitSentences', () => {
  const reply = 'Eins. Zwei! Drei? Vier… Fünf. Sechs.';

  it('keeps the text up to the end of the n-th sentence', () => {
    expect(limitSentences(reply, 4)).toBe('Eins. Zwei! Drei? Vier…');
    expect(limitSentences(reply, 1)).toBe('Eins.');
    expect(limitSentences(reply, 0)).toBe('');
  });

  it('leaves shorter texts unchanged, an unfinished last sentence included', () => {
    expect(limitSentences('Eins. Zwei', 4)).toBe('Eins. Zwei');
    expect(limitSentences(reply, 6)).toBe(reply);
  });

  it('cuts where a stream counting the same sentences would', () => {
    const stream = createSentenceStream();
    let seen = '';
    let count = 0;
    for (const delta of reply.match(/\s*\S+/gu) ?? []) {
      seen += delta;
      count += stream.push(delta).length;
      if (count >= 4) break;
    }
    expect(limitSentences(seen, 4)).toBe('Eins. Zwei! Drei? Vier…');
  });
});
