/**
 * Whom the coach's calls (coach, tts, stt) are made as. Without Turnstile: the project's public
 * anon key, as always. With it (VITE_TURNSTILE_SITE_KEY), the functions serve only a visitor with
 * a session: the page signs in anonymously through supabase-js with the token of the Turnstile
 * widget (`auth.signInAnonymously({ options: { captchaToken } })`; Supabase Auth checks the token
 * with Cloudflare) and sends that session's access token, refreshed by supabase-js as it expires.
 * The calls wait for the widget's token; supabase-js is loaded only then.
 */
import { env } from '../config/env';
import { turnstileSiteKey } from './turnstile';

/** The visitor could not be signed in (the check failed or Supabase Auth refused). */
export class VisitorSessionError extends Error {
  override readonly name = 'VisitorSessionError';
}

let waiting: { promise: Promise<string>; resolve: (token: string) => void; reject: (error: Error) => void } | null = null;
let signingIn: Promise<string> | null = null;

function captchaToken(): Promise<string> {
  if (!waiting) {
    let resolve: (token: string) => void = () => undefined;
    let reject: (error: Error) => void = () => undefined;
    const promise = new Promise<string>((done, fail) => {
      resolve = done;
      reject = fail;
    });
    waiting = { promise, resolve, reject };
  }
  return waiting.promise;
}

/** The widget's token: the calls waiting for a session go on with it. */
export function provideCaptchaToken(token: string): void {
  const current = waiting;
  if (current) current.resolve(token);
  else waiting = { promise: Promise.resolve(token), resolve: () => undefined, reject: () => undefined };
}

/** The widget failed (not loaded, the check refused): the calls waiting for a session fail. */
export function failCaptcha(reason: string): void {
  const current = waiting;
  waiting = null;
  current?.reject(new VisitorSessionError(`human check failed: ${reason}`));
}

async function signIn(): Promise<string> {
  const { getSupabase } = await import('./supabase');
  const auth = getSupabase().auth;
  const { data: stored } = await auth.getSession();
  if (stored.session) return stored.session.access_token;
  const captcha = await captchaToken();
  // A token is good for one sign-in; the next one needs the widget again.
  waiting = null;
  const { data, error } = await auth.signInAnonymously({ options: { captchaToken: captcha } });
  if (error || !data.session) throw new VisitorSessionError(error?.message ?? 'no session');
  return data.session.access_token;
}

/** The bearer token for the coach's calls (see the module comment). */
export async function visitorToken(): Promise<string> {
  if (turnstileSiteKey() === null) return env.VITE_SUPABASE_ANON_KEY;
  // The stored session (refreshed by supabase-js), once signed in; one sign-in for all calls before.
  if (signingIn === null) {
    signingIn = signIn().finally(() => {
      signingIn = null;
    });
  }
  return signingIn;
}
