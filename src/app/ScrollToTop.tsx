import { useEffect } from 'react';
import { NavigationType, useLocation, useNavigationType } from 'react-router';

/**
 * A new page starts at its top; the first load and back/forward (`POP`) keep the browser's own
 * scroll restoration, and a link to an anchor scrolls to it.
 */
export function ScrollToTop() {
  const { pathname, hash } = useLocation();
  const navigationType = useNavigationType();
  useEffect(() => {
    if (navigationType === NavigationType.Pop || hash) return;
    window.scrollTo(0, 0);
  }, [pathname, hash, navigationType]);
  return null;
}
