import { describe, expect, it } from 'vitest';
import { createSpeechChunker, firstClause } from './speechChunks';

/** Feeds the text token by token, as a streamed reply arrives, and collects every piece. */
function chunk(text: string): string[] {
  const chunker = createSpeechChunker();
  const pieces = (text.match(/\s*\S+/gu) ?? []).flatMap((token) => chunker.push(token));
  const last = chunker.flush();
  return last === null ? pieces : [...pieces, last];
}

describe('speech chunks', () => {
  it('sends a first clause of a few words ahead, then the rest of the sentence, then sentences', () => {
    expect(chunk('Das klingt nach einem vollen Tag, und das ist ganz normal. Atme zuerst tief durch. Dann planen wir.')).toEqual([
      'Das klingt nach einem vollen Tag,',
      'und das ist ganz normal.',
      'Atme zuerst tief durch.',
      'Dann planen wir.',
    ]);
  });

  it('the clause piece is ready as soon as its comma has arrived, without waiting for the next token', () => {
    const chunker = createSpeechChunker();
    expect(chunker.push('Das klingt nach einem vollen')).toEqual([]);
    expect(chunker.push(' Tag')).toEqual([]);
    expect(chunker.push(',')).toEqual(['Das klingt nach einem vollen Tag,']);
    expect(chunker.push(' und das ist normal.')).toEqual([]);
    expect(chunker.flush()).toBe('und das ist normal.');
  });

  it('waits for the next token after a comma or colon that follows a digit (3,5 or 10:30)', () => {
    const decimal = createSpeechChunker();
    expect(decimal.push('Schon eine Nacht mit nur 3,')).toEqual([]);
    expect(decimal.push('5 Stunden Schlaf macht müde.')).toEqual([]);
    expect(decimal.flush()).toBe('Schon eine Nacht mit nur 3,5 Stunden Schlaf macht müde.');
    const time = createSpeechChunker();
    expect(time.push('Geh heute schon um 22:')).toEqual([]);
    expect(time.push('30 Uhr ins Bett.')).toEqual([]);
    expect(time.flush()).toBe('Geh heute schon um 22:30 Uhr ins Bett.');
    const list = createSpeechChunker();
    expect(list.push('Wir haben dafür genau 3,')).toEqual([]);
    expect(list.push(' nicht 4 Schritte')).toEqual(['Wir haben dafür genau 3,']);
  });

  it('accepts colons, semicolons and dashes between spaces as clause ends', () => {
    expect(firstClause('Hier sind drei kleine Schritte: atmen, gehen, trinken.')).toBe('Hier sind drei kleine Schritte:');
    expect(firstClause('Das ist ganz normal – viele erleben das.')).toBe('Das ist ganz normal –');
    expect(firstClause('Du bist nicht allein damit; viele kennen das.')).toBe('Du bist nicht allein damit;');
  });

  it('waits for the sentence when the clause would be too short, a number, or a hyphenated word', () => {
    expect(chunk('Ja, das kenne ich gut. Mach eine Pause.')).toEqual(['Ja, das kenne ich gut.', 'Mach eine Pause.']);
    expect(firstClause('Etwa 3,5 Stunden Schlaf sind zu wenig.')).toBeNull();
    expect(firstClause('Die 4-7-8-Atmung hilft beim Einschlafen sehr.')).toBeNull();
    expect(firstClause('Schreib mir eine E-Mail an info@example.com, bitte.')).toBeNull();
  });

  it('never takes a clause across a sentence end', () => {
    expect(chunk('Gut. Dann schauen wir uns das gemeinsam an, Schritt für Schritt.')).toEqual([
      'Gut.',
      'Dann schauen wir uns das gemeinsam an, Schritt für Schritt.',
    ]);
  });

  it('speaks a reply without any end mark, and only one clause per reply', () => {
    expect(chunk('Atme ruhig ein, halte kurz an, und atme langsam aus')).toEqual([
      'Atme ruhig ein, halte kurz an,',
      'und atme langsam aus',
    ]);
  });
});
