import { defineNamespace } from './define';

export const useFeaturesT = defineNamespace('features');
