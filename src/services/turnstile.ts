/**
 * Cloudflare Turnstile, the human check the operator may switch on (VITE_TURNSTILE_SITE_KEY in the
 * build; its secret in Supabase Auth's CAPTCHA protection and the functions' secrets). The widget's
 * script comes from Cloudflare (`challenges.cloudflare.com`, allowed by the CSP only in a build
 * with the site key) and is loaded on first use only: on the coach page when the visitor starts the
 * coach, on the admin login. Without a site key nothing here ever runs.
 */
import { env } from '../config/env';

/** The site key the build was made with, or null: no human check. */
export function turnstileSiteKey(): string | null {
  const key = env.VITE_TURNSTILE_SITE_KEY.trim();
  return key === '' ? null : key;
}

/** The part of Turnstile's explicit rendering API (`window.turnstile`) the site uses. */
export interface TurnstileApi {
  render(
    container: HTMLElement,
    options: {
      sitekey: string;
      callback: (token: string) => void;
      'error-callback'?: (code: string) => void;
      'expired-callback'?: () => void;
      language?: string;
      action?: string;
    },
  ): string | undefined;
  reset(widgetId?: string): void;
  remove(widgetId: string): void;
}

declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

export const TURNSTILE_SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';

let loading: Promise<TurnstileApi> | null = null;

/** Loads Cloudflare's script once and resolves with its API. */
export function loadTurnstile(): Promise<TurnstileApi> {
  loading ??= new Promise<TurnstileApi>((resolve, reject) => {
    if (window.turnstile) {
      resolve(window.turnstile);
      return;
    }
    const script = document.createElement('script');
    script.src = TURNSTILE_SCRIPT;
    script.async = true;
    script.onload = () => (window.turnstile ? resolve(window.turnstile) : reject(new Error('Turnstile did not start')));
    script.onerror = () => reject(new Error('Turnstile could not be loaded'));
    document.head.append(script);
  }).catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}
