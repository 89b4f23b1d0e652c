/**
 * npm start (after npm run build): the built site on PORT (default 4173) and the local
 * Supabase-compatible stack on SUPABASE_LOCAL_PORT (default 54321), in one process. Ctrl-C stops
 * both and closes the database cleanly.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { clientOnlyPrefixes } from '../src/config/routes';
import { runLocalStack } from '../supabase/local/main';
import { PortInUseError } from '../supabase/local/server';
import { createStaticServer } from './staticServer';
import { offerStarterKnowledge } from './starterKnowledge';

const dir = resolve(import.meta.dirname, '..', process.env.DIST_DIR ?? 'dist');
const port = Number(process.env.PORT ?? 4173);

async function main() {
  if (!existsSync(join(dir, 'index.html'))) {
    throw new Error(`No build found in ${dir}. Run \`npm run build\` first (npm start does both).`);
  }
  const closeStack = await runLocalStack();
  await offerStarterKnowledge();
  const site = createStaticServer({ dir, clientOnlyPrefixes });
  await new Promise<void>((done, fail) => {
    site.once('error', (error: NodeJS.ErrnoException) =>
      fail(error.code === 'EADDRINUSE' ? new Error(`Port ${String(port)} is already in use: set PORT to a free port, e.g. PORT=4174 npm start.`) : error),
    );
    site.listen(port, '127.0.0.1', done);
  });
  console.log(`Site:             http://localhost:${String(port)}`);
  console.log('Press Ctrl-C to stop.');

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    site.close();
    site.closeAllConnections();
    void closeStack().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof PortInUseError || error instanceof Error ? error.message : error);
  process.exit(1);
});
