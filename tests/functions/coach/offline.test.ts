/**
 * The offline coach's answer (supabase/functions/coach/offline.ts) from passages as the search
 * returns them: heading apart, units one per line, evidence of which lexemes count for which term.
 * The evidence here is written as the database writes it (tests/db/searchRelevance.test.ts checks
 * the database's side).
 */
import { describe, expect, it } from 'vitest';

import type { Evidence, EvidenceTerm, Passage } from '../../../supabase/functions/coach/knowledge';
import { closestReply, honestReply, isHonestReply, marksFollowUp, NOT_IN_KNOWLEDGE, offlineAnswer } from '../../../supabase/functions/coach/offline';

/** A term of the question: its weight, the lexemes that count as it, from the previous turn or not. */
const term = (name: string, weight: number, words: string[] = [name], previous = false, related: string[] = []): EvidenceTerm => ({
  term: name,
  weight,
  words,
  previous,
  related,
  named: false,
  foreign: false,
});

/**
 * A passage with the evidence of the given terms (those it holds), `total` the question's weight,
 * `askedWeight` the latest question's own (all of `total` unless given).
 */
function passage(heading: string, content: string, held: EvidenceTerm[], total: number, score = 1, asked?: number, askedWeight = total): Passage {
  const evidence: Evidence = { total, asked: asked ?? held.filter((item) => !item.previous).length, askedWeight, relatedShare: 0.6, terms: held };
  return { title: 'Handbuch.pdf', heading, content, score, evidence };
}

const breathing =
  'Die 4-7-8-Atmung eignet sich besonders gut zum Einschlafen. Atme vier Sekunden lang durch die Nase ein. ' +
  'Halte den Atem sieben Sekunden lang an. Atme dann acht Sekunden lang hörbar aus. Wiederhole den Ablauf vier Mal.';

