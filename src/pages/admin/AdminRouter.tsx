import { useEffect, type ReactNode } from 'react';
import { BrowserRouter, useLocation } from 'react-router';
import { syncLocation, useLocation as useSiteLocation } from '../../components/router';

/** Tells the site's router when the admin area's React Router has moved (sign-in, a tab, a redirect). */
function ReportNavigations() {
  const { pathname, search, hash } = useLocation();
  const site = useSiteLocation();
  const moved = pathname !== site.pathname || search !== site.search || hash !== site.hash;
  useEffect(() => {
    if (moved) syncLocation('replace');
  }, [moved, pathname, search, hash]);
  return null;
}

/**
 * The admin features use React Router's hooks (useNavigate, useSearchParams, useLocation). The
 * marketing pages do without it (src/components/router.tsx), so React Router is loaded with the
 * admin pages only, and each admin page provides it.
 */
export function AdminRouter({ children }: { children: ReactNode }) {
  return (
    <BrowserRouter>
      <ReportNavigations />
      {children}
    </BrowserRouter>
  );
}
