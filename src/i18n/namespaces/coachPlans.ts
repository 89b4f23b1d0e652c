import de from '../locales/de/coachPlans.json';
import en from '../locales/en/coachPlans.json';
import { defineNamespace } from './define';

export const useCoachPlansT = defineNamespace('coachPlans', { de, en });
