import { defineNamespace } from './define';

export const useDemoT = defineNamespace('demo');
