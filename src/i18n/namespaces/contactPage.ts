import { defineNamespace } from './define';

export const useContactPageT = defineNamespace('contactPage');
