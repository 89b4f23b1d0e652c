/**
 * The operator's build-time values, already validated and defaulted by vite.config.ts (see
 * envSchema.ts), so the browser bundle only reads them.
 */
export const env = {
  VITE_SITE_URL: import.meta.env.VITE_SITE_URL,
  VITE_BOOKING_URL: import.meta.env.VITE_BOOKING_URL,
  VITE_CONTACT_EMAIL: import.meta.env.VITE_CONTACT_EMAIL,
  VITE_CONTACT_PHONE: import.meta.env.VITE_CONTACT_PHONE,
  VITE_SUPABASE_URL: import.meta.env.VITE_SUPABASE_URL,
  VITE_SUPABASE_ANON_KEY: import.meta.env.VITE_SUPABASE_ANON_KEY,
  /** Cloudflare Turnstile's site key: set, visitors pass the human check before the coach answers. */
  VITE_TURNSTILE_SITE_KEY: import.meta.env.VITE_TURNSTILE_SITE_KEY,
} as const;
