/** npm run reset: wipes the local stack's data folder (database and stored files). */
import { existsSync, rmSync } from 'node:fs';
import { configFromEnv } from '../supabase/local/config';

const { dataDir } = configFromEnv();
if (dataDir === null) {
  console.log('The local stack is configured to run in memory: nothing to reset.');
} else if (existsSync(dataDir)) {
  rmSync(dataDir, { recursive: true, force: true });
  console.log(`Removed ${dataDir}. The next start applies the migrations and the seed afresh.`);
} else {
  console.log(`Nothing to reset: ${dataDir} does not exist.`);
}
