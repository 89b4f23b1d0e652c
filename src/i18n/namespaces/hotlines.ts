import { defineNamespace } from './define';

export const useHotlinesT = defineNamespace('hotlines');
