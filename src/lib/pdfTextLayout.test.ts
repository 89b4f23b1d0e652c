import { documentText, hasReadableText, joinUnit, pageText } from './pdfTextLayout';
import type { PdfTextItem } from './pdfTextLines';

/** A run at baseline `y` in a 10-point font. */
const run = (str: string, y: number, hasEOL = false, height = 10): PdfTextItem => ({
  str,
  hasEOL,
  transform: [height, 0, 0, height, 72, y],
  height,
});

describe('pageText', () => {
  it('breaks lines where the reader marks the end of a line', () => {
    expect(pageText([run('Erste Zeile', 700, true), run('zweite Zeile', 688)])).toBe('Erste Zeile\nzweite Zeile');
  });

  it('breaks lines where the baseline moves, even without an end-of-line mark', () => {
    expect(pageText([run('Erste Zeile', 700), run('zweite Zeile', 688)])).toBe('Erste Zeile\nzweite Zeile');
  });

  it('joins runs on the same baseline and collapses spaces', () => {
    expect(pageText([run('Atem', 700), run('  ', 700), run('übung ', 700), run('heute', 700.5)])).toBe('Atem übung heute');
  });

  it('keeps paragraphs apart where the gap is wider than the usual line spacing', () => {
    const items = [run('Absatz eins,', 700, true), run('Zeile zwei.', 688, true), run('Absatz zwei.', 664, true), run('Ende.', 652)];
    expect(pageText(items)).toBe('Absatz eins,\nZeile zwei.\n\nAbsatz zwei.\nEnde.');
  });

  it('sees paragraph gaps on a page of one-line paragraphs', () => {
    const items = [run('Eins.', 700, true), run('Zwei.', 670, true), run('Drei.', 640)];
    expect(pageText(items)).toBe('Eins.\n\nZwei.\n\nDrei.');
  });

  it('starts a paragraph where the text jumps upwards (a new column)', () => {
    expect(pageText([run('Spalte eins', 200, true), run('Spalte zwei', 700)])).toBe('Spalte eins\n\nSpalte zwei');
  });

  it('does not break a line for a slightly raised run (a footnote mark)', () => {
    expect(pageText([run('Cortisol', 700), run('1', 703, false, 6), run(' steigt', 700)])).toBe('Cortisol1 steigt');
  });

  it('ignores marked-content items, empty end-of-line runs and a leading space', () => {
    const items: PdfTextItem[] = [
      { type: 'beginMarkedContent' },
      run(' ', 710),
      run('Text', 700),
      run('', 0, true),
      { type: 'endMarkedContent' },
      run('weiter', 688),
    ];
    expect(pageText(items)).toBe('Text\nweiter');
  });

  it('drops characters a database or a reader cannot use and composes umlauts', () => {
    expect(pageText([run('Ma\u00dfnah\u00adme\u0000 ü\u200b', 700), run('U\u0308bung', 688)])).toBe('Maßnahme ü\nÜbung');
  });

  it('is empty for a page without text', () => {
    expect(pageText([])).toBe('');
    expect(pageText([run('   ', 700, true)])).toBe('');
  });
});

/** A run of `width` points at x, baseline y, in a 10-point font, as pdfjs reports widths. */
const placed = (str: string, x: number, y: number, width: number, hasEOL = false): PdfTextItem => ({
  str,
  hasEOL,
  transform: [10, 0, 0, 10, x, y],
  height: 10,
  width,
});

