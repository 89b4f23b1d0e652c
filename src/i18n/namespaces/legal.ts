import { registerNamespace } from '../index';
import { useT } from '../language';
import de from '../locales/de/legal.json';
import en from '../locales/en/legal.json';

registerNamespace('legal', { de, en });

/** Translations of the legal pages; importing this hook loads them. */
export function useLegalT() {
  return useT('legal');
}
