import { formatEuro, formatFileSize, formatGermanDateTime, formatNumber } from './format';

describe('formatEuro and formatNumber', () => {
  const values = [0, 1, 7, 12, 999, 1000, 1234.5, 12_345.678, 90_000, 999_999.995, 1_234_567, 0.004, -0.004, -0, -5, -1234.56, 0.5, 2.5, 1.005, 0.125, 1e-7, 123_456_789.455];
  const locales = { de: 'de-DE', en: 'en-GB' } as const;

  it('write exactly what Intl.NumberFormat writes for de-DE and en-GB, without building one', () => {
    for (const lang of ['de', 'en'] as const) {
      for (const decimals of [0, 1, 2]) {
        const options = { minimumFractionDigits: decimals, maximumFractionDigits: decimals };
        const euro = new Intl.NumberFormat(locales[lang], { style: 'currency', currency: 'EUR', ...options });
        const plain = new Intl.NumberFormat(locales[lang], options);
        for (const value of values) {
          expect(formatEuro(value, lang, decimals), `${lang} ${String(value)} ${String(decimals)}`).toBe(euro.format(value));
          expect(formatNumber(value, lang, decimals), `${lang} ${String(value)} ${String(decimals)}`).toBe(plain.format(value));
        }
      }
    }
  });

  it('are what the calculators show', () => {
    expect(formatEuro(90_000, 'de')).toBe('90.000\u00a0€');
    expect(formatEuro(90_000, 'en')).toBe('€90,000');
    expect(formatEuro(0.12, 'de', 2)).toBe('0,12\u00a0€');
    expect(formatNumber(10_000, 'en')).toBe('10,000');
  });
});

describe('formatFileSize', () => {
  it('shows KB below a megabyte and MB with one decimal above', () => {
    expect(formatFileSize(5_850, 'de')).toBe('6 KB');
    expect(formatFileSize(200, 'de')).toBe('1 KB');
    expect(formatFileSize(2.5 * 1024 * 1024, 'de')).toBe('2,5 MB');
    expect(formatFileSize(2.5 * 1024 * 1024, 'en')).toBe('2.5 MB');
  });
});

describe('formatGermanDateTime', () => {
  it('is dd.mm.yyyy, hh:mm in German time, summer and winter', () => {
    expect(formatGermanDateTime('2026-11-22T05:18:00Z')).toBe('22.11.2026, 06:18');
    expect(formatGermanDateTime('2026-07-01T22:05:00Z')).toBe('02.07.2026, 00:05');
  });
});
