import { liveCoachPath, persona } from './persona';

/**
 * The one route registry. The router (src/app/AppRoutes.tsx), header, footer, sitemap, prerender
 * list, hreflang links and the language switch all read it, so a route exists in exactly one place.
 *
 * Every public page has a German and an English path (its twins), and a path renders in its own
 * language. The seed's German paths are kept as they are; the English ones follow one pattern:
 * `/en` for the home page, `/products/…` for what lives under `/produkte/…`, `/company/…` for
 * `/unternehmen/…`, `/legal/…` for `/rechtliches/…`. The live coach has both paths too, but it
 * speaks German on either: only the site around it (header, footer, titles) is English.
 * The admin area has one path per page and follows the remembered language (see `langOfPath`).
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
  home: { paths: { de: '/', en: '/en' }, kind: 'public' },
  products: { paths: { de: '/produkte', en: '/products' }, kind: 'public' },
  features: { paths: { de: '/produkte/features', en: '/products/features' }, kind: 'public' },
  demo: { paths: { de: '/produkte/demo', en: '/products/demo' }, kind: 'public' },
  solutions: { paths: { de: '/produkte/loesungen', en: '/products/solutions' }, kind: 'public' },
  pricing: { paths: { de: '/produkte/preise', en: '/products/pricing' }, kind: 'public' },
  coachPlans: { paths: { de: '/produkte/auftritt-waehlen', en: '/products/choose-your-reach' }, kind: 'public' },
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
  liveCoach: { paths: { de: liveCoachPath, en: `/products/${persona.slug}-ai` }, kind: 'coach' },
  about: { paths: { de: '/unternehmen/ueber-uns', en: '/company/about' }, kind: 'public' },
  contact: { paths: { de: '/unternehmen/kontakt', en: '/company/contact' }, kind: 'public' },
  imprint: { paths: { de: '/rechtliches/impressum', en: '/legal/imprint' }, kind: 'public' },
  privacy: { paths: { de: '/rechtliches/datenschutz', en: '/legal/privacy' }, kind: 'public' },
  transparency: { paths: { de: '/rechtliches/transparenz', en: '/legal/transparency' }, kind: 'public' },
  adminLogin: { paths: { de: '/admin/dashboard-login' }, kind: 'admin' },
  adminDashboard: { paths: { de: '/admin/master-dashboard' }, kind: 'admin' },
} as const satisfies Record<string, RouteDef>;

export type RouteId = keyof typeof routes;
export const routeIds = Object.keys(routes) as RouteId[];

/** The path of a route in a language; a route without that language keeps its German path. */
export function getHref(id: RouteId, lang: Lang): string {
  const paths: RouteDef['paths'] = routes[id].paths;
  return (lang === 'en' ? paths.en : undefined) ?? paths.de;
}

export interface RouteMatch {
  readonly id: RouteId;
  /** The language the path itself fixes, or null when the route follows the remembered language. */
  readonly boundLang: Lang | null;
}

function normalise(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** Every path of the registry with its route and the language it binds (null: none). */
export interface RoutePath {
  readonly path: string;
  readonly id: RouteId;
  readonly lang: Lang | null;
}

export const routePaths: readonly RoutePath[] = routeIds.flatMap((id): RoutePath[] => {
  const paths: RouteDef['paths'] = routes[id].paths;
  return paths.en === undefined
    ? [{ path: paths.de, id, lang: null }]
    : [
        { path: paths.de, id, lang: 'de' },
        { path: paths.en, id, lang: 'en' },
      ];
});

const byPath = new Map(routePaths.map(({ path, id, lang }) => [path, { id, boundLang: lang }]));

export function matchPath(pathname: string): RouteMatch | null {
  return byPath.get(normalise(pathname)) ?? null;
}

const firstSegment = (path: string) => path.split('/')[1] ?? '';

/**
 * The first path segments that only English paths use (`en`, `products`, `company`, `legal`):
 * an unknown path under one of them is an English visitor's, and its not-found page is English.
 */
export const englishPrefixes: readonly string[] = [
  ...new Set(routePaths.filter((entry) => entry.lang === 'en').map((entry) => firstSegment(entry.path))),
].filter((segment) => !routePaths.some((entry) => entry.lang !== 'en' && firstSegment(entry.path) === segment));

/**
 * The language a path renders in: a registry path's own language, for an unknown path the language
 * of its first segment (the not-found page), and null for the admin area, which has no prerendered
 * HTML and follows the visitor's remembered language.
 */
export function langOfPath(pathname: string): Lang | null {
  const match = matchPath(pathname);
  if (match) return match.boundLang;
  return englishPrefixes.includes(firstSegment(normalise(pathname))) ? 'en' : 'de';
}

/**
 * Where the language switch goes: the other language's path of the same page. A page without one
 * (admin) stays where it is; from an unknown path the switch leads to the home page.
 */
export function pathForLanguage(pathname: string, lang: Lang): string {
  const match = matchPath(pathname);
  if (!match) return getHref('home', lang);
  return getHref(match.id, lang);
}

/** Every path served as static HTML: the public routes in both languages. */
export function prerenderPaths(): { path: string; id: RouteId; lang: Lang }[] {
  return routePaths.flatMap(({ path, id, lang }) => (routes[id].kind === 'admin' || lang === null ? [] : [{ path, id, lang }]));
}

/** Paths that exist only in the browser (no static HTML, no index). */
export const clientOnlyPrefixes = ['/admin/'] as const;
