import de from '../locales/de/overview.json';
import en from '../locales/en/overview.json';
import { defineNamespace } from './define';

export const useOverviewT = defineNamespace('overview', { de, en });
