import { documentText, hasReadableText, pageText, type PdfTextItem } from './pdfTextLayout';

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

describe('documentText', () => {
  it('puts an empty line between pages and leaves out empty pages', () => {
    expect(documentText(['Seite eins', '', 'Seite drei'])).toBe('Seite eins\n\nSeite drei');
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
