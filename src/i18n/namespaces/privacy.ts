import { defineNamespace } from './define';

export const usePrivacyT = defineNamespace('privacy');
