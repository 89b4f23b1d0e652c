import { formatFileSize, formatGermanDateTime } from './format';

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
