import {
  createContext,
  useContext,
  useMemo,
  useSyncExternalStore,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from 'react';

/**
 * The site's router: the current location from the History API, links that move without a page
 * load, and nothing else. The pages load no data and the route table is src/config/routes.ts, so
 * this is all the marketing site needs; React Router's declarative mode costs about 14 KB gzip of
 * first-load JavaScript for the same. The admin area, whose features use React Router's hooks,
 * feeds this location to React Router's low-level Router (src/pages/admin/AdminRouter.tsx).
 */
export interface Location {
  readonly pathname: string;
  readonly search: string;
  readonly hash: string;
}

/** How the current location was reached: the first load, a link (push/replace) or back/forward. */
export type NavigationType = 'load' | 'push' | 'replace' | 'pop';

interface Snapshot {
  readonly href: string;
  readonly location: Location;
  readonly type: NavigationType;
}

interface RouterState extends Snapshot {
  readonly navigate: (to: string, options?: { replace?: boolean }) => void;
}

const listeners = new Set<() => void>();
let lastType: NavigationType = 'load';
let snapshot: Snapshot | null = null;

function readBrowser(): Snapshot {
  const { pathname, search, hash } = window.location;
  const href = `${pathname}${search}${hash}`;
  if (snapshot?.href !== href || snapshot.type !== lastType) {
    snapshot = { href, location: { pathname, search, hash }, type: lastType };
  }
  return snapshot;
}

function notify(type: NavigationType): void {
  lastType = type;
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0) window.addEventListener('popstate', onPopState);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('popstate', onPopState);
  };
}

function onPopState(): void {
  notify('pop');
}

function navigate(to: string, options: { replace?: boolean } = {}): void {
  const url = new URL(to, window.location.href);
  const target = `${url.pathname}${url.search}${url.hash}`;
  if (options.replace) window.history.replaceState(null, '', target);
  else window.history.pushState(null, '', target);
  notify(options.replace ? 'replace' : 'push');
}

/** The URL was changed outside this router (e.g. history.replaceState in a test): render it. */
export function syncLocation(type: NavigationType = 'push'): void {
  notify(type);
}

const RouterContext = createContext<RouterState | null>(null);

function splitPath(path: string): Location {
  const url = new URL(path, 'http://prerender.local');
  return { pathname: url.pathname, search: url.search, hash: url.hash };
}

// Prerendering has no window (the `location` prop gives the path); hydration reads the same path
// the HTML was rendered for.
const serverSnapshot = (): Snapshot | null => (typeof window === 'undefined' ? null : readBrowser());

/**
 * Provides the location: the browser's, or a fixed `location` when prerendering (the server has no
 * history; the first client render reads the same path from window.location).
 */
export function Router({ location, children }: { location?: string; children: ReactNode }) {
  const browser = useSyncExternalStore(subscribe, readBrowser, serverSnapshot);
  const value = useMemo<RouterState>(() => {
    const fixed: Snapshot | null = location === undefined ? null : { href: location, location: splitPath(location), type: 'load' };
    const current = fixed ?? browser ?? { href: '/', location: splitPath('/'), type: 'load' as const };
    return { ...current, navigate };
  }, [location, browser]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

function useRouter(): RouterState {
  const state = useContext(RouterContext);
  if (!state) throw new Error('useLocation/useNavigate/Link need a <Router> above them.');
  return state;
}

export function useLocation(): Location {
  return useRouter().location;
}

export function useNavigationType(): NavigationType {
  return useRouter().type;
}

export function useNavigate(): RouterState['navigate'] {
  return useRouter().navigate;
}

type AnchorProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string };

/** A plain click on a link to a page of this site moves there without a page load. */
function followInApp(event: MouseEvent<HTMLAnchorElement>, to: string, target: string | undefined, go: RouterState['navigate']) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
  if (target !== undefined && target !== '_self') return;
  event.preventDefault();
  go(to);
}

export function Link({ to, onClick, target, children, ...rest }: AnchorProps) {
  const { navigate: go } = useRouter();
  return (
    <a
      {...rest}
      href={to}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        followInApp(event, to, target, go);
      }}
    >
      {children}
    </a>
  );
}

/** A link that knows whether it points to the current page (`aria-current="page"`). */
export function NavLink({ className, ...rest }: Omit<AnchorProps, 'className'> & { className: (state: { isActive: boolean }) => string }) {
  const { pathname } = useLocation();
  const isActive = pathname.replace(/\/+$/, '') === rest.to.replace(/\/+$/, '') || (rest.to === '/' && pathname === '/');
  return <Link {...rest} className={className({ isActive })} aria-current={isActive ? 'page' : undefined} />;
}
