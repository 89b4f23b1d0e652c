import de from '../locales/de/contactCenter.json';
import en from '../locales/en/contactCenter.json';
import { defineNamespace } from './define';

export const useContactCenterT = defineNamespace('contactCenter', { de, en });
