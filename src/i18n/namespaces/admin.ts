import de from '../locales/de/admin.json';
import en from '../locales/en/admin.json';
import { defineNamespace } from './define';

export const useAdminT = defineNamespace('admin', { de, en });
