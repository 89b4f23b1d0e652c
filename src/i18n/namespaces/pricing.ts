import { defineNamespace } from './define';

export const usePricingT = defineNamespace('pricing');
