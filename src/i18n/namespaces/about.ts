import { defineNamespace } from './define';

export const useAboutT = defineNamespace('about');
