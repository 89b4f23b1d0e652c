/**
 * Admin fixtures over the real local stack: users made with the service key through the auth
 * admin API (cleaned up afterwards), an admin signed in by putting a real session where supabase-js
 * keeps it, and a service client for checking what the database holds.
 */
import { createClient, type Session, type SupabaseClient } from '@supabase/supabase-js';
import type { Page } from '@playwright/test';
import WebSocket from 'ws';
import type { Database } from '../../src/types/database';
import { LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY, DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD } from '../../supabase/local/config';
import { stackUrl } from './env';
import { test as base } from './fixtures';

export const ADMIN = { email: DEFAULT_ADMIN_EMAIL, password: DEFAULT_ADMIN_PASSWORD };
export const LOGIN_PATH = '/admin/dashboard-login';
export const DASHBOARD_PATH = '/admin/master-dashboard';
export const KNOWLEDGE_TAB = `${DASHBOARD_PATH}?tab=knowledge`;

/** Where supabase-js keeps the session: `sb-<first label of the host>-auth-token`. */
export const sessionStorageKey = `sb-${new URL(stackUrl).hostname.split('.')[0] ?? ''}-auth-token`;

/** The error the admin area logs for a failure a test provokes on purpose, e.g. adminFailure('delete failed'). */
export function adminFailure(what: string): RegExp {
  return new RegExp(`^error: \\[admin\\] ${what}`);
}

export function nodeClient(key: string): SupabaseClient<Database> {
  return createClient<Database>(stackUrl, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  });
}

export async function passwordSession(email: string, password: string): Promise<Session> {
  const { data, error } = await nodeClient(LOCAL_ANON_KEY).auth.signInWithPassword({ email, password });
  if (error) throw error;
  return data.session;
}

interface AdminFixtures {
  /** Service-role client (bypasses row level security) for arranging and checking data. */
  service: SupabaseClient<Database>;
  /** Creates a user (an admin with `admin: true`); removed after the test. */
  createUser: (options?: { admin?: boolean }) => Promise<{ email: string; password: string; id: string }>;
  /** Signs the page's browser in as the local admin before the app loads. */
  loginAsAdmin: (page?: Page) => Promise<Session>;
}

export const test = base.extend<AdminFixtures>({
  // Playwright reads a fixture's dependencies from its first parameter's pattern; this one has none.
  // eslint-disable-next-line no-empty-pattern
  service: async ({}, use) => {
    await use(nodeClient(LOCAL_SERVICE_ROLE_KEY));
  },
  createUser: async ({ service }, use, testInfo) => {
    const created: string[] = [];
    await use(async ({ admin = false } = {}) => {
      const email = `user-${String(testInfo.workerIndex)}-${String(Date.now())}-${String(created.length)}@example.com`;
      const password = 'e2e-password-123';
      const { data, error } = await service.auth.admin.createUser({
        email,
        password,
        email_confirm: true,
        app_metadata: admin ? { role: 'admin' } : {},
      });
      if (error) throw error;
      created.push(data.user.id);
      return { email, password, id: data.user.id };
    });
    for (const id of created) await service.auth.admin.deleteUser(id);
  },
  loginAsAdmin: async ({ page }, use) => {
    await use(async (target = page) => {
      const session = await passwordSession(ADMIN.email, ADMIN.password);
      await target.context().addInitScript(
        ([key, value]) => {
          // Init scripts run in every frame; sandboxed frames (axe-core's) have no storage.
          try {
            if (!window.localStorage.getItem(key)) window.localStorage.setItem(key, value);
          } catch {
            // not the app's frame
          }
        },
        [sessionStorageKey, JSON.stringify(session)] as const,
      );
      return session;
    });
  },
});

/** Puts PDFs into the knowledge tab's upload widget (FilePond's file input). */
export function uploadPdfs(page: Page, files: { name: string; bytes: Uint8Array }[]) {
  return page.locator('input.filepond--browser').setInputFiles(
    files.map(({ name, bytes }) => ({ name, mimeType: 'application/pdf', buffer: Buffer.from(bytes) })),
  );
}

/**
 * Removes the documents with exactly these titles, file and row: copies of the same PDF would
 * otherwise pile up and crowd the search results other tests look for their own passage in.
 */
export async function removeDocuments(service: SupabaseClient<Database>, titles: readonly string[]): Promise<void> {
  if (titles.length === 0) return;
  const { data } = await service.from('documents').select('id, storage_path').in('title', [...titles]);
  const documents = data ?? [];
  const paths = documents.flatMap((document) => (document.storage_path ? [document.storage_path] : []));
  if (paths.length > 0) await service.storage.from('document-uploads').remove(paths);
  if (documents.length > 0) await service.from('documents').delete().in('id', documents.map((document) => document.id));
}

/** A document's entry in 'Dokumentenverwaltung'. */
/** Whether a document's file is stored (the bucket is private: the service role looks). */
export async function fileStored(service: SupabaseClient<Database>, storagePath: string | null | undefined): Promise<boolean> {
  if (!storagePath) return false;
  const { data } = await service.storage.from('document-uploads').download(storagePath);
  return data !== null;
}

export const documentRow = (page: Page, title: string) => page.locator('li[data-document-id]', { hasText: title });

/** A file name no other test uses, so parallel tests sharing the database do not see each other's rows. */
export const uniqueName = (base: string, testId: string) => `${base}-${testId.slice(0, 8)}-${String(Date.now())}.pdf`;

export { expect, text, gotoHydrated } from './fixtures';
