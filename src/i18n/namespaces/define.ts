import type { FlatNamespace } from 'i18next';
import { useT } from '../language';

/**
 * The translation hook of one namespace. The words themselves are loaded before the page renders
 * (src/app/pages.tsx lists each page's namespaces; islands load their own).
 */
export function defineNamespace<N extends FlatNamespace>(ns: N) {
  return () => useT(ns);
}
