import 'i18next';
import type common from './locales/de/common.json';
import type marketing from './locales/de/marketing.json';
import type products from './locales/de/products.json';
import type legal from './locales/de/legal.json';
import type admin from './locales/de/admin.json';

// German is the source language: a key missing here fails the typecheck, and the parity test
// makes sure English has the same keys.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: {
      common: typeof common;
      marketing: typeof marketing;
      products: typeof products;
      legal: typeof legal;
      admin: typeof admin;
    };
  }
}
