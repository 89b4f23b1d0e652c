import de from '../locales/de/pricing.json';
import en from '../locales/en/pricing.json';
import { defineNamespace } from './define';

export const usePricingT = defineNamespace('pricing', { de, en });
