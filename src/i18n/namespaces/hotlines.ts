import de from '../locales/de/hotlines.json';
import en from '../locales/en/hotlines.json';
import { defineNamespace } from './define';

export const useHotlinesT = defineNamespace('hotlines', { de, en });
