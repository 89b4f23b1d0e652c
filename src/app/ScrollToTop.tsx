import { useEffect } from 'react';
import { useLocation, useNavigationType } from '../components/router';

/** A new page starts at its top; back/forward keep the browser's own scroll restoration. */
export function ScrollToTop() {
  const { pathname, hash } = useLocation();
  const navigationType = useNavigationType();
  useEffect(() => {
    if (navigationType === 'pop' || navigationType === 'load' || hash) return;
    window.scrollTo(0, 0);
  }, [pathname, hash, navigationType]);
  return null;
}
