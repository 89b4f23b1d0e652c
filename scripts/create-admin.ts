/**
 * npm run admin:create -- <email> [password]
 * Creates an admin (app_metadata.role = 'admin', settable only with the service key) or makes an
 * existing user one. Talks to SUPABASE_URL with SUPABASE_SERVICE_ROLE_KEY (a real project), or to
 * the local stack with its well-known local key when they are not set. Without a password a
 * random one is generated and printed once.
 */
import { randomBytes } from 'node:crypto';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { DEFAULT_PORT, LOCAL_SERVICE_ROLE_KEY, loadEnvFiles } from '../supabase/local/config';

async function main() {
  const [email, given] = process.argv.slice(2);
  if (!email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    throw new Error('Usage: npm run admin:create -- <email> [password]');
  }
  const env = loadEnvFiles();
  const url = env.SUPABASE_URL ?? `http://127.0.0.1:${env.SUPABASE_LOCAL_PORT ?? String(DEFAULT_PORT)}`;
  const key = env.SUPABASE_SERVICE_ROLE_KEY ?? LOCAL_SERVICE_ROLE_KEY;
  const password = given ?? randomBytes(12).toString('base64url');
  // Node 20 has no global WebSocket; supabase-js wants a realtime transport even when unused.
  const admin = createClient(url, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  }).auth.admin;

  const created = await admin.createUser({ email, password, email_confirm: true, app_metadata: { role: 'admin' } });
  if (!created.error) {
    console.log(`Created admin ${email} on ${url}${given ? '' : ` with password ${password}`}`);
    return;
  }
  if (created.error.code !== 'email_exists') throw new Error(`Could not create ${email}: ${created.error.message}`);
  const { data, error } = await admin.listUsers({ perPage: 1000 });
  if (error) throw new Error(`Could not list users: ${error.message}`);
  const user = data.users.find((candidate) => candidate.email?.toLowerCase() === email.toLowerCase());
  if (!user) throw new Error(`${email} exists but could not be found.`);
  const updated = await admin.updateUserById(user.id, {
    app_metadata: { ...user.app_metadata, role: 'admin' },
    ...(given ? { password: given } : {}),
  });
  if (updated.error) throw new Error(`Could not update ${email}: ${updated.error.message}`);
  console.log(`${email} on ${url} is now an admin${given ? ' (password updated)' : ''}.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
