import type { Lang } from '../config/routes';

const locales: Record<Lang, string> = { de: 'de-DE', en: 'en-GB' };

/** 90.000 € in German, €90,000 in English; whole euros unless decimals are asked for. */
export function formatEuro(value: number, lang: Lang, decimals = 0): string {
  return new Intl.NumberFormat(locales[lang], {
    style: 'currency',
    currency: 'EUR',
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(value);
}

/** 10.000 in German, 10,000 in English. */
export function formatNumber(value: number, lang: Lang, decimals = 0): string {
  return new Intl.NumberFormat(locales[lang], {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(value);
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
