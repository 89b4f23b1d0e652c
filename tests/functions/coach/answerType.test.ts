/**
 * What kind of answer a question asks for and whether a text carries one
 * (supabase/functions/coach/answerType.ts).
 */
import { describe, expect, it } from 'vitest';

import { answerType, carriesAnswer } from '../../../supabase/functions/coach/answerType';

describe('answerType', () => {
  it('reads the kind of answer from the question words, as visitors type them', () => {
    expect(answerType('Was kostet die Zehnerkarte?')).toBe('price');
    expect(answerType('Wie teuer ist der Achtsamkeitskurs insgesamt?')).toBe('price');
    expect(answerType('Ich muss absagen. Kostet das was?')).toBe('price');
    expect(answerType('Wie lange werden alte Sicherungen aufgehoben?')).toBe('duration');
    expect(answerType('wieviele tage hab ich frei wenn ich heirate')).toBe('duration');
    expect(answerType('Ab wann brauch ich nen gelben Schein?')).toBe('time');
    expect(answerType('Wann hat das Bürgeramt samstags geöffnet?')).toBe('time');
    expect(answerType('Wie oft sollte ich entkalken?')).toBe('frequency');
    expect(answerType('Wie viel Wasser passt in den Tank?')).toBe('quantity');
    expect(answerType('Wen kann ich nachts anrufen?')).toBe('contact');
    expect(answerType('Wer leitet den Italienischkurs?')).toBe('contact');
    expect(answerType('How long does the import take?')).toBe('duration');
  });

  it('says nothing when the question words do not ask for a kind', () => {
    expect(answerType('Warum sind Pausen wichtig?')).toBeNull();
    expect(answerType('Ich sitz im Rollstuhl, komm ich bei euch rein?')).toBeNull();
    expect(answerType('Und die Rechnungen?')).toBeNull();
    // Who bears a cost: "Die Kosten der Rücksendung tragen Sie", no one to turn to.
    expect(answerType('Wer zahlt dann die Rücksendung?')).toBeNull();
  });
});

describe('carriesAnswer', () => {
  it('finds prices, durations, times, frequencies, numbers and contacts', () => {
    expect(carriesAnswer('price', 'Paket: 10 Einzelsitzungen\t850 €')).toBe(true);
    expect(carriesAnswer('price', 'Das Vorgespräch ist kostenlos.')).toBe(true);
    expect(carriesAnswer('price', 'Pakete bezahlen Sie im Voraus.')).toBe(false);
    expect(carriesAnswer('duration', 'Rechnungen bewahren wir zehn Jahre auf.')).toBe(true);
    expect(carriesAnswer('duration', 'Nach jeder Sitzung erhalten Sie eine Rechnung.')).toBe(false);
    expect(carriesAnswer('time', 'Samstags von 9 bis 12 Uhr.')).toBe(true);
    // An hour in words.
    expect(carriesAnswer('time', 'Die Kernarbeitszeit liegt zwischen zehn und fünfzehn Uhr.')).toBe(true);
    expect(carriesAnswer('time', 'Die Kernarbeitszeit ist lang.')).toBe(false);
    expect(carriesAnswer('time', 'Ab dem dritten Kalendertag brauchen wir eine Bescheinigung.')).toBe(true);
    expect(carriesAnswer('frequency', 'Entkalken Sie das Gerät einmal im Monat.')).toBe(true);
    expect(carriesAnswer('quantity', 'Der Wassertank fasst 1,8 l.')).toBe(true);
    expect(carriesAnswer('contact', 'Die Telefonseelsorge erreichen Sie unter 0800 111 0 111.')).toBe(true);
    expect(carriesAnswer('contact', 'Sprechen Sie mit Ihrer Führungskraft.')).toBe(true);
    expect(carriesAnswer('contact', 'Den Kurs leitet Frau Berg.')).toBe(true);
    expect(carriesAnswer('contact', 'Der Kurs findet in Raum 12 statt.')).toBe(false);
  });

  it('reads numbers in words, a count without articles, and a time given as a duration', () => {
    expect(carriesAnswer('frequency', 'Wiederhole den Ablauf vier Mal hintereinander.')).toBe(true);
    expect(carriesAnswer('quantity', 'Elfstellige Nummer, die Ihren Anschluss bezeichnet.')).toBe(true);
    // "einer" is an article here, no count.
    expect(carriesAnswer('quantity', 'Eine Pause von einer Minute hilft.')).toBe(false);
    expect(carriesAnswer('time', 'Wer länger als drei Monate schlecht schläft, spricht mit der Ärztin.')).toBe(true);
  });

  it('takes a table row\'s number and a unit of time in its column names or key as a duration', () => {
    const row = 'aufbewahrung_tage\t30\tAufbewahrungsdauer der Stände in Tagen';
    expect(carriesAnswer('duration', row)).toBe(false);
    expect(carriesAnswer('duration', row, true)).toBe(true);
    expect(carriesAnswer('duration', 'parallel\t4\twie --parallel', true)).toBe(false);
    // A unit of time is a word of its own: "Termin" holds no "min".
    expect(carriesAnswer('duration', '3. Trage ein festes Zeitfenster in den Kalender ein, wie einen Termin.', true)).toBe(false);
  });
});
