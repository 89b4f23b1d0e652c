import de from '../locales/de/features.json';
import en from '../locales/en/features.json';
import { defineNamespace } from './define';

export const useFeaturesT = defineNamespace('features', { de, en });
