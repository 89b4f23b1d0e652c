import { defineNamespace } from './define';

export const useMentalCoachesT = defineNamespace('mentalCoaches');
