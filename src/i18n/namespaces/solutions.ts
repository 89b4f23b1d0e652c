import { defineNamespace } from './define';

export const useSolutionsT = defineNamespace('solutions');
