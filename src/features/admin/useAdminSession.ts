import type { Session } from '@supabase/supabase-js';
import { useEffect, useState } from 'react';
import { currentSession, isAdminSession, onSessionChange } from '../../services/auth';

export type AdminSessionState =
  | { status: 'checking' }
  | { status: 'signedOut' }
  | { status: 'notAdmin'; session: Session }
  | { status: 'admin'; session: Session };

function stateOf(session: Session | null): AdminSessionState {
  if (!session) return { status: 'signedOut' };
  return isAdminSession(session) ? { status: 'admin', session } : { status: 'notAdmin', session };
}

/** The browser's session as the admin area sees it; follows sign-in, refresh and sign-out (other tabs too). */
export function useAdminSession(): AdminSessionState {
  const [state, setState] = useState<AdminSessionState>({ status: 'checking' });
  useEffect(() => {
    let active = true;
    void currentSession()
      .then((session) => {
        if (active) setState(stateOf(session));
      })
      .catch(() => {
        if (active) setState({ status: 'signedOut' });
      });
    const unsubscribe = onSessionChange((session) => {
      if (active) setState(stateOf(session));
    });
    return () => {
      active = false;
      unsubscribe();
    };
  }, []);
  return state;
}
