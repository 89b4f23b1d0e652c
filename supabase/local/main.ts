/**
 * `npm run supabase:local`: the local Supabase-compatible stack on its own. `npm start` and
 * `npm run dev` start the same stack next to the website.
 */
import { configFromEnv } from './config';
import { startLocalStack, PortInUseError, RemoteBindError } from './server';

export async function runLocalStack(): Promise<() => Promise<void>> {
  const config = configFromEnv();
  const stack = await startLocalStack(config);
  console.log(`Supabase (local): ${stack.url}  (data: ${config.dataDir ?? 'in memory'})`);
  console.log(`Admin login:      ${config.adminEmail} / ${config.adminPassword}  (local only)`);
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
      console.error(error instanceof PortInUseError || error instanceof RemoteBindError ? error.message : error);
      process.exit(1);
    });
}
