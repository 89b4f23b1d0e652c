import type { FlatNamespace } from 'i18next';
import { registerNamespace } from '../index';
import { useT } from '../language';
import type { Lang } from '../../config/routes';

/**
 * Registers a page's namespace (both languages) when its module loads and returns the page's
 * translation hook; importing the hook is what brings the words along.
 */
export function defineNamespace<N extends FlatNamespace>(ns: N, resources: Record<Lang, object>) {
  registerNamespace(ns, resources);
  return () => useT(ns);
}
