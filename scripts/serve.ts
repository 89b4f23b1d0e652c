/** Serves dist/ on PORT (default 4173) the way the production static host does. */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { clientOnlyPrefixes } from '../src/config/routes';
import { createStaticServer } from './staticServer';

const dir = resolve(import.meta.dirname, '..', process.env.DIST_DIR ?? 'dist');
const port = Number(process.env.PORT ?? 4173);
const host = process.env.HOST ?? '127.0.0.1';

if (!existsSync(join(dir, 'index.html'))) {
  console.error(`No build found in ${dir}. Run \`npm run build\` first (npm start does both).`);
  process.exit(1);
}

const server = createStaticServer({ dir, clientOnlyPrefixes });
server.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EADDRINUSE') {
    console.error(`Port ${port} is already in use. Set PORT to another port, e.g. PORT=4174 npm start.`);
  } else {
    console.error(error.message);
  }
  process.exit(1);
});
server.listen(port, host, () => {
  console.log(`Site:  http://localhost:${port}`);
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
