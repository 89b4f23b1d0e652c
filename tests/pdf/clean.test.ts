/**
 * Text clean-up on real PDFs: documents typeset by groff with German hyphenation, running headers
 * and footers with page numbers, rendered by ghostscript, read by the extraction the app uses.
 */
import { join } from 'node:path';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';

import { documentText, joinHyphenation, pageText } from '../../src/lib/pdfTextLayout';
import { extractTextWith } from '../../src/services/pdfTextExtraction';
import { renderGroffPdf } from '../fixtures/pdf/groff';
import { renderOriginalPdf } from '../fixtures/rag/dev/original/render';

const extract = async (file: string, german = true) => extractTextWith(pdfjs, renderOriginalPdf(file, german));

describe('clean text from real PDFs', () => {
  it('joins German words hyphenated at line ends and keeps real hyphens', async () => {
    const { text, pages } = await extract('atmung');
    expect(pages).toBe(2);
    // groff hyphenated these at line ends in this layout.
    expect(text).toContain('Einschlafen');
    expect(text).toContain('Einsatzkräften');
    expect(text).toContain('zuständig');
    expect(text).not.toMatch(/\p{Ll}-\n\p{Ll}/u);
    expect(text).toContain('Die 4-7-8-Atmung eignet sich');
    expect(text).toContain('Herz- oder Lungenerkrankungen');
    // A sentence running on to the next page stays one paragraph.
    expect(text.replace(/\s+/g, ' ')).toContain('vorher ärztlich abklären lassen.');
  });

  it('drops running headers, footers and page numbers', async () => {
    const { text } = await extract('schlaf');
    expect(text).not.toContain('Wissensreihe');
    expect(text).not.toContain('Stand: März 2026');
    expect(text).not.toMatch(/Seite \d/);
    expect(text.startsWith('Besser schlafen trotz vollem Kopf')).toBe(true);
  });

  it('keeps paragraphs and headings apart', async () => {
    const { text } = await extract('pausen');
    expect(text).toContain('\n\nDie Pomodoro-Technik\n\nBei der Pomodoro-Technik arbeitest du');
    expect(text).toContain('E-Mails');
    expect(text).toContain('20-20-20-Regel');
  });
});

describe('structure from real PDFs', () => {
  it('sets bold headings with no more space below them than a paragraph apart, and a table apart from the sentence above it', async () => {
    const pdf = renderGroffPdf(join(import.meta.dirname, '../fixtures/pdf/groff'), 'praxis-preise', { tables: true });
    const { text } = await extractTextWith(pdfjs, pdf);
    expect(text).toBe(
      [
        'Praxis Lindenhof – Preise und Buchung 2027',
        '1. Einzelcoaching',
        'Alle Preise verstehen sich inklusive Mehrwertsteuer. Eine Sitzung dauert 50 Minuten, das Erstgespräch ist kostenlos.\n' +
          'Angebot\tPreis\nEinzelsitzung\t95 Euro\nZehnerkarte (10 Sitzungen)\t850 Euro\nPaarsitzung (80 Minuten)\t160 Euro',
        '2. Absagen und Umbuchen',
        'Termine kannst du bis 24 Stunden vorher kostenlos absagen oder verschieben. Bei späterer Absage berechnen wir die Hälfte des Honorars.',
        '3. Zahlung',
        'Du zahlst per Überweisung innerhalb von 14 Tagen nach der Rechnung. Barzahlung in der Praxis ist nicht möglich.',
      ].join('\n\n'),
    );
  });
});

describe('a sentence running on to the next page', () => {
  it('stays one unit when the next page starts with a word written with a capital letter', async () => {
    const pdf = renderGroffPdf(join(import.meta.dirname, '../fixtures/pdf/groff'), 'kaffee-seitenwechsel');
    // The page breaks inside the sentence, before a noun: "… hinein. Das" | "Programm dauert …".
    const second = await (await pdfjs.getDocument({ data: pdf.slice(), verbosity: 0 }).promise).getPage(2);
    const content = await second.getTextContent();
    expect(pageText(content.items, content.styles)).toContain('\n\nProgramm dauert 25 Minuten');
    const { text, pages } = await extractTextWith(pdfjs, pdf);
    expect(pages).toBe(2);
    expect(text.split('\n\n').at(-1)).toBe(
      'Wenn die Anzeige „Entkalken“ leuchtet, nehmen Sie den Wasserfilter heraus. Füllen Sie den Wassertank mit einem Liter Wasser ' +
        'und geben Sie eine Entkalkertablette hinein. Das Programm dauert 25 Minuten und darf nicht unterbrochen werden.',
    );
  });
});

describe('a table running over a page break', () => {
  it('stays one block: the rows of the next page go on below the rows of the page before', async () => {
    const pdf = renderGroffPdf(join(import.meta.dirname, '../fixtures/pdf/groff'), 'waschprogramme-seitenwechsel', { tables: true });
    const { text, pages } = await extractTextWith(pdfjs, pdf);
    expect(pages).toBe(2);
    const blocks = text.split('\n\n');
    const table = blocks.find((block) => block.startsWith('Programm\tTemperatur\tDauer\tSchleudern\n'));
    expect(table?.split('\n')).toHaveLength(27);
    expect(table).toContain('Outdoor\t40 °C\t1:30 Std.\t1000 U/min\nSportwäsche\t40 °C\t1:10 Std.\t1000 U/min\n');
    expect(blocks.at(-1)).toBe(table);
  });
});

