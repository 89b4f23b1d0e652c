import { describe, expect, it } from 'vitest';

import { isQuestion, MAX_QUESTION_CHARS, scrubQuestion } from '../../../supabase/functions/coach/openQuestions';

describe('scrubQuestion', () => {
  it.each([
    ['an e-mail address', 'Kann ich an anna.mueller+coach@beispiel-firma.de schreiben?', 'Kann ich an [E-Mail] schreiben?'],
    ['a link with a scheme', 'Steht das auf https://example.com/preise?id=7 drin?', 'Steht das auf [Link] drin?'],
    ['a link with www', 'Ist www.beispiel.de eure Seite?', 'Ist [Link] eure Seite?'],
    ['a link before punctuation', 'Steht es auf www.beispiel.de/kurse, oder auf https://beispiel.de.', 'Steht es auf [Link], oder auf [Link].'],
    ['a bare domain with a path', 'Was steht auf beispiel.de/kurse zum Kurs?', 'Was steht auf [Link] zum Kurs?'],
    ['a mobile number', 'Ruft ihr mich unter 0170 1234567 zurück?', 'Ruft ihr mich unter [Telefonnummer] zurück?'],
    ['an international number', 'Geht auch +49 (0)30 123 45 67?', 'Geht auch [Telefonnummer]?'],
    ['a number with a slash', 'Ist 030/4455667 eure Hotline?', 'Ist [Telefonnummer] eure Hotline?'],
    ['an IBAN', 'Kann ich auf DE89 3704 0044 0532 0130 00 überweisen?', 'Kann ich auf [IBAN] überweisen?'],
    ['a number of five or more digits', 'Was ist mit Vertrag 12345 oder Kunde 9876543?', 'Was ist mit Vertrag [Zahl] oder Kunde [Zahl]?'],
    ['the name after "ich heiße"', 'Hallo, ich heiße Anna Müller, was kostet ein Coaching?', 'Hallo, ich heiße [Name], was kostet ein Coaching?'],
    ['a lower-case name after "ich heiße"', 'ich heisse jonas und wie geht das?', 'ich heisse [Name] und wie geht das?'],
    ['the name after "mein Name ist"', 'Mein Name ist Özlem. Gibt es Kurse am Abend?', 'Mein Name ist [Name]. Gibt es Kurse am Abend?'],
    ['the name after "ich bin"', 'Ich bin Lukas Weber und frage mich, wie lange das dauert.', 'Ich bin [Name] und frage mich, wie lange das dauert.'],
    ['the name after "I am"', 'I am Peter, how much is it?', 'I am [Name], how much is it?'],
    ['the name after "I\'m"', "Hi, I'm Sarah Connor. Do you speak English?", "Hi, I'm [Name]. Do you speak English?"],
  ])('replaces %s', (_kind, question, kept) => {
    expect(scrubQuestion(question)).toBe(kept);
  });

  it.each([
    ['an adjective after "ich bin"', 'Ich bin müde, was hilft beim Einschlafen?'],
    ['a date', 'Habt ihr am 03.10.2024 geöffnet?'],
    ['a short number', 'Gibt es 3 Termine pro Woche für 120 Euro?'],
    ['a time and a price', 'Kostet es ab 18:30 Uhr 45,50 Euro?'],
  ])('leaves %s alone', (_kind, question) => {
    expect(scrubQuestion(question)).toBe(question);
  });

  it('does not take the next sentence for a surname', () => {
    expect(scrubQuestion('ich bin Anna Wie lange dauert die Probezeit')).toBe('ich bin [Name] Wie lange dauert die Probezeit');
  });

  it(`keeps at most ${String(MAX_QUESTION_CHARS)} characters, cut at a word`, () => {
    const long = `Wie ${'sehr '.repeat(80)}lange dauert das?`;
    const kept = scrubQuestion(long);
    expect(kept.length).toBeLessThanOrEqual(MAX_QUESTION_CHARS);
    expect(kept).toMatch(/^Wie sehr (?:sehr )+sehr…$/u);
    expect(scrubQuestion('  Wie   lange\n dauert   das?  ')).toBe('Wie lange dauert das?');
  });
});

describe('isQuestion', () => {
  it.each([
    'Was kostet ein Coaching?',
    'wie lange dauert die probezeit',
    'Und wann habt ihr geöffnet',
    'Hallo Mia, gibt es Kurse am Abend',
    'Kann ich auch online teilnehmen',
    'Erklär mir die Box-Atmung',
    'Ich möchte gerne wissen, ob ihr Gruppen anbietet.',
    'Ich frage mich, ob das bei Schlafproblemen hilft.',
    'Do you speak English',
  ])('asks: %s', (text) => {
    expect(isQuestion(text)).toBe(true);
  });

  it.each([
    'Hallo Mia!',
    'Danke, das hilft mir.',
    'Guten Morgen Mia, schön, dich kennenzulernen!',
    'Ich habe seit Wochen Stress bei der Arbeit.',
    'Meine Mutter ist krank und ich schlafe schlecht.',
    'Okay.',
  ])('does not ask: %s', (text) => {
    expect(isQuestion(text)).toBe(false);
  });
});
