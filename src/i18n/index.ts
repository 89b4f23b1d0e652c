import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { defaultLang, languages, type Lang } from '../config/routes';

/**
 * One i18next instance for the browser and the prerenderer. Every namespace of every language is
 * its own small chunk, loaded on demand: a page ships the words of its own language only, and a
 * second language is fetched when the visitor switches to it.
 */
void i18n.use(initReactI18next).init({
  resources: {},
  partialBundledLanguages: true,
  lng: defaultLang,
  fallbackLng: defaultLang,
  supportedLngs: [...languages],
  defaultNS: 'common',
  ns: ['common'],
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
  // Re-render when a language's words arrive, so a switch shows them as soon as they are there.
  react: { useSuspense: false, bindI18nStore: 'added' },
});

const files = import.meta.glob<Record<string, unknown>>('./locales/*/*.json', { import: 'default' });

/** Languages the visitor has used in this page view, and the namespaces the page has asked for. */
const activeLanguages = new Set<Lang>();
const wantedNamespaces = new Set<string>(['common']);

async function loadBundle(lang: Lang, ns: string): Promise<void> {
  if (i18n.hasResourceBundle(lang, ns)) return;
  const load = files[`./locales/${lang}/${ns}.json`];
  if (!load) throw new Error(`No translations for ${lang}/${ns}`);
  i18n.addResourceBundle(lang, ns, await load(), true, false);
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

export { i18n };
