/**
 * Settings of the local Supabase-compatible stack. The JWT secret and the two keys are the
 * Supabase CLI's well-known local demo values (public, local only), so `.env.example` works
 * unchanged against `supabase start` too. Never use them for a real project.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { captchaSecret } from './auth/captcha';

export const LOCAL_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';
export const LOCAL_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';
export const LOCAL_SERVICE_ROLE_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU';

export const DEFAULT_PORT = 54321;
export const DEFAULT_ADMIN_EMAIL = 'admin@example.com';
export const DEFAULT_ADMIN_PASSWORD = 'admin12345';

/** The repository root (two levels above this file). */
export const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/**
 * Reads KEY=VALUE lines from .env and .env.local (later files win, the process environment wins
 * over both), the way Vite and the Supabase CLI read them. Quotes around values are removed.
 */
export function loadEnvFiles(dir: string = repoRoot, base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const name of ['.env', '.env.local']) {
    const path = join(dir, name);
    if (!existsSync(path)) continue;
    for (const line of readFileSync(path, 'utf8').split(/\r?\n/)) {
      const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
      if (!match?.[1] || line.trimStart().startsWith('#')) continue;
      merged[match[1]] = (match[2] ?? '').replace(/^(['"])(.*)\1$/, '$2');
    }
  }
  for (const [key, value] of Object.entries(base)) if (value !== undefined) merged[key] = value;
  return merged;
}

export interface LocalStackConfig {
  port: number;
  host: string;
  /** Where PGlite and stored files live; null keeps everything in memory (tests). */
  dataDir: string | null;
  jwtSecret: string;
  anonKey: string;
  serviceRoleKey: string;
  /** Lifetime of access tokens in seconds (GoTrue's default is one hour). */
  jwtExpiry: number;
  adminEmail: string;
  adminPassword: string;
  /** Largest request body accepted, in bytes (uploads are limited by the bucket on top). */
  maxBodyBytes: number;
  /** Environment handed to the edge functions (provider keys, model, base URLs). */
  functionEnv: Record<string, string>;
  /** Folder of the edge functions (`<name>/handler.ts`); default `<repo>/supabase/functions`. */
  functionsDir?: string;
  /**
   * Binding to an address other than loopback: its keys are public demo values, so the stack
   * refuses unless this is set (SUPABASE_LOCAL_ALLOW_REMOTE=1).
   */
  allowRemote?: boolean;
  /**
   * Failed password sign-ins per address and per e-mail address: `burst` at once, then
   * `perFiveMinutes` (GoTrue's /token limiter: 30, and GOTRUE_RATE_LIMIT_TOKEN_REFRESH = 150).
   */
  signInRateLimit?: { perFiveMinutes: number; burst: number };
  /**
   * Supabase Auth's CAPTCHA protection with Cloudflare Turnstile (TURNSTILE_SECRET_KEY): one of
   * Cloudflare's test secrets, since the stack never calls out (auth/captcha.ts); null when unset.
   * Set, it also opens anonymous sign-ins and makes the spending functions require a session.
   */
  captchaSecret?: string | null;
  /** Anonymous sign-ins per hour and address (config.toml `[auth.rate_limit] anonymous_users`). */
  anonymousSignInsPerHour?: number;
  /**
   * Told of every request once its response has been sent or cut off (a bench's timeline of the
   * stack's work; never set by `npm start`); a request whose client left before the service
   * answered is not reported. Times are wall-clock milliseconds
   * (`performance.timeOrigin + performance.now()`), comparable with a page's on the same machine.
   */
  observeRequests?: (timing: RequestTiming) => void;
}

/** One request to the stack, as `observeRequests` hears of it. */
export interface RequestTiming {
  method: string;
  /** The path without its query. */
  path: string;
  status: number;
  /** Its request line and headers have been read. */
  receivedAt: number;
  /** The service has its response (status and headers; a stream's body may still follow). */
  answeredAt: number;
  /** The response's last byte has been handed to the connection, or the connection was closed. */
  finishedAt: number;
  /** Whether the whole response was sent (false: the client left before its end). */
  complete: boolean;
}

/** Whether `host` only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/u.test(host);
}

function intFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0 || parsed > 65_535) {
    throw new Error(`${name} must be a port number (1–65535), got "${value}".`);
  }
  return parsed;
}

/** The stack's configuration from the environment (.env, .env.local, process), validated once. */
export function configFromEnv(env: Record<string, string> = loadEnvFiles()): LocalStackConfig {
  const dataDir = env.SUPABASE_LOCAL_DATA_DIR ?? join(repoRoot, '.supabase-local');
  return {
    port: intFrom(env.SUPABASE_LOCAL_PORT, DEFAULT_PORT, 'SUPABASE_LOCAL_PORT'),
    host: env.SUPABASE_LOCAL_HOST ?? '127.0.0.1',
    dataDir: dataDir === ':memory:' ? null : resolve(dataDir),
    jwtSecret: LOCAL_JWT_SECRET,
    anonKey: LOCAL_ANON_KEY,
    serviceRoleKey: LOCAL_SERVICE_ROLE_KEY,
    jwtExpiry: 3600,
    adminEmail: env.ADMIN_EMAIL ?? DEFAULT_ADMIN_EMAIL,
    adminPassword: env.ADMIN_PASSWORD ?? DEFAULT_ADMIN_PASSWORD,
    maxBodyBytes: 25 * 1024 * 1024,
    functionEnv: env,
    allowRemote: env.SUPABASE_LOCAL_ALLOW_REMOTE === '1',
    captchaSecret: captchaSecret(env.TURNSTILE_SECRET_KEY),
  };
}
