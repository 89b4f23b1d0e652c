import de from '../locales/de/solutions.json';
import en from '../locales/en/solutions.json';
import { defineNamespace } from './define';

export const useSolutionsT = defineNamespace('solutions', { de, en });
