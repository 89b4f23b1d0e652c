import { useEffect } from 'react';
import { NavigationType, useLocation, useNavigationType } from 'react-router';

/** A new page starts at its top; back/forward keep the browser's own scroll restoration. */
export function ScrollToTop() {
  const { pathname, hash } = useLocation();
  const navigationType = useNavigationType();
  useEffect(() => {
    if (navigationType === NavigationType.Pop || hash) return;
    window.scrollTo(0, 0);
  }, [pathname, hash, navigationType]);
  return null;
}
