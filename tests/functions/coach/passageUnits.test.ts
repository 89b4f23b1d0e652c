/**
 * A passage as the offline coach reads it (supabase/functions/coach/passageUnits.ts): its units,
 * with the lead-in of a list and the column names of a table, and lexemes found in words without
 * a stemmer of its own.
 */
import { describe, expect, it } from 'vitest';

import { foldedWords, foldGerman, holdsLexeme, namesColumns, passageUnits } from '../../../supabase/functions/coach/passageUnits';

describe('passageUnits', () => {
  it('reads prose, entries with their lead-in and rows with their table\'s column names', () => {
    const units = passageUnits(
      'Sonderurlaub gibt es für:\n• Eigene Hochzeit: 2 Arbeitstage\n• Umzug: 1 Arbeitstag\n' +
        'Anlass\tTage\nGeburt eines Kindes\t2\nDas gilt ab dem ersten Arbeitstag.',
    );
    expect(units).toEqual([
      { kind: 'entry', text: '• Eigene Hochzeit: 2 Arbeitstage', cells: ['Eigene Hochzeit: 2 Arbeitstage'], leadIn: 'Sonderurlaub gibt es für:', header: null },
      { kind: 'entry', text: '• Umzug: 1 Arbeitstag', cells: ['Umzug: 1 Arbeitstag'], leadIn: 'Sonderurlaub gibt es für:', header: null },
      { kind: 'row', text: 'Geburt eines Kindes\t2', cells: ['Geburt eines Kindes', '2'], leadIn: 'Sonderurlaub gibt es für:', header: ['Anlass', 'Tage'] },
      { kind: 'prose', text: 'Das gilt ab dem ersten Arbeitstag.', cells: ['Das gilt ab dem ersten Arbeitstag.'], leadIn: null, header: null },
    ]);
  });

  it('goes on with a sentence whose lines the PDF broke in two, and keeps short lines and whole sentences apart', () => {
    const units = passageUnits(
      'Die Maschine meldet das Entkalken nach etwa 200 Bezügen.\nFüllen Sie den Wassertank mit 0,5 Liter Wasser und einer\n' +
        'Entkalkertablette, die Sie beim Fachhandel und bei uns im Online-Shop\nbekommen. Das Programm dauert 25 Minuten.\n' +
        'Öffnungszeiten des Kundendienstes\nMontag bis Freitag von 8 bis 18 Uhr',
    );
    expect(units.map((unit) => unit.text)).toEqual([
      'Die Maschine meldet das Entkalken nach etwa 200 Bezügen.',
      'Füllen Sie den Wassertank mit 0,5 Liter Wasser und einer Entkalkertablette, die Sie beim Fachhandel und bei uns im Online-Shop bekommen. Das Programm dauert 25 Minuten.',
      'Öffnungszeiten des Kundendienstes',
      'Montag bis Freitag von 8 bis 18 Uhr',
    ]);
  });

  it('keeps only the last sentence of a long line that introduces a list as its lead-in', () => {
    const units = passageUnits('Mit -i wählen Sie Dateien einzeln aus. Die Bedienung:\n• q beendet den Auswahlmodus.');
    expect(units.map((unit) => [unit.kind, unit.text, unit.leadIn])).toEqual([
      ['prose', 'Mit -i wählen Sie Dateien einzeln aus.', null],
      ['entry', '• q beendet den Auswahlmodus.', 'Die Bedienung:'],
    ]);
  });

  it('takes an option list\'s first entry for an entry, not for column names', () => {
    expect(namesColumns(['-r, --rekursiv', 'Sichert auch Unterordner.'])).toBe(false);
    expect(namesColumns(['Leistung', 'Preis'])).toBe(true);
    expect(namesColumns(['Einzelsitzung', '95 €'])).toBe(false);
    const units = passageUnits('-r, --rekursiv\tSichert auch Unterordner.\n-n, --probelauf\tZeigt nur an, was geschähe.');
    expect(units.map((unit) => [unit.kind, unit.cells])).toEqual([
      ['entry', ['-r, --rekursiv', 'Sichert auch Unterordner.']],
      ['entry', ['-n, --probelauf', 'Zeigt nur an, was geschähe.']],
    ]);
  });
});

describe('finding lexemes in words', () => {
  it('folds German spelling and umlauts as the database stems them', () => {
    expect(foldGerman('Übungen für Mueller an der Straße, neue Quelle')).toBe('ubungen fur muller an der strasse, neue quelle');
  });

  it('reads hyphenated words whole and as their parts', () => {
    expect(foldedWords('Die 4-7-8-Atmung per E-Mail')).toEqual(['die', '4-7-8-atmung', '4', '7', '8', 'atmung', 'per', 'e-mail', 'e', 'mail']);
  });

  it('finds a lexeme at the beginning of a word, a short one or a number only as a whole word', () => {
    const words = foldedWords('Zwei Arbeitstage bei eigener Hochzeit, 30 Tage, Stufe 3');
    expect(holdsLexeme(words, 'arbeitstag')).toBe(true);
    expect(holdsLexeme(words, 'hochzeit')).toBe(true);
    expect(holdsLexeme(words, 'tag')).toBe(true);
    expect(holdsLexeme(words, '3')).toBe(true);
    expect(holdsLexeme(words, '30')).toBe(true);
    expect(holdsLexeme(words, '0')).toBe(false);
    expect(holdsLexeme(words, 'urlaub')).toBe(false);
    // The parser's "-7" of "4-7-8" is the part 7.
    expect(holdsLexeme(foldedWords('4-7-8-Atmung'), '-7')).toBe(true);
  });
});
