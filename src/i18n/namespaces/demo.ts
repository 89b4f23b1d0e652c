import de from '../locales/de/demo.json';
import en from '../locales/en/demo.json';
import { defineNamespace } from './define';

export const useDemoT = defineNamespace('demo', { de, en });
