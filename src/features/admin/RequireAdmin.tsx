import type { Session } from '@supabase/supabase-js';
import { useEffect, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { getHref } from '../../config/routes';
import { useT } from '../../i18n/language';
import { rememberReturnPath } from './returnPath';
import { useAdminSession } from './useAdminSession';

/**
 * Shows its content only with an admin session. Without one it stores the wanted path and goes
 * to the sign-in (replacing history, so Back does not loop). This decides what the browser shows;
 * row level security decides what the database gives.
 */
export function RequireAdmin({ children }: { children: (session: Session) => ReactNode }) {
  const state = useAdminSession();
  const { t } = useT('admin');
  const navigate = useNavigate();
  const location = useLocation();

  useEffect(() => {
    if (state.status === 'signedOut' || state.status === 'notAdmin') {
      rememberReturnPath(`${location.pathname}${location.search}`);
      void navigate(getHref('adminLogin', 'de'), { replace: true });
    }
  }, [state.status, location.pathname, location.search, navigate]);

  if (state.status !== 'admin') {
    return (
      <p role="status" className="mx-auto max-w-6xl px-4 py-16 text-slate-700">
        {t('guard.checking')}
      </p>
    );
  }
  return <>{children(state.session)}</>;
}
