/**
 * The start of a list entry has one source, supabase/functions/_shared/listEntry.ts (the PDF
 * extraction and the offline coach take it from there); the database's functions
 * (…_documents.sql: private.is_entry_line(), private.is_heading_line(),
 * private.document_passages()) restate it in Postgres' syntax. These tests hold the two equal: a
 * bullet added on one side only fails here.
 */
import { describe, expect, it } from 'vitest';

import {
  bulletOrOptionStart,
  entryStart,
  LIST_BULLETS,
  postgresBulletOrOptionStart,
  postgresEntryStart,
} from '../../supabase/functions/_shared/listEntry';
import { useDatabase } from './fixtures';

const fixture = useDatabase();

/** The database's functions (as they are after every migration) whose source writes a list bullet. */
async function functionsWritingBullets(): Promise<{ name: string; source: string }[]> {
  const result = await fixture.db.query<{ name: string; source: string }>(
    `select n.nspname || '.' || p.proname as name, p.prosrc as source
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where p.prosrc like '%' || $1 || '%' order by 1`,
    [LIST_BULLETS],
  );
  return result.rows;
}

const isEntryLine = async (line: string): Promise<boolean> =>
  (await fixture.db.query<{ entry: boolean }>('select private.is_entry_line($1) as entry', [line])).rows[0]?.entry ?? false;

describe('the list-entry pattern in the database', () => {
  it('is written only as the shared module writes it', async () => {
    const functions = await functionsWritingBullets();
    expect(functions.map(({ name }) => name)).toEqual(['private.document_passages', 'private.is_entry_line', 'private.is_heading_line']);
    for (const { name, source } of functions) {
      // Every bullet class in the function is part of one of the shared patterns.
      const rest = source.replaceAll(postgresEntryStart, '').replaceAll(postgresBulletOrOptionStart, '');
      expect(rest.includes(LIST_BULLETS), name).toBe(false);
    }
    const sources = Object.fromEntries(functions.map(({ name, source }) => [name, source]));
    expect(sources['private.is_entry_line']).toContain(`'${postgresEntryStart}'`);
    expect(sources['private.is_heading_line']).toContain(`'${postgresBulletOrOptionStart}'`);
    expect(sources['private.document_passages']).toContain(`'${postgresEntryStart}'`);
  });

  it.each(Array.from(LIST_BULLETS))('reads a line bulleted with %j as an entry, as the extraction does', async (bullet) => {
    const line = `${bullet} Eigene Hochzeit`;
    expect(entryStart.test(line)).toBe(true);
    expect(bulletOrOptionStart.test(line)).toBe(true);
    expect(await isEntryLine(line)).toBe(true);
  });

  it.each([
    ['1. Ziel einhängen.', true],
    ['12) Abmelden', true],
    ['b) Mit Nachweis', true],
    ['-r, --rekursiv', true],
    ['--probelauf', true],
    ['-Ü', true],
    ['123. Zeile', false],
    ['B) Großbuchstabe', false],
    ['+ Plus', false],
    ['→ Pfeil', false],
    ['•Ohne Leerzeichen', false],
    ['E-Mail nach Feierabend', false],
    ['2.1 Beenden', false],
  ])('reads %j as an entry: %s, in the database and in the browser alike', async (line, expected) => {
    expect(entryStart.test(line)).toBe(expected);
    expect(await isEntryLine(line)).toBe(expected);
  });
});
