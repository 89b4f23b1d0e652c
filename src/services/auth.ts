/**
 * Operator sign-in. Admin means `app_metadata.role = 'admin'` in the session's JWT, which only
 * the service key can set; the database's row level security enforces it again on every request,
 * so the checks here only decide what the browser shows.
 */
import { AuthInvalidTokenResponseError, isAuthApiError, type Session } from '@supabase/supabase-js';
import { getSupabase } from './supabase';
import { catalogue } from '../../supabase/functions/_shared/catalogue';

export const loginMessages = {
  unexpected: catalogue.loginUnexpected,
  noSession: catalogue.loginNoSession,
} as const;

/** A sign-in that failed; `message` is what the login form shows. */
export class LoginError extends Error {
  override readonly name = 'LoginError';
}

/** Signed in fine, but the account is no admin; the session has been ended again. */
export class NotAdminError extends Error {
  override readonly name = 'NotAdminError';
  constructor() {
    super('not an admin');
  }
}

export function isAdminSession(session: Session | null): session is Session {
  return session?.user.app_metadata.role === 'admin';
}

/**
 * Signs in with e-mail and password and returns the admin session. `captchaToken`: the Turnstile
 * widget's token, which Supabase Auth's CAPTCHA protection asks for where the operator set it up.
 */
export async function signInAsAdmin(email: string, password: string, captchaToken?: string): Promise<Session> {
  let result: Awaited<ReturnType<ReturnType<typeof getSupabase>['auth']['signInWithPassword']>>;
  try {
    result = await getSupabase().auth.signInWithPassword({ email, password, ...(captchaToken ? { options: { captchaToken } } : {}) });
  } catch {
    throw new LoginError(loginMessages.unexpected);
  }
  const { data, error } = result;
  // The server's own message when it answered (wrong password, locked account…); anything else
  // (no connection, an unreadable answer) is unexpected for the person signing in.
  if (error) {
    // supabase-js reports an answer without session or user as this error.
    if (error instanceof AuthInvalidTokenResponseError) throw new LoginError(loginMessages.noSession);
    throw new LoginError(isAuthApiError(error) && error.message.trim() !== '' ? error.message : loginMessages.unexpected);
  }
  // The types promise a session without an error; the seed's check stays for servers that differ.
  const session = data.session as Session | null;
  if (!session) throw new LoginError(loginMessages.noSession);
  if (!isAdminSession(session)) {
    await getSupabase().auth.signOut({ scope: 'local' });
    throw new NotAdminError();
  }
  return session;
}

export async function currentSession(): Promise<Session | null> {
  const { data } = await getSupabase().auth.getSession();
  return data.session;
}

/** Calls back with every session change (sign-in, refresh, sign-out, another tab); returns the unsubscribe. */
export function onSessionChange(callback: (session: Session | null) => void): () => void {
  const { data } = getSupabase().auth.onAuthStateChange((_event, session) => callback(session));
  return () => data.subscription.unsubscribe();
}

/** Ends this browser's session only; the operator stays signed in on other devices. */
export async function signOut(): Promise<void> {
  await getSupabase().auth.signOut({ scope: 'local' });
}
