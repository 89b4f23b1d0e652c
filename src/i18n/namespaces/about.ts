import de from '../locales/de/about.json';
import en from '../locales/en/about.json';
import { defineNamespace } from './define';

export const useAboutT = defineNamespace('about', { de, en });