describe('pageText: units and cells', () => {
  it('joins lines the typesetting wrapped into one unit, hyphenation undone', () => {
    const items = [
      placed('Wer regelmäßig Pausen macht, arbeitet danach schneller und macht weniger', 50, 700, 300, true),
      placed('Fehler. Pausen sind Teil guter Arbeit; sie verhin-', 50, 688, 300, true),
      placed('dern Erschöpfung.', 50, 676, 70, true),
      placed('Ein kurzer Satz.', 50, 664, 60, true),
      placed('Neue Zeile nach einer kurzen.', 50, 652, 110),
    ];
    expect(pageText(items)).toBe(
      'Wer regelmäßig Pausen macht, arbeitet danach schneller und macht weniger Fehler. Pausen sind Teil guter Arbeit; sie verhindern Erschöpfung.\n' +
        'Ein kurzer Satz.\nNeue Zeile nach einer kurzen.',
    );
  });

  it('starts a unit at every list entry, even after a full line', () => {
    const items = [
      placed('• Erster Punkt einer Liste mit etwas längerem Text, der über mehrere Zeilen', 50, 700, 300, true),
      placed('umbrochen wird.', 64, 688, 60, true),
      placed('• Zweiter Punkt, der die Zeile ebenfalls ganz füllt bis zum rechten Rand hin', 50, 676, 300, true),
      placed('1. Ein nummerierter Schritt.', 50, 664, 100),
    ];
    expect(pageText(items)).toBe(
      '• Erster Punkt einer Liste mit etwas längerem Text, der über mehrere Zeilen umbrochen wird.\n' +
        '• Zweiter Punkt, der die Zeile ebenfalls ganz füllt bis zum rechten Rand hin\n1. Ein nummerierter Schritt.',
    );
  });

  it('separates table cells by a tab where the gap is wider than a word space, and keeps a bullet beside its text', () => {
    const items = [
      placed('Einzelsitzung', 50, 700, 60),
      placed(' ', 110, 700, 40),
      placed('60 Minuten', 150, 700, 45),
      placed('95 €', 260, 700, 20, true),
      placed('•', 50, 688, 4),
      placed('Mit Nachweis', 64, 688, 55, true),
      placed('Atem', 50, 660, 22),
      placed('übung', 72.5, 660, 25),
      placed('heute', 100, 660, 25),
    ];
    // Runs of one word (kerned pieces) join without a space.
    expect(pageText(items)).toBe('Einzelsitzung\t60 Minuten\t95 €\n• Mit Nachweis\n\nAtemübung heute');
  });

  it('reads an option on a line of its own and its description indented below it as one entry of two cells', () => {
    const items = [
      placed('-r, --rekursiv', 50, 700, 70, true),
      placed('Sichert auch alle Unterordner des angegebenen Ordners, beliebig', 128, 688, 222, true),
      placed('tief verschachtelt.', 128, 676, 70, true),
      placed('--komprimieren', 50, 664, 70, true),
      placed('Packt die Sicherung.', 128, 652, 80),
    ];
    expect(pageText(items)).toBe(
      '-r, --rekursiv\tSichert auch alle Unterordner des angegebenen Ordners, beliebig tief verschachtelt.\n--komprimieren\tPackt die Sicherung.',
    );
  });

  it('starts a new unit at a line left of a wrapped line before it: the next term of a list', () => {
    const items = [
      placed('Diese Befehle kennt das Programm, jeder mit seinen Argumenten und einer kurzen Erklärung.', 50, 724, 300, true),
      placed('liste', 50, 700, 20),
      placed('Zeigt alle vorhandenen Stände mit Datum und Größe, den', 128, 700, 222, true),
      placed('neuesten zuerst, mit allem, was zu jedem Stand gehört.', 128, 688, 210, true),
      placed('SICHERN_PASSWORT', 50, 676, 60),
      placed('Passwort für verschlüsselte Stände, nur in geschützten Skripten zu', 128, 676, 215, true),
      placed('verwenden.', 128, 664, 40, true),
      placed('wiederherstellen STAND [ZIEL]', 50, 652, 120, true),
      placed('Schreibt den Stand STAND in das Verzeichnis ZIEL zurück.', 128, 640, 200, true),
    ];
    expect(pageText(items)).toBe(
      'Diese Befehle kennt das Programm, jeder mit seinen Argumenten und einer kurzen Erklärung.\n\n' +
        'liste\tZeigt alle vorhandenen Stände mit Datum und Größe, den neuesten zuerst, mit allem, was zu jedem Stand gehört.\n' +
        'SICHERN_PASSWORT\tPasswort für verschlüsselte Stände, nur in geschützten Skripten zu verwenden.\n' +
        'wiederherstellen STAND [ZIEL]\tSchreibt den Stand STAND in das Verzeichnis ZIEL zurück.',
    );
  });

  it('reads a justified line whose spaces were stretched as wide as cell gaps as prose, a table row not', () => {
    const items = [
      placed('Einstellungen stehen in der Datei ~/.config/sichern/sichern.conf,', 50, 712, 220),
      placed('unter', 285, 712, 20),
      placed('Windows', 320, 712, 30, true),
      placed('~/.config/sichern/sichern.conf,', 50, 700, 190),
      placed('unter', 255, 700, 20),
      placed('Windows', 290, 700, 30),
      placed('in', 335, 700, 15, true),
      placed('in %APPDATA%\\sichern.conf. Jede Zeile hat die Form schluessel = wert.', 50, 688, 250, true),
      placed('ziel', 50, 664, 15),
      placed('(keiner)', 150, 664, 35),
      placed('Sicherungsziel, etwa sftp://nas/sicherung', 250, 664, 100, true),
    ];
    expect(pageText(items)).toBe(
      'Einstellungen stehen in der Datei ~/.config/sichern/sichern.conf, unter Windows ~/.config/sichern/sichern.conf, unter Windows in in %APPDATA%\\sichern.conf. Jede Zeile hat die Form schluessel = wert.\n\n' +
        'ziel\t(keiner)\tSicherungsziel, etwa sftp://nas/sicherung',
    );
  });

  it('reads a few words on a line of their own and a line indented far below them as a term and its description', () => {
    const items = [
      placed('Kaffee zu kalt', 50, 700, 60, true),
      placed('Brühtemperatur auf „hoch“ stellen.', 128, 688, 140, true),
      placed('Kaffee zu wässrig', 50, 676, 50),
      placed('Mahlgrad feiner stellen.', 128, 676, 100, true),
      placed('Ein neuer Abschnitt', 50, 652, 80, true),
      placed('mit einer eingerückten ersten Zeile.', 70, 640, 150),
    ];
    expect(pageText(items)).toBe(
      'Kaffee zu kalt\tBrühtemperatur auf „hoch“ stellen.\nKaffee zu wässrig\tMahlgrad feiner stellen.\n\nEin neuer Abschnitt\nmit einer eingerückten ersten Zeile.',
    );
  });

  it('joins a paragraph\'s lines after an indented first line', () => {
    const items = [
      placed('Ein Absatz, dessen erste Zeile eingerückt ist, wie es der Satz', 70, 700, 280, true),
      placed('deutscher Bücher will, und der in der nächsten Zeile weitergeht.', 50, 688, 300, true),
    ];
    expect(pageText(items)).toBe('Ein Absatz, dessen erste Zeile eingerückt ist, wie es der Satz deutscher Bücher will, und der in der nächsten Zeile weitergeht.');
  });

  it('starts a new entry at a term too wide for the column of terms, its description below it', () => {
    const items = [
      placed('Diese Variablen gelten, wenn weder die Kommandozeile noch die Datei etwas anderes sagen.', 50, 724, 300, true),
      placed('ZIEL', 50, 700, 20),
      placed('Sicherungsziel, wenn weder die Kommandozeile noch die Datei eines nennen.', 128, 700, 222, true),
      placed('SICHERN_PASSWORT', 50, 688, 90, true),
      placed('Passwort für verschlüsselte Stände.', 128, 676, 130, true),
      placed('KONFIG', 50, 664, 30),
      placed('Pfad einer anderen Konfigurationsdatei, der über das Ende der Zeile', 128, 664, 222, true),
      placed('hinausgeht.', 128, 652, 40),
    ];
    expect(pageText(items)).toBe(
      'Diese Variablen gelten, wenn weder die Kommandozeile noch die Datei etwas anderes sagen.\n\n' +
        'ZIEL\tSicherungsziel, wenn weder die Kommandozeile noch die Datei eines nennen.\n' +
        'SICHERN_PASSWORT\tPasswort für verschlüsselte Stände.\n' +
        'KONFIG\tPfad einer anderen Konfigurationsdatei, der über das Ende der Zeile hinausgeht.',
    );
  });
});

