/**
 * `npm run supabase:local`: the local Supabase-compatible stack on its own. `npm start` and
 * `npm run dev` start the same stack next to the website.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TurnstileSecretError } from './auth/captcha';
import { findUserByEmail } from './auth/users';
import { configFromEnv, repoRoot, type LocalStackConfig } from './config';
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
  if (config.captchaSecret) console.log('Human check:      Turnstile (Cloudflare test secret): visitors sign in anonymously with a captcha token');
  for (const line of await budgetProblems(config)) console.warn(`Budget:           ${line}`);
  return () => stack.close();
}

/**
 * What the spending functions will report at their first request, said at start: budgets that
 * cannot hold what a new visitor needs first (supabase/functions/_shared/budgetFit.ts, loaded by
 * path like the functions themselves).
 */
async function budgetProblems(config: LocalStackConfig): Promise<string[]> {
  const file = join(config.functionsDir ?? join(repoRoot, 'supabase', 'functions'), '_shared', 'budgetFit.ts');
  const module: unknown = await import(pathToFileURL(file).href);
  const lines = typeof module === 'object' && module !== null ? (module as { budgetProblemLines?: unknown }).budgetProblemLines : undefined;
  if (typeof lines !== 'function') return [];
  const result: unknown = (lines as (env: Record<string, string>) => unknown)(config.functionEnv);
  return Array.isArray(result) ? result.filter((line): line is string => typeof line === 'string') : [];
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
        error instanceof PortInUseError ||
          error instanceof RemoteBindError ||
          error instanceof UnknownMigrationsError ||
          error instanceof TurnstileSecretError
          ? error.message
          : error,
      );
      process.exit(1);
    });
}
