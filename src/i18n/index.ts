import type { FlatNamespace, TFunction } from 'i18next';
import { defaultLang, languages, type Lang } from '../config/routes';
import { translate, type Tree } from '../lib/translate';

/**
 * The words of the browser and the prerenderer. Every namespace of every language is its own small
 * chunk, loaded on demand: a page ships the words of its own language only, and a second language
 * is fetched when the visitor switches to it. Lookups follow i18next's rules (src/lib/translate.ts)
 * and are typed by i18next's types, without i18next's code.
 */
const resources: Record<string, Record<string, Tree>> = {};
const files = import.meta.glob<Tree>('./locales/*/*.json', { import: 'default' });

/** Languages the visitor has used in this page view, and the namespaces the page has asked for. */
const activeLanguages = new Set<Lang>();
const wantedNamespaces = new Set<string>(['common']);

/** Components that show words re-render when words arrive (useT subscribes). */
const listeners = new Set<() => void>();
let version = 0;

export function subscribeToWords(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function wordsVersion(): number {
  return version;
}

async function loadBundle(lang: Lang, ns: string): Promise<void> {
  if (resources[lang]?.[ns]) return;
  const load = files[`./locales/${lang}/${ns}.json`];
  if (!load) throw new Error(`No translations for ${lang}/${ns}`);
  const words = await load();
  (resources[lang] ??= {})[ns] = words;
  version += 1;
  listeners.forEach((listener) => listener());
}

/** Makes a language usable: its common words and those of every namespace asked for so far. */
export async function activateLanguage(lang: Lang): Promise<void> {
  activeLanguages.add(lang);
  await Promise.all([...wantedNamespaces].map((ns) => loadBundle(lang, ns)));
}

export function isLanguageActive(lang: Lang): boolean {
  return activeLanguages.has(lang);
}

/** Loads namespaces (e.g. a page's) in every active language before they are rendered. */
export async function loadNamespaces(namespaces: readonly string[]): Promise<void> {
  namespaces.forEach((ns) => wantedNamespaces.add(ns));
  await Promise.all([...activeLanguages].flatMap((lang) => namespaces.map((ns) => loadBundle(lang, ns))));
}

/** Every language and namespace at once: for the prerenderer and for tests. */
export async function loadEverything(): Promise<void> {
  const namespaces = new Set(Object.keys(files).map((path) => path.split('/').pop()?.replace(/\.json$/, '') ?? ''));
  await loadNamespaces([...namespaces]);
  await Promise.all(languages.map((lang) => activateLanguage(lang)));
}

/**
 * The texts of one namespace in one language (German where a text is missing), typed like
 * i18next's `getFixedT`: keys are checked and `returnObjects` gives the list's or group's type.
 */
export function fixedT<N extends FlatNamespace>(lang: Lang, ns: N): TFunction<N> {
  const fallback: readonly string[] = lang === defaultLang ? [lang] : [lang, defaultLang];
  const t = (key: string, options?: Record<string, unknown>) => translate(resources, fallback, ns, key, options);
  // The implementation takes any key; the signature is i18next's, generated from the German texts.
  return t as unknown as TFunction<N>;
}
