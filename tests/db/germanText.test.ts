/**
 * One German text processing (…_documents.sql): private.german_spelling() and
 * private.german_lexemes(), which passages, titles and questions all go through, stem the same on
 * every Postgres version; and the offline coach, which finds the database's lexemes in the words
 * of a passage without a stemmer of its own (supabase/functions/coach/passageUnits.ts), reads
 * German spelling by the same rule.
 */
import { describe, expect, it } from 'vitest';

import { foldedWords, foldGerman, holdsLexeme } from '../../supabase/functions/coach/passageUnits';
import { useDatabase } from './fixtures';

const fixture = useDatabase();

async function lexemes(text: string): Promise<string[]> {
  const result = await fixture.db.query<{ lexeme: string }>('select v.lexeme from unnest(private.german_lexemes($1)) v order by v.lexeme', [text]);
  return result.rows.map((row) => row.lexeme);
}

const spelling = async (text: string): Promise<string> =>
  (await fixture.db.query<{ spelled: string }>('select private.german_spelling($1) as spelled', [text])).rows[0]?.spelled ?? '';

describe('German spelling before stemming', () => {
  it.each([
    ['Mueller', 'müller'],
    ['aktuell', 'aktüll'],
    ['Michael', 'michäl'],
    ['Goethe', 'göthe'],
    // "ue" after q, and a u or y between vowels, stay.
    ['Quelle', 'quelle'],
    ['neue', 'neue'],
    ['Feuer', 'feuer'],
    ['bauen', 'bauen'],
    ['Bayern', 'bayern'],
  ])('reads %j as %j', async (word, spelled) => {
    expect(await spelling(word)).toBe(spelled);
  });

  it('stems "ue" spellings like the umlauts, so Postgres 15 to 18 make the same lexemes', async () => {
    // Postgres 18's stemmer reads "ue" as "ü" itself, 15 to 17 do not; after german_spelling()
    // neither has anything left to read differently.
    expect(await lexemes('Mueller')).toEqual(await lexemes('Müller'));
    expect(await lexemes('Uebungen fuer Ruecken')).toEqual(await lexemes('Übungen für Rücken'));
    expect(await lexemes('Mueller')).toEqual(['mull']);
    expect(await lexemes('Die Atemtechniken helfen bei Stress')).toEqual(['atemtechn', 'helf', 'stress']);
  });

  it('reads spelling in the offline coach by the same rule as the database', async () => {
    const samples = ['Mueller', 'aktuell', 'Michael', 'Goethe', 'Quelle', 'neue', 'Feuer', 'bauen', 'Bayern', 'Straße', 'Übungen'];
    for (const word of samples) {
      const folded = (await spelling(word)).replace(/ä/gu, 'a').replace(/ö/gu, 'o').replace(/ü/gu, 'u').replace(/ß/gu, 'ss');
      expect(foldGerman(word), word).toBe(folded);
    }
  });

  it('makes lexemes the offline coach finds at the beginning of the words they come from', async () => {
    const text =
      'Eigene Hochzeit: 2 Arbeitstage. Übungen für Mueller, die Kilometerpauschale beträgt 0,30 Euro. ' +
      'Die 4-7-8-Atmung hilft aktuell beim Einschlafen; Straßenbahn, Öffnungszeiten, E-Mail, 10er-Karte.';
    const words = foldedWords(text);
    for (const lexeme of await lexemes(text)) expect(holdsLexeme(words, lexeme), lexeme).toBe(true);
  });
});
