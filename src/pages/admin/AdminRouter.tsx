import { useMemo, type ReactNode } from 'react';
import { createPath, NavigationType, Router as ReactRouter, type Navigator, type To } from 'react-router';
import { useLocation, useNavigate, useNavigationType } from '../../components/router';

const toPath = (to: To) => (typeof to === 'string' ? to : createPath(to));

const reactRouterType = { load: NavigationType.Pop, pop: NavigationType.Pop, push: NavigationType.Push, replace: NavigationType.Replace } as const;

/**
 * The admin features use React Router's hooks (useNavigate, useSearchParams, useLocation). The
 * marketing pages do without it (src/components/router.tsx), so React Router is loaded with the
 * admin pages only: its low-level Router, fed the site router's location and navigating through
 * it, so both always show the same location in the same render.
 */
export function AdminRouter({ children }: { children: ReactNode }) {
  const location = useLocation();
  const type = useNavigationType();
  const navigate = useNavigate();
  const navigator = useMemo<Navigator>(
    () => ({
      createHref: toPath,
      push: (to) => navigate(toPath(to)),
      replace: (to) => navigate(toPath(to), { replace: true }),
      go: (delta) => window.history.go(delta),
    }),
    [navigate],
  );
  return (
    <ReactRouter location={location} navigationType={reactRouterType[type]} navigator={navigator}>
      {children}
    </ReactRouter>
  );
}
