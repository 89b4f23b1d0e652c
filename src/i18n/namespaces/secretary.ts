import de from '../locales/de/secretary.json';
import en from '../locales/en/secretary.json';
import { defineNamespace } from './define';

export const useSecretaryT = defineNamespace('secretary', { de, en });
