import { createContext, useCallback, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import type { FlatNamespace } from 'i18next';
import { defaultLang, isLang, matchPath, type Lang } from '../config/routes';
import { createBrowserStore } from '../lib/browserStore';
import { activateLanguage, fixedT, isLanguageActive, subscribeToWords, wordsVersion } from './index';

export const LANGUAGE_STORAGE_KEY = 'language';
export const languageStore = createBrowserStore<Lang>(LANGUAGE_STORAGE_KEY, isLang);

interface LanguageState {
  readonly lang: Lang;
  /** Remember a choice; the caller moves to the other language's path where one exists. */
  readonly choose: (lang: Lang) => void;
}

const LanguageContext = createContext<LanguageState>({ lang: defaultLang, choose: () => undefined });

const serverSnapshot = () => null;

/**
 * The language is derived, not kept in two places: a path that has a language (German paths with
 * an English twin, /products/…, /company/…) decides and becomes the remembered choice; other
 * paths follow the remembered choice. The first render matches the prerendered HTML (the path's
 * language or German); a remembered choice applies right after hydration.
 */
export function LanguageProvider({ pathname, children }: { pathname: string; children: ReactNode }) {
  const boundLang = matchPath(pathname)?.boundLang ?? null;
  const stored = useSyncExternalStore(languageStore.subscribe, languageStore.get, serverSnapshot);
  const lang: Lang = boundLang ?? stored ?? defaultLang;

  useEffect(() => {
    if (boundLang !== null && languageStore.get() !== boundLang) languageStore.set(boundLang);
  }, [boundLang]);

  useEffect(() => {
    document.documentElement.lang = lang;
    // Usually loaded already (start-up, language switch); otherwise the words arrive and render.
    if (!isLanguageActive(lang)) void activateLanguage(lang);
  }, [lang]);

  const choose = useCallback((next: Lang) => languageStore.set(next), []);
  const value = useMemo(() => ({ lang, choose }), [lang, choose]);
  return <LanguageContext.Provider value={value}>{children}</LanguageContext.Provider>;
}

export function useLanguage(): LanguageState {
  return useContext(LanguageContext);
}

/**
 * The texts of a namespace in the page's language, so rendering never depends on global state.
 * Re-renders when words arrive (a language switch shows them as soon as they are there).
 */
export function useT<N extends FlatNamespace = 'common'>(ns?: N) {
  const { lang } = useLanguage();
  // Subscribing is what matters: every component that shows words renders again when words arrive
  // (t looks them up when called).
  useSyncExternalStore(subscribeToWords, wordsVersion, wordsVersion);
  const namespace = (ns ?? 'common') as N;
  const t = useMemo(() => fixedT(lang, namespace), [lang, namespace]);
  return { t };
}
