import { registerNamespace } from '../index';
import { useT } from '../language';
import de from '../locales/de/admin.json';
import en from '../locales/en/admin.json';

registerNamespace('admin', { de, en });

/** Translations of the admin pages; importing this hook loads them. */
export function useAdminT() {
  return useT('admin');
}
