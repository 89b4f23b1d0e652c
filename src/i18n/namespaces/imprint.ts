import { defineNamespace } from './define';

export const useImprintT = defineNamespace('imprint');
