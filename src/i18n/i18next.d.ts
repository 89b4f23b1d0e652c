import 'i18next';
import type common from './locales/de/common.json';
import type meta from './locales/de/meta.json';
import type overview from './locales/de/overview.json';
import type features from './locales/de/features.json';
import type demo from './locales/de/demo.json';
import type solutions from './locales/de/solutions.json';
import type pricing from './locales/de/pricing.json';
import type coachPlans from './locales/de/coachPlans.json';
import type mentalCoaches from './locales/de/mentalCoaches.json';
import type about from './locales/de/about.json';
import type contactPage from './locales/de/contactPage.json';
import type contactCenter from './locales/de/contactCenter.json';
import type hotlines from './locales/de/hotlines.json';
import type secretary from './locales/de/secretary.json';
import type imprint from './locales/de/imprint.json';
import type privacy from './locales/de/privacy.json';
import type transparency from './locales/de/transparency.json';
import type admin from './locales/de/admin.json';
import type roi from './locales/de/roi.json';

// German is the source language: a key missing here fails the typecheck, and the parity test
// makes sure English has the same keys. Each page has its own namespace, loaded per language.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: {
      common: typeof common;
      meta: typeof meta;
      overview: typeof overview;
      features: typeof features;
      demo: typeof demo;
      solutions: typeof solutions;
      pricing: typeof pricing;
      coachPlans: typeof coachPlans;
      mentalCoaches: typeof mentalCoaches;
      about: typeof about;
      contactPage: typeof contactPage;
      contactCenter: typeof contactCenter;
      hotlines: typeof hotlines;
      secretary: typeof secretary;
      imprint: typeof imprint;
      privacy: typeof privacy;
      transparency: typeof transparency;
      admin: typeof admin;
      roi: typeof roi;
    };
  }
}
