import i18next, { type FlatNamespace, type TFunction } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { defaultLang, languages, type Lang } from '../config/routes';

/**
 * The site's i18next instance (react-i18next's hooks use it). German is the fallback language.
 *
 * The words are not bundled with the app: every namespace of every language is its own small
 * chunk, added to i18next (`addResourceBundle`) when a page asks for it, in the languages in use.
 * So a page ships the words of its own language only, and a second language is fetched when the
 * visitor switches to it. (An i18next backend would load the fallback language's words on every
 * English page as well.) Words are always added before what shows them renders (the page's before
 * the page, the island's before the island, the other language's before the switch), so adding
 * words re-renders nothing: that would re-render every component that shows words at once.
 */
export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  lng: defaultLang,
  fallbackLng: defaultLang,
  supportedLngs: [...languages],
  ns: ['common'],
  defaultNS: 'common',
  resources: {},
  partialBundledLanguages: true,
  initAsync: false,
  // React escapes what it renders.
  interpolation: { escapeValue: false },
  react: { useSuspense: false, bindI18n: 'languageChanged', bindI18nStore: '' },
});

type Words = Record<string, unknown>;
const files = import.meta.glob<Words>('./locales/*/*.json', { import: 'default' });

/** Languages in use in this page view, and the namespaces the page has asked for so far. */
const activeLanguages = new Set<Lang>();
const wantedNamespaces = new Set<string>(['common']);

async function loadBundle(lang: Lang, ns: string): Promise<void> {
  if (i18n.hasResourceBundle(lang, ns)) return;
  const load = files[`./locales/${lang}/${ns}.json`];
  if (!load) throw new Error(`No translations for ${lang}/${ns}`);
  const words = await load();
  if (!i18n.hasResourceBundle(lang, ns)) i18n.addResourceBundle(lang, ns, words);
}

/** Makes a language usable: its common words and those of every namespace asked for so far. */
export async function activateLanguage(lang: Lang): Promise<void> {
  activeLanguages.add(lang);
  await Promise.all([...wantedNamespaces].map((ns) => loadBundle(lang, ns)));
}

export function isLanguageActive(lang: Lang): boolean {
  return activeLanguages.has(lang);
}

/** Loads namespaces (e.g. a page's) in every language in use, before they are rendered. */
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

/** The texts of one namespace in one language (German where a text is missing). */
export function fixedT<N extends FlatNamespace>(lang: Lang, ns: N): TFunction<N> {
  return i18n.getFixedT(lang, ns);
}
