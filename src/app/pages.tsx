import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import type { FlatNamespace } from 'i18next';
import { matchPath, routeIds, type RouteId } from '../config/routes';
import { loadNamespaces } from '../i18n';

type PageModule = () => Promise<{ default: ComponentType }>;

/**
 * Every route's page module and the translation namespaces it shows; the typecheck makes the table
 * complete and fails when a page is renamed or moved (each loader is a typed `import()`, its own
 * chunk, loaded when the route is visited). `file` names the same module for the build, which
 * looks up the page's chunks in Vite's manifest and fails when it finds none (scripts/build.ts).
 * The namespaces load with the page, in the active language.
 */
export const pageModules: Record<RouteId, { load: PageModule; file: string; namespaces: readonly FlatNamespace[] }> = {
  home: {
    load: () => import('../pages/marketing/HomePage'),
    file: 'marketing/HomePage.tsx',
    namespaces: [],
  },
  products: {
    load: () => import('../pages/marketing/ProductsPage'),
    file: 'marketing/ProductsPage.tsx',
    namespaces: ['overview'],
  },
  features: {
    load: () => import('../pages/marketing/FeaturesPage'),
    file: 'marketing/FeaturesPage.tsx',
    namespaces: ['features'],
  },
  demo: {
    load: () => import('../pages/marketing/DemoPage'),
    file: 'marketing/DemoPage.tsx',
    namespaces: ['demo'],
  },
  solutions: {
    load: () => import('../pages/marketing/SolutionsPage'),
    file: 'marketing/SolutionsPage.tsx',
    namespaces: ['solutions'],
  },
  pricing: {
    load: () => import('../pages/marketing/PricingPage'),
    file: 'marketing/PricingPage.tsx',
    namespaces: ['pricing'],
  },
  coachPlans: {
    load: () => import('../pages/marketing/CoachPlansPage'),
    file: 'marketing/CoachPlansPage.tsx',
    namespaces: ['coachPlans'],
  },
  contactCenter: {
    load: () => import('../pages/marketing/ProductPage').then((module) => ({ default: module.ContactCenterPage })),
    file: 'marketing/ProductPage.tsx',
    namespaces: ['contactCenter'],
  },
  hotlines: {
    load: () => import('../pages/marketing/ProductPage').then((module) => ({ default: module.HotlinesPage })),
    file: 'marketing/ProductPage.tsx',
    namespaces: ['hotlines'],
  },
  secretary: {
    load: () => import('../pages/marketing/ProductPage').then((module) => ({ default: module.SecretaryPage })),
    file: 'marketing/ProductPage.tsx',
    namespaces: ['secretary'],
  },
  mentalCoaches: {
    load: () => import('../pages/marketing/MentalCoachesPage'),
    file: 'marketing/MentalCoachesPage.tsx',
    namespaces: ['mentalCoaches'],
  },
  liveCoach: {
    load: () => import('../pages/coach/LiveCoachPage'),
    file: 'coach/LiveCoachPage.tsx',
    namespaces: [],
  },
  about: {
    load: () => import('../pages/marketing/AboutPage'),
    file: 'marketing/AboutPage.tsx',
    namespaces: ['about'],
  },
  contact: {
    load: () => import('../pages/marketing/ContactPage'),
    file: 'marketing/ContactPage.tsx',
    namespaces: ['contactPage'],
  },
  imprint: {
    load: () => import('../pages/legal/ImprintPage'),
    file: 'legal/ImprintPage.tsx',
    namespaces: ['imprint'],
  },
  privacy: {
    load: () => import('../pages/legal/PrivacyPage'),
    file: 'legal/PrivacyPage.tsx',
    namespaces: ['privacy'],
  },
  transparency: {
    load: () => import('../pages/legal/TransparencyPage'),
    file: 'legal/TransparencyPage.tsx',
    namespaces: ['transparency'],
  },
  adminLogin: {
    load: () => import('../pages/admin/AdminLoginPage'),
    file: 'admin/AdminLoginPage.tsx',
    namespaces: ['admin'],
  },
  adminDashboard: {
    load: () => import('../pages/admin/AdminDashboardPage'),
    file: 'admin/AdminDashboardPage.tsx',
    namespaces: ['admin'],
  },
};

const loaded: Partial<Record<RouteId, ComponentType>> = {};

async function load(id: RouteId): Promise<{ default: ComponentType }> {
  const [module] = await Promise.all([pageModules[id].load(), loadNamespaces(pageModules[id].namespaces)]);
  loaded[id] = module.default;
  return module;
}

/**
 * Loads the page module of a path ahead of rendering. The prerenderer and the browser both call
 * it before the first render, so hydration finds the page's component already there and renders
 * exactly the prerendered markup, with no fallback in between.
 */
export async function preloadPage(pathname: string): Promise<void> {
  const id = matchPath(pathname)?.id;
  if (id && !loaded[id]) await load(id);
}

const lazyPages = Object.fromEntries(
  routeIds.map((id) => [id, lazy(() => load(id))]),
) as Record<RouteId, LazyExoticComponent<ComponentType>>;

/** The page of a route: rendered at once when loaded, otherwise loaded on the way. */
export function Page({ id }: { id: RouteId }) {
  const Ready = loaded[id];
  if (Ready) return <Ready />;
  const Lazy = lazyPages[id];
  return (
    <Suspense fallback={<div className="min-h-[60vh]" aria-busy="true" />}>
      <Lazy />
    </Suspense>
  );
}
