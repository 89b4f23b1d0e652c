/**
 * `npm run supabase:local`: the local Supabase-compatible stack on its own. `npm start` and
 * `npm run dev` start the same stack next to the website.
 */
import { findUserByEmail } from './auth/users';
import { configFromEnv, type LocalStackConfig } from './config';
import { UnknownMigrationsError } from './database';
import { verifyPassword } from './passwords';
import { startLocalStack, PortInUseError, RemoteBindError } from './server';

export async function runLocalStack(config: LocalStackConfig = configFromEnv()): Promise<() => Promise<void>> {
  const stack = await startLocalStack(config);
  console.log(`Supabase (local): ${stack.url}  (data: ${config.dataDir ?? 'in memory'})`);
  // An admin who changed the password (`npm run admin:create`, the dashboard) keeps it: the
  // configured one is shown only while it still signs in.
  const admin = await findUserByEmail(stack.db, config.adminEmail);
  const current = await verifyPassword(config.adminPassword, admin?.encrypted_password ?? null);
  console.log(
    current
      ? `Admin login:      ${config.adminEmail} / ${config.adminPassword}  (local only)`
      : `Admin login:      ${config.adminEmail} (password changed since; ADMIN_PASSWORD no longer signs in)`,
  );
  return () => stack.close();
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  runLocalStack()
    .then((close) => {
      let closing = false;
      const stop = () => {
        if (closing) return;
        closing = true;
        void close().then(() => process.exit(0));
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    })
    .catch((error: unknown) => {
      console.error(
        error instanceof PortInUseError || error instanceof RemoteBindError || error instanceof UnknownMigrationsError ? error.message : error,
      );
      process.exit(1);
    });
}
