import { registerNamespace } from '../index';
import { useT } from '../language';
import de from '../locales/de/marketing.json';
import en from '../locales/en/marketing.json';

registerNamespace('marketing', { de, en });

/** Translations of the marketing pages; importing this hook loads them. */
export function useMarketingT() {
  return useT('marketing');
}
