/**
 * What the entry script (src/main.tsx) does about a remembered language before the app has loaded,
 * kept apart from the i18n code so the entry stays small.
 *
 * Pages without an English twin (the legal pages, features, demo, …) are prerendered in German
 * and follow the visitor's remembered choice (src/i18n/language.tsx). For a visitor who chose
 * English, the German text would show until hydration and then be replaced by the English one,
 * which moves everything below it (a layout shift) and flashes a language the visitor did not
 * ask for. So the entry marks <html data-language-pending> and styles.css keeps the page invisible
 * (not removed: nothing moves) until the LanguageProvider has rendered the remembered language and
 * clears the mark. Should the app never come, the page shows after 3 s in German.
 *
 * The build marks these pages with <html data-language-follows-choice> (scripts/build.ts); pages
 * with a language of their own are never hidden.
 */
import { LANGUAGE_STORAGE_KEY } from './storageKey';

function rememberedLanguage(): string | null {
  try {
    return window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    return null;
  }
}

export function markPendingLanguage(): void {
  const root = document.documentElement;
  if (!('languageFollowsChoice' in root.dataset)) return;
  const remembered = rememberedLanguage();
  if ((remembered === 'de' || remembered === 'en') && remembered !== root.lang) root.dataset.languagePending = remembered;
}

/** Shows the page again once it is in the remembered language. */
export function clearPendingLanguage(lang: string): void {
  const root = document.documentElement;
  if (root.dataset.languagePending === lang) delete root.dataset.languagePending;
}
