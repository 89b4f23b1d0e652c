import { defineNamespace } from './define';

export const useTransparencyT = defineNamespace('transparency');