/** A placed run in a font: `R` the body's roman, `B` bold, `I` italic, `C` a monospaced font. */
const inFont = (font: 'R' | 'B' | 'I' | 'C', str: string, x: number, y: number, width: number, height = 10): PdfTextItem => ({
  str,
  hasEOL: true,
  transform: [height, 0, 0, height, x, y],
  height,
  width,
  fontName: font,
});
const styles = { R: { fontFamily: 'serif' }, B: { fontFamily: 'serif' }, I: { fontFamily: 'serif' }, C: { fontFamily: 'monospace' } };

describe('pageText: columns', () => {
  it('measures a wrapped line against its own column\'s edge, and a list of short lines against the page\'s', () => {
    const items = [
      // The left column ends at 262, the right one at 500.
      placed('Der Werkraum ist montags bis freitags von 8 bis', 50, 700, 212, true),
      placed('20 Uhr geöffnet, samstags von 10 bis 16 Uhr. An', 50, 688, 212, true),
      placed('Feiertagen bleibt er geschlossen, wer außerhalb', 50, 676, 212, true),
      placed('arbeiten möchte, fragt vorher.', 50, 664, 120, true),
      placed('Die Nutzung kostet 5 Euro pro Tag oder 40 Euro', 288, 700, 212, true),
      placed('im Monat, Material nach Verbrauch, Mitglieder', 288, 688, 212, true),
      placed('des Vereins zahlen für alles nur die Hälfte', 288, 676, 212, true),
      placed('davon.', 288, 664, 25, true),
      // Short lines, the longest of them far from the page's edge: a list, each line a unit.
      placed('Montag 9 bis 18 Uhr', 50, 640, 80, true),
      placed('Mittwoch 9 bis 20 Uhr', 50, 628, 90, true),
      placed('Samstag 10 bis 14 Uhr', 50, 616, 90, true),
    ];
    expect(pageText(items)).toBe(
      'Der Werkraum ist montags bis freitags von 8 bis 20 Uhr geöffnet, samstags von 10 bis 16 Uhr. An Feiertagen bleibt er geschlossen, ' +
        'wer außerhalb arbeiten möchte, fragt vorher.\n\n' +
        'Die Nutzung kostet 5 Euro pro Tag oder 40 Euro im Monat, Material nach Verbrauch, Mitglieder des Vereins zahlen für alles nur die Hälfte davon.\n\n' +
        'Montag 9 bis 18 Uhr\nMittwoch 9 bis 20 Uhr\nSamstag 10 bis 14 Uhr',
    );
  });

  it('takes no column of labels for a column of text: the short lines of a title above them stay apart', () => {
    const items = [
      placed('Carsharing von stadtflitzer', 50, 748, 170, true),
      placed('Fassung vom 1. April 2027', 50, 736, 110, true),
      // Labels in a column of their own, each ending at 65, their text indented beside them.
      ...[700, 670, 640, 610].flatMap((y, i) => [
        placed(`(${String(i + 1)})`, 50, y, 15, true),
        placed('Diese Bedingungen gelten für alle Verträge über die', 88, y - 12, 280, true),
        placed('Nutzung der Fahrzeuge.', 88, y - 24, 90, true),
      ]),
    ];
    expect(pageText(items).split('\n\n')[0]).toBe('Carsharing von stadtflitzer\nFassung vom 1. April 2027');
  });
});

