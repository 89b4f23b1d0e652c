/**
 * npm run dev: Vite's dev server with hot reload (PORT, default 5173) and the local
 * Supabase-compatible stack, in one process.
 */
import { createServer } from 'vite';
import { runLocalStack } from '../supabase/local/main';
import { offerStarterKnowledge } from './starterKnowledge';

async function main() {
  const closeStack = await runLocalStack();
  await offerStarterKnowledge();
  const vite = await createServer({ root: new URL('..', import.meta.url).pathname });
  await vite.listen();
  vite.printUrls();
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void Promise.all([vite.close(), closeStack()]).then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
