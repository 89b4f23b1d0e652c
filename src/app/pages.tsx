import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { matchPath, routeIds, type RouteId } from '../config/routes';
import NotFoundPage from '../pages/NotFoundPage';

type PageModule = () => Promise<{ default: ComponentType }>;

/** The page module of every route id, relative to src/pages (the typecheck makes it complete). */
export const pageFiles: Record<RouteId, string> = {
  home: 'marketing/HomePage.tsx',
  products: 'marketing/ProductsPage.tsx',
  features: 'marketing/FeaturesPage.tsx',
  demo: 'marketing/DemoPage.tsx',
  solutions: 'marketing/SolutionsPage.tsx',
  pricing: 'marketing/PricingPage.tsx',
  coachPlans: 'marketing/CoachPlansPage.tsx',
  contactCenter: 'marketing/ContactCenterPage.tsx',
  hotlines: 'marketing/HotlinesPage.tsx',
  secretary: 'marketing/SecretaryPage.tsx',
  mentalCoaches: 'marketing/MentalCoachesPage.tsx',
  liveCoach: 'coach/LiveCoachPage.tsx',
  about: 'marketing/AboutPage.tsx',
  contact: 'marketing/ContactPage.tsx',
  imprint: 'legal/ImprintPage.tsx',
  privacy: 'legal/PrivacyPage.tsx',
  transparency: 'legal/TransparencyPage.tsx',
  adminLogin: 'admin/AdminLoginPage.tsx',
  adminDashboard: 'admin/AdminDashboardPage.tsx',
};

// Each page is its own chunk, loaded when its route is visited.
const modules = import.meta.glob<{ default: ComponentType }>('../pages/*/*Page.tsx');

function loaderOf(id: RouteId): PageModule {
  const load = modules[`../pages/${pageFiles[id]}`];
  if (!load) throw new Error(`No page module at src/pages/${pageFiles[id]}`);
  return load;
}

const loaded: Partial<Record<RouteId, ComponentType>> = {};

async function load(id: RouteId): Promise<{ default: ComponentType }> {
  const module = await loaderOf(id)();
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