describe('pageText: a column below a wider title', () => {
  const column = [
    // The column ends at 262.
    inFont('R', 'Die Maschine meldet das Entkalken nach etwa 200', 50, 700, 212),
    inFont('R', 'Bezügen. Füllen Sie den Wassertank mit Wasser', 50, 688, 212),
    inFont('R', 'und einer Entkalkertablette. Das Programm dauert', 50, 676, 212),
    inFont('R', '25 Minuten.', 50, 664, 45),
  ];

  it('measures the column by its full lines, not by a title or running header in another style starting where it starts', () => {
    const items = [
      inFont('I', 'Kaffeevollautomat CREMA 7 – Kurzanleitung Entkalken, Ausgabe 2026', 50, 760, 330),
      inFont('B', 'Entkalken des Kaffeevollautomaten CREMA 7', 50, 730, 290, 14),
      ...column,
    ];
    expect(pageText(items, styles).split('\n\n').at(-1)).toBe(
      'Die Maschine meldet das Entkalken nach etwa 200 Bezügen. Füllen Sie den Wassertank mit Wasser und einer Entkalkertablette. ' +
        'Das Programm dauert 25 Minuten.',
    );
  });

  it('takes no list of lines of equal length for the column when longer lines of the body text start where it starts', () => {
    const items = [
      inFont('B', 'Kundendienst der Brühwerk Hausgeräte GmbH', 50, 760, 330, 14),
      // Ragged prose: no three lines end together.
      inFont('R', 'Unser Kundendienst ist für Sie da, wenn die Maschine', 50, 730, 240),
      inFont('R', 'einmal nicht so will wie Sie.', 50, 718, 120),
      inFont('R', 'Mo 8 bis 18 Uhr', 50, 694, 62),
      inFont('R', 'Di 8 bis 18 Uhr', 50, 682, 60),
      inFont('R', 'Mi 8 bis 18 Uhr', 50, 670, 61),
    ];
    expect(pageText(items, styles).split('\n\n').at(-1)).toBe('Mo 8 bis 18 Uhr\nDi 8 bis 18 Uhr\nMi 8 bis 18 Uhr');
  });
});

