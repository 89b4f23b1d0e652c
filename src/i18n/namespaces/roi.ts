import { defineNamespace } from './define';

export const useRoiT = defineNamespace('roi');
