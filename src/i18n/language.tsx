import { createContext, useCallback, useContext, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { FlatNamespace, TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { defaultLang, isLang, langOfPath, type Lang } from '../config/routes';
import { createBrowserStore } from '../lib/browserStore';
import { activateLanguage, isLanguageActive } from './index';

export const LANGUAGE_STORAGE_KEY = 'language';
export const languageStore = createBrowserStore<Lang>(LANGUAGE_STORAGE_KEY, isLang);

interface LanguageState {
  readonly lang: Lang;
  /** Counts words that arrived after their language was first rendered, so their users render again. */
  readonly arrived: number;
  /** Remember a choice; the caller moves to the other language's path where one exists. */
  readonly choose: (lang: Lang) => void;
}

const LanguageContext = createContext<LanguageState>({ lang: defaultLang, arrived: 0, choose: () => undefined });

const serverSnapshot = () => null;

/**
 * The language of the page, derived from its path (src/config/routes.ts, `langOfPath`): every
 * public page and every not-found page is painted in its path's language from the first byte, and
 * that language becomes the remembered one. Only the admin area, which has no prerendered HTML,
 * follows the remembered language (the last public page's, or the selector's choice).
 */
export function LanguageProvider({ pathname, children }: { pathname: string; children: ReactNode }) {
  const pathLang = langOfPath(pathname);
  const stored = useSyncExternalStore(languageStore.subscribe, languageStore.get, serverSnapshot);
  const lang: Lang = pathLang ?? stored ?? defaultLang;

  useEffect(() => {
    if (pathLang !== null && languageStore.get() !== pathLang) languageStore.set(pathLang);
  }, [pathLang]);

  // Loaded already almost always (start-up, the switch); not when another tab changes the
  // remembered language of the admin area: then everything showing words renders again once the
  // words are there (a new context value), since adding words re-renders nothing by itself.
  const [arrived, setArrived] = useState(0);
  useEffect(() => {
    document.documentElement.lang = lang;
    if (!isLanguageActive(lang)) void activateLanguage(lang).then(() => setArrived((count) => count + 1));
  }, [lang]);

  const choose = useCallback((next: Lang) => languageStore.set(next), []);
  const value = useMemo(() => ({ lang, choose, arrived }), [lang, choose, arrived]);
  return <LanguageContext.Provider value={value}>{children}</LanguageContext.Provider>;
}

export function useLanguage(): LanguageState {
  return useContext(LanguageContext);
}

/**
 * The texts of a namespace in the page's language: react-i18next's `useTranslation`, fixed to the
 * language of the page rather than i18next's global one, so a render (the prerenderer's too)
 * depends on the path alone. Re-renders when words arrive.
 */
export function useT<N extends FlatNamespace = 'common'>(ns?: N): { t: TFunction<N> } {
  const { lang } = useLanguage();
  const { t } = useTranslation(ns ?? 'common', { lng: lang });
  // `t` is fixed to one namespace, N ('common' when none is given): i18next's return type names
  // it through FallbackNs<N>, which TypeScript does not reduce for a generic N.
  return { t: t as TFunction<N> };
}