describe('pageText: headings set apart by their font', () => {
  // Lines 12 points apart throughout: the space around the headings is no wider than the text's.
  it('makes a bold heading a block of its own, numbered with a dot or not, with no more space around it than a line', () => {
    const items = [
      inFont('B', '1. Einzelcoaching', 50, 700, 80),
      inFont('R', 'Eine Sitzung dauert 50 Minuten und kostet 95 Euro, das Erstgespräch ist', 50, 688, 300),
      inFont('R', 'kostenlos.', 50, 676, 40),
      inFont('B', 'Absagen und Umbuchen', 50, 664, 95),
      inFont('R', 'Bis 24 Stunden vorher ist eine Absage kostenlos.', 50, 652, 190),
    ];
    expect(pageText(items, styles)).toBe(
      '1. Einzelcoaching\n\nEine Sitzung dauert 50 Minuten und kostet 95 Euro, das Erstgespräch ist kostenlos.\n\n' +
        'Absagen und Umbuchen\n\nBis 24 Stunden vorher ist eine Absage kostenlos.',
    );
    // Without the reader's fonts the lines stay one block, as before.
    expect(pageText(items.map((item) => ({ ...item, fontName: undefined })))).toBe(
      '1. Einzelcoaching\nEine Sitzung dauert 50 Minuten und kostet 95 Euro, das Erstgespräch ist kostenlos.\n' +
        'Absagen und Umbuchen\nBis 24 Stunden vorher ist eine Absage kostenlos.',
    );
  });

  it('makes a heading in the body\'s font set larger a block of its own, but not a caption set smaller', () => {
    const items = [
      inFont('R', 'Eine Sitzung dauert 50 Minuten und kostet 95 Euro.', 50, 714, 200),
      inFont('I', 'Preise ab Januar 2027', 50, 703, 90, 8),
      inFont('R', 'Absagen und Umbuchen', 50, 690, 110, 12),
      inFont('R', 'Bis 24 Stunden vorher ist eine Absage kostenlos, danach berechnen wir die Hälfte.', 50, 676, 300),
    ];
    expect(pageText(items, styles)).toBe(
      'Eine Sitzung dauert 50 Minuten und kostet 95 Euro.\nPreise ab Januar 2027\n\n' +
        'Absagen und Umbuchen\n\nBis 24 Stunden vorher ist eine Absage kostenlos, danach berechnen wir die Hälfte.',
    );
  });

  it('keeps a title with its subtitle, and headings right below one another, in one block', () => {
    const items = [
      inFont('B', 'Bedienungsanleitung CREMA 7', 50, 712, 130),
      inFont('I', 'Modell KV-700 – bitte vor dem ersten Gebrauch lesen', 50, 700, 220),
      inFont('B', '1 Sicherheit', 50, 688, 60),
      inFont('R', 'Ziehen Sie vor jeder Reinigung und bei jeder Störung den Netzstecker.', 50, 676, 270),
      inFont('R', 'Tauchen Sie das Gerät nie in Wasser.', 50, 664, 140),
    ];
    expect(pageText(items, styles)).toBe(
      'Bedienungsanleitung CREMA 7\nModell KV-700 – bitte vor dem ersten Gebrauch lesen\n1 Sicherheit\n\n' +
        'Ziehen Sie vor jeder Reinigung und bei jeder Störung den Netzstecker. Tauchen Sie das Gerät nie in Wasser.',
    );
  });

  it('leaves a sentence, a lead-in, a bold term with its description indented below, and code in its block', () => {
    const items = [
      // A full line in a paragraph above sets the text's right edge.
      inFont('R', 'Ein Stand hält fest, wie die Dateien zu einem Zeitpunkt aussahen, samt Ordnern.', 50, 730, 300),
      inFont('R', 'So sichern Sie einen Ordner mit allen Unterordnern:', 50, 700, 210),
      inFont('C', 'sichern --rekursiv /home/anna', 64, 688, 150),
      inFont('R', 'Die Sicherung landet im Ziel aus der Konfiguration.', 50, 676, 200),
      inFont('I', 'Ein Stand wird nie überschrieben.', 50, 664, 140),
      inFont('B', 'Sonderurlaub gibt es für:', 50, 652, 100),
      inFont('B', 'Zehnerkarte', 50, 640, 50),
      inFont('R', 'Zehn Sitzungen zum Preis von neun.', 128, 628, 140),
    ];
    expect(pageText(items, styles)).toBe(
      'Ein Stand hält fest, wie die Dateien zu einem Zeitpunkt aussahen, samt Ordnern.\n\n' +
        'So sichern Sie einen Ordner mit allen Unterordnern:\nsichern --rekursiv /home/anna\nDie Sicherung landet im Ziel aus der Konfiguration.\n' +
        'Ein Stand wird nie überschrieben.\nSonderurlaub gibt es für:\nZehnerkarte\tZehn Sitzungen zum Preis von neun.',
    );
  });

  it('starts a table row on a line of its own after a sentence that fills its line', () => {
    const items = [
      inFont('R', 'Alle Preise verstehen sich inklusive Mehrwertsteuer, eine Sitzung dauert', 50, 700, 300),
      inFont('R', 'immer genau 50 Minuten und beginnt pünktlich zur vollen Stunde jeweils.', 50, 688, 296),
      { ...inFont('R', 'Angebot', 50, 676, 35), hasEOL: false },
      inFont('R', 'Preis', 200, 676, 25),
    ];
    expect(pageText(items, styles)).toBe(
      'Alle Preise verstehen sich inklusive Mehrwertsteuer, eine Sitzung dauert immer genau 50 Minuten und beginnt pünktlich zur vollen Stunde jeweils.\n' +
        'Angebot\tPreis',
    );
  });
});

