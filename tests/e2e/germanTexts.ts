/**
 * The German texts of the site that say something its English texts do not: a page on an English
 * path shows none of them (outside the live coach, which speaks German).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

type Json = Record<string, unknown>;
const locales = join(import.meta.dirname, '..', '..', 'src', 'i18n', 'locales');
const readLocale = (lang: string, file: string) => JSON.parse(readFileSync(join(locales, lang, file), 'utf8')) as Json;

function leaves(value: unknown, prefix = ''): [string, string][] {
  if (typeof value === 'string') return [[prefix, value]];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => leaves(child, prefix ? `${prefix}.${key}` : key));
}

/**
 * Every German text of the site that says something English does not: the longest run between
 * placeholders of each German text that differs from its English twin, at least 20 characters
 * long and found nowhere in the English texts (so brand names and shared terms do not count).
 */
export const germanOnly: string[] = (() => {
  const english = new Set<string>();
  const found: string[] = [];
  for (const file of readdirSync(join(locales, 'en'))) {
    for (const [, value] of leaves(readLocale('en', file))) english.add(value);
  }
  const allEnglish = [...english].join('\n');
  for (const file of readdirSync(join(locales, 'de'))) {
    const en = new Map(leaves(readLocale('en', file)));
    for (const [key, value] of leaves(readLocale('de', file))) {
      if (en.get(key) === value) continue;
      const run = value.split(/{{\s*\w+\s*}}/).sort((a, b) => b.length - a.length)[0]?.trim() ?? '';
      if (run.length >= 20 && !allEnglish.includes(run)) found.push(run);
    }
  }
  return found;
})();

export const germanIn = (content: string) => germanOnly.filter((phrase) => content.includes(phrase));

export const decodeEntities = (html: string) =>
  html.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
