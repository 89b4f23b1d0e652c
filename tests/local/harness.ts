/**
 * Starts the real local stack (in memory, on a free port) for a test file and gives supabase-js
 * clients talking to it over real HTTP and WebSocket. Node 20 has no global WebSocket, so the
 * realtime transport is `ws`, as the app's Node code uses it.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { Agent, fetch as undiciFetch } from 'undici';
import WebSocket from 'ws';
import type { Database } from '../../src/types/database';
import {
  configFromEnv,
  LOCAL_ANON_KEY,
  LOCAL_SERVICE_ROLE_KEY,
  type LocalStackConfig,
} from '../../supabase/local/config';
import { startLocalStack, type LocalStack } from '../../supabase/local/server';

export const ADMIN = { email: 'admin@example.com', password: 'admin12345' };

export interface Harness {
  stack: LocalStack;
  url: string;
  /** A fresh client with the anon key and its own session storage. */
  anon(): SupabaseClient<Database>;
  /** A client with the service key (bypasses row level security). */
  service(): SupabaseClient<Database>;
  /** A client signed in with e-mail and password. */
  signedIn(email: string, password: string): Promise<SupabaseClient<Database>>;
  /** Creates a user through the admin API (optionally an admin) and returns a signed-in client. */
  user(email: string, options?: { admin?: boolean; password?: string }): Promise<SupabaseClient<Database>>;
  close(): Promise<void>;
}

export function testConfig(overrides: Partial<LocalStackConfig> = {}): LocalStackConfig {
  return {
    ...configFromEnv({}),
    port: 0,
    dataDir: null,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
    functionEnv: {},
    ...overrides,
  };
}

export async function startHarness(overrides: Partial<LocalStackConfig> = {}): Promise<Harness> {
  const stack = await startLocalStack(testConfig(overrides));
  const clients: SupabaseClient<Database>[] = [];
  const make = (key: string) => {
    const client = createClient<Database>(stack.url, key, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
    });
    clients.push(client);
    return client;
  };
  const signedIn = async (email: string, password: string) => {
    const client = make(LOCAL_ANON_KEY);
    const { error } = await client.auth.signInWithPassword({ email, password });
    if (error) throw error;
    return client;
  };
  return {
    stack,
    url: stack.url,
    anon: () => make(LOCAL_ANON_KEY),
    service: () => make(LOCAL_SERVICE_ROLE_KEY),
    signedIn,
    async user(email, options = {}) {
      const password = options.password ?? 'password-123';
      const { error } = await make(LOCAL_SERVICE_ROLE_KEY).auth.admin.createUser({
        email,
        password,
        email_confirm: true,
        app_metadata: options.admin ? { role: 'admin' } : {},
      });
      if (error) throw error;
      return signedIn(email, password);
    },
    async close() {
      for (const client of clients) await client.removeAllChannels();
      await stack.close();
    },
  };
}

/**
 * A fetch whose connections leave from `address` (every 127.0.0.x is this machine), so a test can
 * act as several clients: the functions know a client by its connection's address, never by a
 * header it wrote. Close the agent with `close()` when done.
 */
export function clientAt(address: string): { fetch: typeof fetch; close: () => Promise<void> } {
  const agent = new Agent({ localAddress: address });
  const at = (input: string, init: RequestInit = {}) =>
    undiciFetch(input, {
      method: init.method,
      headers: init.headers as Record<string, string> | undefined,
      body: init.body as string | undefined,
      signal: init.signal,
      dispatcher: agent,
    });
  return { fetch: at as unknown as typeof fetch, close: () => agent.close() };
}

/** A document recorded and processed (COMPLETED, passages written) through the service role. */
export async function addCompletedDocument(harness: Harness, title: string, text: string): Promise<void> {
  const service = harness.service();
  const { data, error } = await service
    .from('documents')
    .insert({ title, type: 'PDF', url: `${harness.url}/storage/v1/object/public/document-uploads/${title}` })
    .select('id')
    .single();
  if (error) throw error;
  const ingested = await service.rpc('ingest_document_text', { document_id: data.id, text });
  if (ingested.error) throw ingested.error;
}
