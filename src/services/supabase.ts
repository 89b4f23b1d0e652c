/**
 * The one Supabase client of the browser, typed with the database schema. It is created on first
 * use, so modules that import it can load during prerendering without touching the browser's
 * storage; only the admin area uses it (the coach talks to its functions over plain HTTP).
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { env } from '../config/env';
import type { Database } from '../types/database';

let client: SupabaseClient<Database> | null = null;

export function getSupabase(): SupabaseClient<Database> {
  client ??= createClient<Database>(env.VITE_SUPABASE_URL, env.VITE_SUPABASE_ANON_KEY, {
    auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: false },
  });
  return client;
}

