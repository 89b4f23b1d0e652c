import { defineNamespace } from './define';

export const useOverviewT = defineNamespace('overview');
