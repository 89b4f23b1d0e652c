import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { defaultLang, languages, type Lang } from '../config/routes';
import deCommon from './locales/de/common.json';
import enCommon from './locales/en/common.json';

/**
 * One i18next instance for the browser and the prerenderer. The `common` namespace (layout,
 * contact form, cookie notice, page titles) ships with every page; each page area registers its
 * own namespace when its route module loads, so a page only carries the words it shows.
 */
void i18n.use(initReactI18next).init({
  resources: { de: { common: deCommon }, en: { common: enCommon } },
  lng: defaultLang,
  fallbackLng: defaultLang,
  supportedLngs: [...languages],
  defaultNS: 'common',
  ns: ['common'],
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
  react: { useSuspense: false },
});

export function registerNamespace(ns: string, resources: Record<Lang, object>): void {
  for (const lang of languages) {
    if (!i18n.hasResourceBundle(lang, ns)) i18n.addResourceBundle(lang, ns, resources[lang]);
  }
}

export { i18n };
