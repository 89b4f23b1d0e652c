/** npm run schema:dump: writes supabase/schema.sql, the schema after every migration (scripts/schemaDump.ts). */
import { readFile, writeFile } from 'node:fs/promises';
import { relative } from 'node:path';

import { currentSchema, schemaFilePath } from './schemaDump';

const schema = await currentSchema();
const previous = await readFile(schemaFilePath, 'utf8').catch(() => null);
const name = relative(process.cwd(), schemaFilePath);
if (previous === schema) {
  console.log(`${name} is up to date.`);
} else {
  await writeFile(schemaFilePath, schema);
  console.log(`Wrote ${name}.`);
}
