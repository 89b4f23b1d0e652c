import { readFile } from 'node:fs/promises';

import { expect, it } from 'vitest';

import { currentSchema, schemaFilePath, staleSchemaMessage } from '../../scripts/schemaDump';

// A cold template cache (a fresh machine) migrates from scratch twice over.
it('supabase/schema.sql is the schema the migrations make', { timeout: 120_000 }, async () => {
  const expected = await currentSchema();
  const onDisk = await readFile(schemaFilePath, 'utf8').catch(() => null);
  if (onDisk !== expected) expect.fail(staleSchemaMessage(onDisk, expected));
});
