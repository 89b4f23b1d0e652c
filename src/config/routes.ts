import { liveCoachPath } from './persona';

/**
 * The one route registry. The router, header, footer, sitemap, prerender list and the language
 * switch all read it, so a route exists in exactly one place.
 *
 * A route with both a German and an English path is bound to the language of its path. A route
 * with only a German path renders in the visitor's chosen language (default German).
 */
export const languages = ['de', 'en'] as const;
export type Lang = (typeof languages)[number];
export const defaultLang: Lang = 'de';

export function isLang(value: unknown): value is Lang {
  return value === 'de' || value === 'en';
}

export type RouteKind = 'public' | 'coach' | 'admin';

export interface RouteDef {
  readonly paths: { readonly de: string; readonly en?: string };
  readonly kind: RouteKind;
}

export const routes = {
  home: { paths: { de: '/' }, kind: 'public' },
  products: { paths: { de: '/produkte' }, kind: 'public' },
  features: { paths: { de: '/produkte/features' }, kind: 'public' },
  demo: { paths: { de: '/produkte/demo' }, kind: 'public' },
  solutions: { paths: { de: '/produkte/loesungen' }, kind: 'public' },
  pricing: { paths: { de: '/produkte/preise' }, kind: 'public' },
  coachPlans: { paths: { de: '/produkte/auftritt-waehlen' }, kind: 'public' },
  contactCenter: {
    paths: { de: '/produkte/ai-contact-center', en: '/products/ai-contact-center' },
    kind: 'public',
  },
  hotlines: { paths: { de: '/produkte/ai-hotlines', en: '/products/ai-hotlines' }, kind: 'public' },
  secretary: {
    paths: { de: '/produkte/ai-secretary', en: '/products/ai-secretary' },
    kind: 'public',
  },
  mentalCoaches: {
    paths: { de: '/produkte/mental-coaches', en: '/products/mental-coaches' },
    kind: 'public',
  },
  liveCoach: { paths: { de: liveCoachPath }, kind: 'coach' },
  about: { paths: { de: '/unternehmen/ueber-uns', en: '/company/about' }, kind: 'public' },
  contact: { paths: { de: '/unternehmen/kontakt', en: '/company/contact' }, kind: 'public' },
  imprint: { paths: { de: '/rechtliches/impressum' }, kind: 'public' },
  privacy: { paths: { de: '/rechtliches/datenschutz' }, kind: 'public' },
  transparency: { paths: { de: '/rechtliches/transparenz' }, kind: 'public' },
  adminLogin: { paths: { de: '/admin/dashboard-login' }, kind: 'admin' },
  adminDashboard: { paths: { de: '/admin/master-dashboard' }, kind: 'admin' },
} as const satisfies Record<string, RouteDef>;

export type RouteId = keyof typeof routes;
export const routeIds = Object.keys(routes) as RouteId[];

/** The path of a route in a language; routes without that language keep their German path. */
export function getHref(id: RouteId, lang: Lang): string {
  const paths: RouteDef['paths'] = routes[id].paths;
  return (lang === 'en' ? paths.en : undefined) ?? paths.de;
}

export interface RouteMatch {
  readonly id: RouteId;
  /** The language the path itself fixes, or null when the route follows the chosen language. */
  readonly boundLang: Lang | null;
}

function normalise(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

const byPath = new Map<string, RouteMatch>();
for (const id of routeIds) {
  const paths: RouteDef['paths'] = routes[id].paths;
  if (paths.en === undefined) {
    byPath.set(paths.de, { id, boundLang: null });
  } else {
    byPath.set(paths.de, { id, boundLang: 'de' });
    byPath.set(paths.en, { id, boundLang: 'en' });
  }
}

export function matchPath(pathname: string): RouteMatch | null {
  return byPath.get(normalise(pathname)) ?? null;
}

/** Where the language switch goes: the other language's path when the route has one. */
export function pathForLanguage(pathname: string, lang: Lang): string {
  const match = matchPath(pathname);
  if (!match) return pathname;
  return getHref(match.id, lang);
}

/** Every path served as static HTML: the public routes in each language they have. */
export function prerenderPaths(): { path: string; id: RouteId; lang: Lang }[] {
  return routeIds.flatMap((id) => {
    const route: RouteDef = routes[id];
    if (route.kind === 'admin') return [];
    const entries = [{ path: route.paths.de, id, lang: 'de' as Lang }];
    if (route.paths.en !== undefined) entries.push({ path: route.paths.en, id, lang: 'en' });
    return entries;
  });
}

/** Paths that exist only in the browser (no static HTML, no index). */
export const clientOnlyPrefixes = ['/admin/'] as const;
