import * as z from 'zod/mini';

/**
 * The few build-time values an operator sets (see .env.example). vite.config.ts parses them once
 * when the build or the dev server starts, so a bad value fails early with a message that names
 * the variable, and zod never ships to the browser.
 */
const schema = z.object({
  VITE_SITE_URL: z._default(z.url(), 'https://www.example.com'),
  VITE_BOOKING_URL: z._default(z.url(), 'https://booking.example.com/rueckruf'),
  VITE_CONTACT_EMAIL: z._default(z.email(), 'kontakt@example.com'),
  VITE_CONTACT_PHONE: z._default(z.string(), '+49 30 123456789'),
  // The Supabase project the browser talks to; by default the local stack (npm start / dev),
  // whose port parseEnv fills in from SUPABASE_LOCAL_PORT.
  VITE_SUPABASE_URL: z.url(),
  // The public anon key (row level security is the guard); by default the local stack's key.
  VITE_SUPABASE_ANON_KEY: z._default(
    z.string().check(z.regex(/^[\w-]+\.[\w-]+\.[\w-]+$/, 'must be a JWT (the project\'s anon key)')),
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0',
  ),
  // Cloudflare Turnstile's public site key: set, the coach serves only visitors who passed the
  // human check (and Supabase Auth's CAPTCHA protection needs its secret). Unset: no check.
  VITE_TURNSTILE_SITE_KEY: z._default(z.string().check(z.regex(/^[\w-]*$/, 'must be a Turnstile site key')), ''),
});

export type Env = z.infer<typeof schema>;

export function parseEnv(source: Record<string, unknown>): Env {
  const cleaned: Record<string, unknown> = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== '' && value !== undefined),
  );
  const localPort = typeof cleaned.SUPABASE_LOCAL_PORT === 'string' ? cleaned.SUPABASE_LOCAL_PORT : '54321';
  cleaned.VITE_SUPABASE_URL ??= `http://127.0.0.1:${localPort}`;
  delete cleaned.SUPABASE_LOCAL_PORT;
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const problems = result.error.issues
      .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
      .join('; ');
    throw new Error(`Invalid environment configuration (see .env.example): ${problems}`);
  }
  return result.data;
}

