import { defineNamespace } from './define';

export const useCoachPlansT = defineNamespace('coachPlans');
