import type { Lang } from '../config/routes';

/**
 * Numbers and euros are formatted by hand rather than with Intl.NumberFormat: building the first
 * formatter loads the locale's number and currency data, 15–20 ms on a fast machine and several
 * times that on a phone, in the middle of hydrating a page with a calculator. The output is the
 * same as Intl's for de-DE and en-GB (a test compares them); the German euro sign follows a
 * no-break space.
 */
const separators: Record<Lang, { group: string; decimal: string }> = {
  de: { group: '.', decimal: ',' },
  en: { group: ',', decimal: '.' },
};

/**
 * |value| with `decimals` decimals, rounded half away from zero on its decimal digits as Intl
 * does (toFixed alone rounds the binary value: 999999.995 would become 999999.99).
 */
function fixed(value: number, decimals: number): string {
  const text = String(Math.abs(value));
  if (text.includes('e')) return Math.abs(value).toFixed(decimals);
  return (Math.round(Number(`${text}e${String(decimals)}`)) / 10 ** decimals).toFixed(decimals);
}

/** The digits of |value| rounded to `decimals`, grouped by thousands. */
function digits(value: number, lang: Lang, decimals: number): string {
  const [whole = '0', fraction] = fixed(value, decimals).split('.');
  const { group, decimal } = separators[lang];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/gu, group);
  return fraction === undefined ? grouped : `${grouped}${decimal}${fraction}`;
}

/** Intl's sign: a minus for any value below zero, even one that rounds to 0 ("-0 €"). */
function negative(value: number): boolean {
  return value < 0 || Object.is(value, -0);
}

/** 90.000 € in German, €90,000 in English; whole euros unless decimals are asked for. */
export function formatEuro(value: number, lang: Lang, decimals = 0): string {
  const sign = negative(value) ? '-' : '';
  const amount = digits(value, lang, decimals);
  return lang === 'de' ? `${sign}${amount}\u00a0€` : `${sign}€${amount}`;
}

/** 10.000 in German, 10,000 in English. */
export function formatNumber(value: number, lang: Lang, decimals = 0): string {
  return `${negative(value) ? '-' : ''}${digits(value, lang, decimals)}`;
}

/** dd.mm.yyyy, hh:mm in German time, as the admin lists show upload times. */
export function formatGermanDateTime(value: Date | string): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  const parts = new Intl.DateTimeFormat('de-DE', {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
    timeZone: 'Europe/Berlin',
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('day')}.${part('month')}.${part('year')}, ${part('hour')}:${part('minute')}`;
}

/** A file size as the document list shows it: "840 KB", "2,4 MB" (German) / "2.4 MB" (English). */
export function formatFileSize(bytes: number, lang: Lang): string {
  if (bytes < 1024 * 1024) return `${formatNumber(Math.max(1, Math.round(bytes / 1024)), lang)} KB`;
  return `${formatNumber(bytes / (1024 * 1024), lang, 1)} MB`;
}
