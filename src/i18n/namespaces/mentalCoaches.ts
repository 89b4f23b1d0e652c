import de from '../locales/de/mentalCoaches.json';
import en from '../locales/en/mentalCoaches.json';
import { defineNamespace } from './define';

export const useMentalCoachesT = defineNamespace('mentalCoaches', { de, en });
