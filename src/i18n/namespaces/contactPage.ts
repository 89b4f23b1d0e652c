import de from '../locales/de/contactPage.json';
import en from '../locales/en/contactPage.json';
import { defineNamespace } from './define';

export const useContactPageT = defineNamespace('contactPage', { de, en });