describe('joinUnit', () => {
  it('joins two pieces of a unit at their boundary only', () => {
    expect(joinUnit('Die Metho-', 'de ist gut.\n\nNächster Absatz')).toBe('Die Methode ist gut.\n\nNächster Absatz');
    expect(joinUnit('Ein E-', 'Mail kommt.')).toBe('Ein E-Mail kommt.');
    expect(joinUnit('Herz-', 'oder Lunge')).toBe('Herz- oder Lunge');
    expect(joinUnit('Das ist', 'gut.\nX')).toBe('Das ist gut.\nX');
  });
});

describe('documentText', () => {
  it('keeps a sentence that runs on to the next page in its unit', () => {
    expect(documentText(['Die erste Seite endet mitten im', 'zweiten Satz, der auf der nächsten weitergeht.'])).toBe(
      'Die erste Seite endet mitten im zweiten Satz, der auf der nächsten weitergeht.',
    );
  });

  it('goes on at a capital on the next page only after a full line, and never into a row or an entry', () => {
    const full = (text: string) => ({ text, room: text.split('\n').map(() => 0) });
    const short = (text: string) => ({ text, room: text.split('\n').map(() => 30) });
    expect(documentText([full('Geben Sie eine'), 'Entkalkertablette in den Tank.'])).toBe('Geben Sie eine Entkalkertablette in den Tank.');
    // A heading at the foot of a page does not reach the edge of the column.
    expect(documentText([short('Text davor.\n\nEntkalken'), 'Geben Sie eine Tablette hinein.'])).toBe('Text davor.\n\nEntkalken\n\nGeben Sie eine Tablette hinein.');
    // The table goes on in the same block: a row of its own.
    expect(documentText([full('Angebot\tPreis'), 'Einzelsitzung\t95 Euro'])).toBe('Angebot\tPreis\nEinzelsitzung\t95 Euro');
    expect(documentText([full('Dazu gehören'), '• Wassertank'])).toBe('Dazu gehören\n\n• Wassertank');
  });

  it('keeps a table or a list that goes on on the next page one block, without the head row the page repeats', () => {
    const table = 'Die Preise:\n\nKey\tDefault\tMeaning\ncreate\t0640 root adm\tmode and owner of the new log';
    // The next row, in lower case: a row of its own, not the last row's sentence going on.
    expect(documentText([table, 'date_ext\tyes\tname archives by date\n\nText.'])).toBe(
      `${table}\ndate_ext\tyes\tname archives by date\n\nText.`,
    );
    expect(documentText([table, 'Key\tDefault\tMeaning\ndate_ext\tyes\tname archives by date'])).toBe(`${table}\ndate_ext\tyes\tname archives by date`);
    // Another table (other cells) or prose below the table starts a block of its own.
    expect(documentText([table, 'Zeichen\tBedeutung\tBeispiel\tHinweis'])).toBe(`${table}\n\nZeichen\tBedeutung\tBeispiel\tHinweis`);
    expect(documentText([table, 'Die Schlüssel gelten für jede Regel.'])).toBe(`${table}\n\nDie Schlüssel gelten für jede Regel.`);
    expect(documentText(['Mitbringen:\n• Handtuch', '• Wasserflasche\n\nText.'])).toBe('Mitbringen:\n• Handtuch\n• Wasserflasche\n\nText.');
    expect(documentText(['Schritte:\n1. Gerät ausschalten.', '2. Stecker ziehen.\n3. Filter reinigen.'])).toBe(
      'Schritte:\n1. Gerät ausschalten.\n2. Stecker ziehen.\n3. Filter reinigen.',
    );
    // A numbered heading at the top of the next page starts its section.
    expect(documentText(['Schritte:\n1. Gerät ausschalten.', '4. Wartung\n\nDer Filter wird monatlich gereinigt.'])).toBe(
      'Schritte:\n1. Gerät ausschalten.\n\n4. Wartung\n\nDer Filter wird monatlich gereinigt.',
    );
  });

  it('puts an empty line between pages and leaves out empty pages', () => {
    expect(documentText(['Seite eins', '', 'Seite drei'])).toBe('Seite eins\n\nSeite drei');
  });

  it('drops the running header and footer of a lone page: a block of one line of cells at its top or bottom', () => {
    const page = 'Besser schlafen\tStarterwissen\n\nBesser schlafen nach stressigen Tagen\n\nGeh jeden Tag zur gleichen Zeit ins Bett.\n\nMia Coaching – Wissensreihe\tSeite 1';
    expect(documentText([page])).toBe('Besser schlafen nach stressigen Tagen\n\nGeh jeden Tag zur gleichen Zeit ins Bett.');
    // A table keeps its rows, at the top of the page too, and so does a page of several.
    const table = 'Leistung\tPreis\nEinzelsitzung\t95 €\n\nPakete bezahlen Sie im Voraus.';
    expect(documentText([table])).toBe(table);
    expect(documentText(['Kopf\tA\n\nErste Seite.', 'Zweite Seite.'])).toBe('Kopf\tA\n\nErste Seite.\n\nZweite Seite.');
  });
});

describe('hasReadableText', () => {
  it('wants at least one letter or digit', () => {
    expect(hasReadableText('Ä')).toBe(true);
    expect(hasReadableText('42')).toBe(true);
    expect(hasReadableText(' \n\n – … ')).toBe(false);
    expect(hasReadableText('')).toBe(false);
  });
});
