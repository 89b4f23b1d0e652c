import { defineNamespace } from './define';

export const useAdminT = defineNamespace('admin');
