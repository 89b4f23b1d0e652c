import { defineNamespace } from './define';

export const useContactCenterT = defineNamespace('contactCenter');
