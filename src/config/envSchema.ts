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
});

export type Env = z.infer<typeof schema>;

export function parseEnv(source: Record<string, unknown>): Env {
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== '' && value !== undefined),
  );
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const problems = result.error.issues
      .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
      .join('; ');
    throw new Error(`Invalid environment configuration (see .env.example): ${problems}`);
  }
  return result.data;
}

