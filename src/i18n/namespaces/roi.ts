import de from '../locales/de/roi.json';
import en from '../locales/en/roi.json';
import { defineNamespace } from './define';

export const useRoiT = defineNamespace('roi', { de, en });
