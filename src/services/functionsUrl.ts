import { env } from '../config/env';

/**
 * The URL of one of the project's edge functions. Kept apart from supabase.ts so that the coach,
 * which talks to its functions over plain HTTP, does not pull the Supabase client into its chunk.
 */
export function functionUrl(name: string): string {
  return `${env.VITE_SUPABASE_URL.replace(/\/+$/, '')}/functions/v1/${name}`;
}
