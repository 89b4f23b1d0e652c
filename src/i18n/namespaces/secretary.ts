import { defineNamespace } from './define';

export const useSecretaryT = defineNamespace('secretary');