describe('offlineAnswer', () => {
  it('answers prose with the sentence that holds the question and up to three after it', () => {
    const answer = offlineAnswer(
      'Wie lange halte ich bei der 4-7-8-Atmung den Atem an?',
      [passage('Die 4-7-8-Atmung', breathing, [term('atem', 2, ['atem']), term('halt', 2, ['halt'])], 5)],
      [],
    );
    expect(answer).toBe(
      'Halte den Atem sieben Sekunden lang an. Atme dann acht Sekunden lang hörbar aus. Wiederhole den Ablauf vier Mal.',
    );
  });

  it('answers with the table row that holds the question, its cells named by the column names', () => {
    const prices = 'Leistung\tPreis\nEinzelsitzung (60 Minuten)\t95 €\nPaket: 10 Einzelsitzungen à 60 Minuten\t850 €';
    const answer = offlineAnswer(
      'Was kostet das Paket mit zehn Sitzungen?',
      [passage('1 Einzelcoaching › Tabelle 1: Einzelsitzungen', prices, [term('kostet', 1, ['preis']), term('paket', 3, ['paket'])], 4)],
      [],
    );
    expect(answer).toBe('Unter „Tabelle 1: Einzelsitzungen“ steht: Paket: 10 Einzelsitzungen à 60 Minuten – Preis: 850 €.');
  });

  it('quotes a passage that holds less of the question only when its part holds clearly more (its standing squared)', () => {
    // The first passage holds 0.8 of the question, in two sentences far apart (0.4 each); the
    // second holds 0.6, in one sentence: 0.6 × 0.6 / 0.8 = 0.45 would win, 0.6 × (0.6 / 0.8)² = 0.34 does not.
    const best = passage('Schlafzimmer', 'Halte das Zimmer kühl. Lüfte abends. Lies nicht im Bett. Trink keinen Kaffee. Mach es dunkel.', [term('kuhl', 4), term('dunkel', 4)], 10, 1);
    const next = passage('Licht', 'Ein kühler Raum mit Vorhang hilft.', [term('kuhl', 4), term('vorhang', 2)], 10, 0.7);
    expect(offlineAnswer('Kühl, dunkel, Vorhang?', [best, next], [])).toBe('Halte das Zimmer kühl. Lüfte abends. Lies nicht im Bett. Trink keinen Kaffee.');
  });

  it('gives a passage no standing for what only its document\'s title holds', () => {
    // The search scored the first passage higher: the title "Pausen" counts half of "Pausen" for
    // every passage of the document. Its own text holds only "wichtig"; the second holds "Pausen".
    const ritual = passage('Ein Ritual für den Feierabend', 'Schreibe die drei wichtigsten Aufgaben für morgen auf.', [term('wichtig', 5)], 10, 0.75);
    const breaks = passage('Warum Pausen keine verlorene Zeit sind', 'Wer eine kurze Pause einlegt, macht weniger Fehler.', [term('paus', 6)], 10, 0.6);
    expect(offlineAnswer('Warum sind Pausen wichtig?', [ritual, breaks], [])).toBe('Wer eine kurze Pause einlegt, macht weniger Fehler.');
  });

  it('counts a word found only as its thesaurus synonym at the evidence\'s related share', () => {
    const travel = 'Erstattet werden:\n• Bahnfahrten in der 2. Klasse\n• Fahrten mit dem eigenen Auto: 0,30 Euro pro Kilometer';
    // "PKW" is in no passage; the thesaurus finds "Auto" for it (0.6 of its weight 2 beats "Bahn"'s 1).
    const held = [term('pkw', 2, [], false, ['auto']), term('bahn', 1, ['bahnfahrt'])];
    const answer = offlineAnswer('Was gibt es für Bahn oder PKW?', [passage('Dienstreisen', travel, held, 3)], []);
    expect(answer).toBe('Unter „Erstattet werden“ steht: Fahrten mit dem eigenen Auto: 0,30 Euro pro Kilometer.');
  });

  it('answers with the list entry that holds the question, with the line that introduced the list', () => {
    const leave = 'Sonderurlaub gibt es für:\n• Eigene Hochzeit: 2 Arbeitstage\n• Umzug mit eigenem Haushalt: 1 Arbeitstag';
    const answer = offlineAnswer('Wie viele Tage frei bei meiner Hochzeit?', [passage('3 Sonderurlaub', leave, [term('hochzeit', 4)], 6)], []);
    expect(answer).toBe('Unter „Sonderurlaub gibt es für“ steht: Eigene Hochzeit: 2 Arbeitstage.');
  });

  it('answers with an option and its description, under the section it stands in', () => {
    const options = '-r, --rekursiv\tSichert auch alle Unterordner.\n-n, --probelauf\tZeigt nur an, was gesichert würde.';
    const answer = offlineAnswer('Wie sichere ich auch die Unterordner?', [passage('3 Optionen', options, [term('unterordn', 3)], 4)], []);
    expect(answer).toBe('Unter „Optionen“ steht: -r, --rekursiv: Sichert auch alle Unterordner.');
  });

  it('counts what the heading holds for the units below it, never quoting the heading', () => {
    const text = 'Der Tresterbehälter ist voll.\nLeeren Sie den Behälter und setzen Sie ihn wieder ein.';
    const answer = offlineAnswer(
      'Was bedeutet Fehler E02?',
      [passage('Fehlercode E02', text, [term('e02', 4), term('fehl', 1, ['fehlercod'])], 5)],
      [],
    );
    expect(answer).toBe('Der Tresterbehälter ist voll. Leeren Sie den Behälter und setzen Sie ihn wieder ein.');
  });

  it('prefers the sentence that has two words of the question side by side', () => {
    const matrix =
      'Wichtiges und Dringendes erledigst du sofort. Wichtiges, das nicht dringend ist, planst du ein.\n' +
      'Dringendes, das nicht wichtig ist, delegierst du. Was weder wichtig noch dringend ist, streichst du.';
    const answer = offlineAnswer(
      'Was tun mit Dringendem, das nicht wichtig ist?',
      [passage('Die Eisenhower-Matrix', matrix, [term('dringend', 2), term('wichtig', 2)], 4)],
      [],
    );
    expect(answer).toMatch(/^Dringendes, das nicht wichtig ist, delegierst du\./u);
  });

  it('answers a follow-up by what it asks now, not by the previous question', () => {
    const mileage = 'Für Fahrten mit dem eigenen Auto erstatten wir 0,30 Euro pro gefahrenem Kilometer.';
    const deadline = 'Reichen Sie die Abrechnung innerhalb von drei Monaten nach der Reise ein.';
    const answer = offlineAnswer(
      'Und bis wann muss ich das abrechnen?',
      [
        passage('4.2 Fahrten mit dem eigenen Auto', mileage, [term('kilometergeld', 1.5, ['kilometer'], true), term('auto', 1.5, ['auto'], true)], 6, 1, 1, 3),
        passage('4.4 Abrechnung', deadline, [term('abrechn', 3, ['abrechn']), term('kilometergeld', 1.5, ['kilometer'], true)], 6, 0.8, 1, 3),
      ],
      [],
    );
    expect(answer).toBe(deadline);
  });

  it('reads whether a question says that it goes on with the one before', () => {
    expect(marksFollowUp('Und die Rechnungen?')).toBe(true);
    expect(marksFollowUp('Kann ich dafür auch Essig nehmen?')).toBe(true);
    expect(marksFollowUp('Werden dabei meine Dateien überschrieben?')).toBe(true);
    expect(marksFollowUp('Aber was ist am Wochenende?')).toBe(true);
    expect(marksFollowUp('Wie lange dauert eine Sitzung?')).toBe(false);
    expect(marksFollowUp('Darf ich meinen Hund mitbringen?')).toBe(false);
    expect(marksFollowUp('Wo finde ich das Datum?')).toBe(false);
  });

  describe('a new question in a conversation', () => {
    // "Brauche ich für die Einzelsitzung eine Überweisung?" after "Kann ich einen Termin kurzfristig
    // absagen?": the previous turn's words weigh half (1.5 each), the question's own 2 each.
    const asked = [term('einzelsitzung', 2), term('uberweis', 2)];
    const referral = 'Für eine Einzelsitzung brauchen Sie keine Überweisung.';
    const cancelling = 'Eine Einzelsitzung können Sie bis 24 Stunden vorher absagen; danach berechnen wir den Termin.';

    it('is answered by what it asks, although another part holds more of the previous turn', () => {
      const answer = offlineAnswer(
        'Brauche ich für die Einzelsitzung eine Überweisung?',
        [
          passage('Absagen', cancelling, [asked[0] ?? term('einzelsitzung', 2), term('termin', 1.5, ['termin'], true), term('absag', 1.5, ['absag'], true)], 7, 1, 2, 4),
          passage('Überweisung', referral, asked, 7, 0.6, 2, 4),
        ],
        [],
      );
      expect(answer).toBe(referral);
    });

    it('leaves the choice between parts that hold as much of it to the previous turn', () => {
      // "Und die Einzelsitzung?" after "Kann ich einen Termin kurzfristig absagen?"
      const only = [term('einzelsitzung', 2)];
      const answer = offlineAnswer(
        'Und die Einzelsitzung?',
        [
          passage('Überweisung', referral, only, 5, 1, 1, 2),
          passage('Absagen', cancelling, [...only, term('termin', 1.5, ['termin'], true), term('absag', 1.5, ['absag'], true)], 5, 1, 1, 2),
        ],
        [],
      );
      expect(answer).toBe(cancelling);
    });
  });

  describe('the kind of answer asked for', () => {
    const held = [term('rechnung', 3)];
    const mailed = passage('Bezahlung', 'Rechnungen schicken wir Ihnen nach jeder Sitzung per E-Mail.', held, 4);
    const kept = passage('Datenschutz', 'Rechnungen bewahren wir aus steuerlichen Gründen zehn Jahre auf.', held, 4);

    it('chooses, of two parts that hold the question alike, the one that carries it', () => {
      expect(offlineAnswer('Wie lange bewahrt ihr die Rechnungen auf?', [mailed, kept], [])).toBe(kept.content);
      // A question that asks for no kind keeps the search's order.
      expect(offlineAnswer('Was passiert mit den Rechnungen?', [mailed, kept], [])).toBe(mailed.content);
    });

    it('is, for a follow-up without question words, the kind the previous question asked for', () => {
      expect(offlineAnswer('Und die Rechnungen?', [mailed, kept], [], 'Wie lange hebt ihr meine Daten auf?')).toBe(kept.content);
      expect(offlineAnswer('Und die Rechnungen?', [mailed, kept], [])).toBe(mailed.content);
    });
  });

  it('of two passages holding as much, quotes the one the search ranks first', () => {
    const weekend = 'Schalte die Benachrichtigungen am Wochenende aus.';
    const sleep = 'Stehe jeden Tag zur gleichen Zeit auf, auch am Wochenende.';
    const held = [term('wochen', 2, ['wochenend'])];
    expect(offlineAnswer('Soll ich am Wochenende ausschlafen?', [passage('E-Mail', weekend, held, 4, 0.9), passage('Schlaf', sleep, held, 4, 0.8)], [])).toContain(
      'Benachrichtigungen',
    );
    expect(offlineAnswer('Soll ich am Wochenende ausschlafen?', [passage('Schlaf', sleep, held, 4, 0.9), passage('E-Mail', weekend, held, 4, 0.8)], [])).toContain(
      'gleichen Zeit',
    );
  });

  it('says honestly that the evidence is weak, naming the closest section, instead of quoting it', () => {
    const answer = offlineAnswer('Wie viel Weihnachtsgeld bekomme ich bei Nordlicht?', [passage('2 Arbeitszeit', 'Bei Nordlicht gilt Gleitzeit.', [term('nordlicht', 1)], 5)], []);
    expect(answer).toBe(closestReply({ title: 'Handbuch.pdf', heading: '2 Arbeitszeit' }));
    expect(answer).toBe(
      `${NOT_IN_KNOWLEDGE} Am nächsten kommt noch etwas im Abschnitt „Arbeitszeit“ von „Handbuch“. Frag mich gern genauer danach.`,
    );
    expect(isHonestReply(answer)).toBe(true);
  });

  it('does not answer with a part that holds only the words naming the document', () => {
    // "Waschmaschine" is in the manual's title: it says which document, not what in it answers.
    const manual = { ...passage('Gebrauchsanleitung', 'Die Waschmaschine AQUA 8 wäscht 8 kg.', [term('waschmaschin', 3)], 6), title: 'Gebrauchsanleitung Waschmaschine AQUA 8' };
    expect(isHonestReply(offlineAnswer('kann die waschmaschine auch trocknen', [manual], []))).toBe(true);
    // The same part answers where the title does not name it.
    expect(offlineAnswer('kann die waschmaschine auch trocknen', [{ ...manual, title: 'Geräte' }], [])).toBe('Die Waschmaschine AQUA 8 wäscht 8 kg.');
    // A question of nothing but the title's words asks what the document itself says.
    const pause = { ...passage('Wolkenpause', 'Die Wolkenpause dauert drei Minuten.', [term('wolkenpaus', 3)], 3), title: 'Wolkenpause' };
    expect(offlineAnswer('Was ist die Wolkenpause?', [pause], [])).toBe('Die Wolkenpause dauert drei Minuten.');
  });

  it('answers a question for a price only with a part that names one', () => {
    const exercise = passage('Box-Atmung', 'Die Box-Atmung hilft vor einer schwierigen Sitzung.', [term('sitzung', 3)], 4);
    expect(isHonestReply(offlineAnswer('Was kostet bei euch eine Sitzung?', [exercise], []))).toBe(true);
    const price = passage('Preise', 'Eine Sitzung kostet 95 Euro.', [term('sitzung', 3)], 4);
    expect(offlineAnswer('Was kostet bei euch eine Sitzung?', [exercise, price], [])).toBe('Eine Sitzung kostet 95 Euro.');
  });

  it('answers a question for any kind of answer only with a part that carries one', () => {
    // The controller's reference names the heat pump and waiting, never how often it is serviced.
    const held = [term('warmepump', 3, ['warmepump']), term('wart', 3, ['wart'])];
    const waiting = passage('Störungen', 'Zeigt die Wärmepumpe E4, warten Sie, bis sie wieder anläuft.', held, 6);
    expect(isHonestReply(offlineAnswer('Wie oft muss die Wärmepumpe gewartet werden?', [waiting], []))).toBe(true);
    const yearly = passage('Wartung', 'Lassen Sie die Wärmepumpe einmal im Jahr warten.', held, 6);
    expect(offlineAnswer('Wie oft muss die Wärmepumpe gewartet werden?', [waiting, yearly], [])).toBe('Lassen Sie die Wärmepumpe einmal im Jahr warten.');
    // Someone to turn to: a role answers "Wer …?"; a part without one does not.
    const course = [term('italienischkurs', 3, ['italienischkurs'])];
    const room = passage('Kurse', 'Der Italienischkurs findet in Raum 12 statt.', course, 4);
    expect(isHonestReply(offlineAnswer('Wer leitet den Italienischkurs?', [room], []))).toBe(true);
    const lead = passage('Kurse', 'Den Italienischkurs leitet Frau Berg.', course, 4);
    expect(offlineAnswer('Wer leitet den Italienischkurs?', [room, lead], [])).toBe('Den Italienischkurs leitet Frau Berg.');
  });

  it('does not answer from a document that never mentions a noun of the question', () => {
    // House rules that sell drinks by the bottle say nothing about descaler.
    const kitchen = 'Getränke aus dem Kühlschrank bezahlen Sie in der Vertrauenskasse, 1,50 Euro pro Flasche.';
    const held = [term('kostet', 1, ['euro']), { ...term('flasch', 4), named: true }];
    const descaler = { ...term('entkalk', 4, []), named: true };
    const answer = offlineAnswer('Was kostet eine Flasche Entkalker?', [passage('Küche', kitchen, [...held, { ...descaler, foreign: true }], 9)], []);
    expect(isHonestReply(answer)).toBe(true);
    // A document that mentions the noun elsewhere may answer with a part without it.
    expect(offlineAnswer('Was kostet eine Flasche Entkalker?', [passage('Küche', kitchen, [...held, descaler], 9)], [])).toContain('1,50 Euro pro Flasche');
  });

  it('says honestly that it does not know, naming what the knowledge base covers, when there is no passage', () => {
    expect(offlineAnswer('Wie backe ich Brot?', [], ['Preisliste 2026', 'Hausordnung'])).toBe(honestReply(['Preisliste 2026', 'Hausordnung']));
    expect(honestReply(['Preisliste 2026', 'Hausordnung'])).toBe(
      `${NOT_IN_KNOWLEDGE} In meinem Wissen geht es um „Preisliste 2026“ und „Hausordnung“. Magst du mir dazu eine Frage stellen oder erzählen, was dich gerade beschäftigt?`,
    );
    expect(honestReply([])).toContain('Meine Wissensdatenbank ist gerade noch leer.');
    expect(isHonestReply(honestReply([]))).toBe(true);
    expect(isHonestReply(breathing)).toBe(false);
  });
});
