import { registerNamespace } from '../index';
import { useT } from '../language';
import de from '../locales/de/products.json';
import en from '../locales/en/products.json';

registerNamespace('products', { de, en });

/** Translations of the products pages; importing this hook loads them. */
export function useProductsT() {
  return useT('products');
}
