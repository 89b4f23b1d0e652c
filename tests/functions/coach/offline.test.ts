/**
 * The offline coach's sentence choice on passages as the search returns them (headings, code and
 * option lists included): an answer of 2–4 complete sentences from the right place, or the honest
 * fallback.
 */
import { describe, expect, it } from 'vitest';

import { honestReply, offlineAnswer, stem } from '../../supabase/functions/coach/offline';

const breathing =
  'Die 4-7-8-Atmung\n\nDie 4-7-8-Atmung eignet sich besonders gut zum Einschlafen. Atme vier Sekunden lang durch die Nase ein. ' +
  'Halte den Atem sieben Sekunden lang an. Atme dann acht Sekunden lang hörbar aus. Wiederhole den Ablauf vier Mal.\n\n' +
  'Die Box-Atmung\n\nDie Box-Atmung hilft in angespannten Situationen. Du atmest vier Sekunden ein und hältst vier Sekunden.';

const manual =
  'Function reference\n\nint asn1_encode_total(const asn1_ctx *ctx, const void *value, uint8_t *out, size_t *total);\n\n' +
  'Options: --der selects the rules; --stats prints the total time.';

describe('offlineAnswer', () => {
  it('answers with the best sentence and the ones that follow it in its section, at most four', () => {
    expect(offlineAnswer('Wie geht die 4-7-8-Atmung?', [breathing])).toBe(
      'Die 4-7-8-Atmung eignet sich besonders gut zum Einschlafen. Atme vier Sekunden lang durch die Nase ein. ' +
        'Halte den Atem sieben Sekunden lang an. Atme dann acht Sekunden lang hörbar aus.',
    );
  });

  it('stays inside the section of the best sentence and never quotes a heading', () => {
    const answer = offlineAnswer('Was hilft in angespannten Situationen?', [breathing]);
    expect(answer).toBe('Die Box-Atmung hilft in angespannten Situationen. Du atmest vier Sekunden ein und hältst vier Sekunden.');
  });

  it('never quotes code signatures or option lists', () => {
    const answer = offlineAnswer('total', [manual]);
    expect(answer).toBe(honestReply([]));
  });

  it('prefers the better-ranked passage when both share the same words', () => {
    const other = 'Schlaf\n\nDie Atmung wird im Schlaf ruhiger. Das ist ganz normal.';
    expect(offlineAnswer('Wie geht die Atmung?', [breathing, other])).toContain('4-7-8-Atmung');
  });

  it('answers with the opening of the best passage when the search matched it but no sentence shares a word', () => {
    // The search may match through the document's title; the sentences then share nothing.
    expect(offlineAnswer('Was sagt der Leitfaden?', [breathing])).toBe(
      'Die 4-7-8-Atmung eignet sich besonders gut zum Einschlafen. Atme vier Sekunden lang durch die Nase ein. ' +
        'Halte den Atem sieben Sekunden lang an. Atme dann acht Sekunden lang hörbar aus.',
    );
  });

  it('meets inflected forms, participles and compounds of the question\'s words', () => {
    const stress =
      'Ursachen\n\nHäufige Stressauslöser im Beruf sind Zeitdruck und ständige Unterbrechungen. Schreibe auf, wann du dich angespannt fühlst.\n\n' +
      'Die Box-Atmung\n\nDie Box-Atmung hilft in angespannten Situationen. Du atmest vier Sekunden ein und hältst vier Sekunden.';
    expect(offlineAnswer('Welche Atmung hilft, wenn ich angespannt bin?', [stress])).toContain('Box-Atmung hilft');
    expect(stem('Pausen')).toBe(stem('Pause'));
    expect(stem('angespannten')).toBe(stem('angespannt'));
    expect(stem('gestresst')).toBe(stem('Stress'));
    expect(offlineAnswer('Was löst Stress aus?', [stress])).toContain('Stressauslöser');
  });

  it('prefers the sentence that has two words of the question in a row', () => {
    const matrix =
      'Die Eisenhower-Matrix\n\nWichtiges und Dringendes erledigst du sofort. ' +
      'Wichtiges, das nicht dringend ist, planst du ein.\n\n' +
      'Dringendes, das nicht wichtig ist, delegierst du. Was weder wichtig noch dringend ist, streichst du.';
    expect(offlineAnswer('Was tun mit Dringendem, das nicht wichtig ist?', [matrix])).toMatch(/^Dringendes, das nicht wichtig ist, delegierst du\./u);
  });

  it('weighs passages by the search\'s scores: equal scores count the same, whatever the order', () => {
    const weekend = 'E-Mail\n\nSchalte die Benachrichtigungen am Wochenende aus. Ständige Erreichbarkeit verhindert Erholung.';
    const sleep =
      'Feste Zeiten für den Schlaf\n\nStehe jeden Tag zur gleichen Zeit auf, auch am Wochenende. So stabilisiert sich die innere Uhr.';
    const question = 'Soll ich am Wochenende ausschlafen?';
    expect(offlineAnswer(question, [weekend, sleep], [0.44, 0.44])).toContain('gleichen Zeit');
    expect(offlineAnswer(question, [weekend, sleep], [0.9, 0.2])).toContain('Benachrichtigungen');
  });

  it('keeps to the question\'s topic even though every passage the search found has it', () => {
    // The search found these because they speak of pauses; that "wichtig" is in one passage only
    // does not make it the topic. The search's own scores weigh the words across the whole base.
    const pauses = 'Warum Pausen zählen\n\nNach einer Pause machst du weniger Fehler. Pausen sind Teil guter Arbeit.';
    const pomodoro = 'Pomodoro\n\nNach 25 Minuten Arbeit folgt eine Pause. Nach vier Runden kommt eine längere Pause.';
    const feedback = 'Kritik\n\nSag offen, dass dir Wertschätzung wichtig ist. Bleib bei einem Beispiel.';
    expect(offlineAnswer('Warum sind Pausen wichtig?', [pauses, pomodoro, feedback], [1, 1, 0.9])).toContain('weniger Fehler');
  });

  it('counts a negation with the word it negates as a phrase, not a topic word beside any other word', () => {
    const sleep =
      'Ein fester Rhythmus\n\nWer nach einem stressigen Tag schlecht einschlafen kann, braucht vor allem Regelmäßigkeit. ' +
      'Geh jeden Tag zur gleichen Zeit ins Bett.';
    const stress =
      'Woran du Stress bemerkst\n\nAchte auf Warnsignale wie Kopfschmerzen oder Gereiztheit. ' +
      'Wenn du dich abends nicht mehr erholst, ist es Zeit gegenzusteuern.';
    // "abends nicht" in the question is no phrase: the answer is about falling asleep.
    expect(offlineAnswer('Ich kann abends nicht einschlafen, was hilft?', [sleep, stress], [0.5, 0.5])).toContain('Regelmäßigkeit');
  });

  it('says honestly that it does not know, in Mia\'s warm German, when there is no passage', () => {
    expect(offlineAnswer('Wie backe ich Brot?', [], [], ['Preisliste', 'Hausordnung'])).toBe(honestReply(['Preisliste', 'Hausordnung']));
    expect(honestReply(['Preisliste', 'Hausordnung'])).toContain('nichts in meinem Wissen');
    expect(honestReply(['Preisliste', 'Hausordnung'])).toContain('In meinem Wissen geht es um „Preisliste“ und „Hausordnung“.');
  });
});
