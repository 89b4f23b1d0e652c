import de from '../locales/de/privacy.json';
import en from '../locales/en/privacy.json';
import { defineNamespace } from './define';

export const usePrivacyT = defineNamespace('privacy', { de, en });
