import de from '../locales/de/imprint.json';
import en from '../locales/en/imprint.json';
import { defineNamespace } from './define';

export const useImprintT = defineNamespace('imprint', { de, en });
