import de from '../locales/de/transparency.json';
import en from '../locales/en/transparency.json';
import { defineNamespace } from './define';

export const useTransparencyT = defineNamespace('transparency', { de, en });
