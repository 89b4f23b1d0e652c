import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import type { FlatNamespace } from 'i18next';
import { matchPath, routeIds, type RouteId } from '../config/routes';
import { loadNamespaces } from '../i18n';
import NotFoundPage from '../pages/NotFoundPage';

type PageModule = () => Promise<{ default: ComponentType }>;

/**
 * Every route's page module (relative to src/pages) and the translation namespaces it shows; the
 * typecheck makes the table complete. The namespaces load with the page, in the active language.
 */
export const pageModules: Record<RouteId, { file: string; namespaces: readonly FlatNamespace[] }> = {
  home: { file: 'marketing/HomePage.tsx', namespaces: [] },
  products: { file: 'marketing/ProductsPage.tsx', namespaces: ['overview'] },
  features: { file: 'marketing/FeaturesPage.tsx', namespaces: ['features'] },
  demo: { file: 'marketing/DemoPage.tsx', namespaces: ['demo'] },
  solutions: { file: 'marketing/SolutionsPage.tsx', namespaces: ['solutions'] },
  pricing: { file: 'marketing/PricingPage.tsx', namespaces: ['pricing'] },
  coachPlans: { file: 'marketing/CoachPlansPage.tsx', namespaces: ['coachPlans'] },
  contactCenter: { file: 'marketing/ContactCenterPage.tsx', namespaces: ['contactCenter'] },
  hotlines: { file: 'marketing/HotlinesPage.tsx', namespaces: ['hotlines'] },
  secretary: { file: 'marketing/SecretaryPage.tsx', namespaces: ['secretary'] },
  mentalCoaches: { file: 'marketing/MentalCoachesPage.tsx', namespaces: ['mentalCoaches'] },
  liveCoach: { file: 'coach/LiveCoachPage.tsx', namespaces: [] },
  about: { file: 'marketing/AboutPage.tsx', namespaces: ['about'] },
  contact: { file: 'marketing/ContactPage.tsx', namespaces: ['contactPage'] },
  imprint: { file: 'legal/ImprintPage.tsx', namespaces: ['imprint'] },
  privacy: { file: 'legal/PrivacyPage.tsx', namespaces: ['privacy'] },
  transparency: { file: 'legal/TransparencyPage.tsx', namespaces: ['transparency'] },
  adminLogin: { file: 'admin/AdminLoginPage.tsx', namespaces: ['admin'] },
  adminDashboard: { file: 'admin/AdminDashboardPage.tsx', namespaces: ['admin'] },
};

// Each page is its own chunk, loaded when its route is visited.
const modules = import.meta.glob<{ default: ComponentType }>('../pages/*/*Page.tsx');

function loaderOf(id: RouteId): PageModule {
  const load = modules[`../pages/${pageModules[id].file}`];
  if (!load) throw new Error(`No page module at src/pages/${pageModules[id].file}`);
  return load;
}

const loaded: Partial<Record<RouteId, ComponentType>> = {};

async function load(id: RouteId): Promise<{ default: ComponentType }> {
  const [module] = await Promise.all([loaderOf(id)(), loadNamespaces(pageModules[id].namespaces)]);
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

/** The page of a path: rendered at once when loaded, otherwise loaded on the way. */
export function Page({ pathname }: { pathname: string }) {
  const id = matchPath(pathname)?.id;
  if (!id) return <NotFoundPage />;
  const Ready = loaded[id];
  if (Ready) return <Ready />;
  const Lazy = lazyPages[id];
  return (
    <Suspense fallback={<div className="min-h-[60vh]" aria-busy="true" />}>
      <Lazy />
    </Suspense>
  );
}