describe('a table whose cells wrap', () => {
  it('keeps each row one unit: its cells\' lines joined, a tab between the cells, stretched spaces inside a cell no cell breaks', async () => {
    // tbl text blocks: the reader reports a row cell by cell, each cell's lines top to bottom.
    const pdf = renderGroffPdf(join(import.meta.dirname, '../fixtures/pdf/groff'), 'spueler-stoerungen', { tables: true });
    const { text } = await extractTextWith(pdfjs, pdf);
    expect(text).toBe(
      [
        'Wenn das Gerät eine Störung anzeigt, schalten Sie es aus, beheben Sie die Ursache und starten Sie das Programm neu.',
        [
          'Anzeige\tUrsache\tAbhilfe',
          'E1\tWasserhahn zu oder Zulaufschlauch geknickt\tWasserhahn öffnen, Schlauch gerade legen',
          'E4\tMotorfehler\tKundendienst anrufen',
          'Geschirr bleibt nass\tKlarspüler leer oder Dosierung zu niedrig eingestellt\tKlarspüler nachfüllen, Dosierung erhöhen',
          'Gerät wandert beim Spülen\tFüße nicht ausgerichtet oder Sockelblende vergessen\tGerät ausrichten, Sockelblende montieren',
        ].join('\n'),
        'Hilft keiner dieser Schritte, rufen Sie den Kundendienst an.',
      ].join('\n\n'),
    );
  });
});

describe('two columns side by side', () => {
  it('joins the wrapped lines of each column, whose lines end far left of the page\'s right edge', async () => {
    const pdf = renderGroffPdf(join(import.meta.dirname, '../fixtures/pdf/groff'), 'werkraum-spalten');
    const { text } = await extractTextWith(pdfjs, pdf);
    expect(text).toBe(
      [
        'Hausordnung Werkraum',
        'Öffnungszeiten',
        'Der Werkraum ist montags bis freitags von 8 bis 20 Uhr geöffnet, samstags von 10 bis 16 Uhr. An Feiertagen bleibt er geschlossen. ' +
          'Wer außerhalb dieser Zeiten arbeiten möchte, spricht vorher mit der Leitung.',
        'Maschinen',
        'Die Kreissäge und die Standbohrmaschine dürfen nur nach einer Einweisung benutzt werden. ' +
          'Die Einweisung findet jeden ersten Montag im Monat statt und dauert zwei Stunden.',
        'Kosten',
        'Die Nutzung kostet 5 Euro pro Tag oder 40 Euro im Monat. Material wird nach Verbrauch abgerechnet. Mitglieder des Vereins zahlen die Hälfte.',
        'Unfälle',
        'Bei einem Unfall hilft der Erste-Hilfe-Kasten an der Tür. Jeder Unfall wird im Verbandbuch eingetragen, auch wenn er klein erscheint.',
      ].join('\n\n'),
    );
  });
});

describe('a column below a wider title and running header', () => {
  it('measures the column by its own full lines: a paragraph is one unit, short lines stay apart', async () => {
    // One page: the header (one line, no cells) and the title start where the text does and reach
    // further right than its column.
    const pdf = renderGroffPdf(join(import.meta.dirname, '../fixtures/pdf/groff'), 'kaffee-kurzanleitung');
    const { text } = await extractTextWith(pdfjs, pdf);
    expect(text.split('\n\n').slice(1)).toEqual([
      'Entkalken des Kaffeevollautomaten CREMA 7',
      'Die Maschine meldet das Entkalken nach etwa 200 Bezügen. Füllen Sie den Wassertank mit 0,5 Liter Wasser und einer ' +
        'Entkalkertablette, die Sie im Fachhandel und bei uns im Online-Shop bekommen. Stellen Sie ein Gefäß mit mindestens einem ' +
        'Liter Inhalt unter den Auslauf und drücken Sie die Pflegetaste drei Sekunden lang. Das Programm dauert 25 Minuten und darf ' +
        'nicht unterbrochen werden.',
      'Unser Kundendienst hilft Ihnen gern:\nMontag bis Freitag 8 bis 18 Uhr\nSamstag 9 bis 13 Uhr\nTelefon 0800 123 45 67',
    ]);
  });

  it('joins the wrapped lines of a page whose title is wider than the text', async () => {
    const { text } = await extract('stress');
    expect(text).toContain(
      'Typische körperliche Warnsignale sind Verspannungen im Nacken, Kopfschmerzen, ein flaues Gefühl im Magen und Herzklopfen ohne körperliche Anstrengung.',
    );
    expect(text).toContain('Die ganze Übung dauert weniger als eine Minute und lässt sich unauffällig am Schreibtisch');
  });
});

describe('clean-up rules', () => {
  it('joins syllables, keeps compounds and truncated compounds', () => {
    expect(joinHyphenation('Metho-\nde und E-\nMail, 4-7-8-\nAtmung, Herz-\noder Lunge')).toBe('Methode und E-Mail, 4-7-8-Atmung, Herz- oder Lunge');
  });

  it('normalises ligatures, soft hyphens at line ends and odd dashes', () => {
    const run = (str: string, y: number) => ({ str, hasEOL: true, transform: [10, 0, 0, 10, 72, y], height: 10 });
    const page = pageText([run('Die Pﬂege ist regel\u00ad', 700), run('mäßig o\u2011ne \u2212 Ende', 688)]);
    expect(documentText([page])).toBe('Die Pflege ist regelmäßig o-ne - Ende');
  });

  it('drops a lone page number but keeps a number that is content', () => {
    expect(documentText(['Text eins.\n- 1 -', 'Text zwei.\n2'])).toBe('Text eins.\n\nText zwei.');
    expect(documentText(['Schritte:\n\n4'])).toBe('Schritte:');
  });
});
