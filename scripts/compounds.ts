/**
 * Writes supabase/migrations/20261128001100_compound_words.sql: the German words a compound's parts
 * are looked up in (private.compound_words, see private.compound_parts() in …_compounds.sql),
 * derived from Debian's `wngerman` word list (/usr/share/dict/ngerman; igerman98 by Björn Jacke,
 * GPL-2.0-or-later). Only the development machine needs the package; the migration carries the
 * result.
 *
 * From the word list it keeps:
 *   - words of four letters or more, letters only (no abbreviations, no hyphenated words);
 *   - only words that are no compound themselves: a word made of two or more words of the list
 *     (each of four letters or more, greedy longest first, a linking "s" allowed: "Urlaub|s|tage")
 *     is split by its parts, so it needs no entry of its own;
 *   - each word as the database stems it (private.german_lexemes(), as passages and questions are
 *     stemmed), stop words dropped, every lexeme once.
 *
 * `npx tsx scripts/compounds.ts [path to the word list]`
 *
 * Once released (tests/db/migrations.test.ts keeps its checksum), the script reproduces it as it
 * is; a newer word list goes out as a new migration that empties private.compound_words, inserts
 * the new words and stores every passage's words again.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { openDatabase } from '../supabase/local/database';
import { compoundParts } from './ragPeer';

const SOURCE = process.argv[2] ?? '/usr/share/dict/ngerman';
const TARGET = join(import.meta.dirname, '..', 'supabase', 'migrations', '20261128001100_compound_words.sql');

async function main(): Promise<void> {
  const words = (await readFile(SOURCE, 'utf8'))
    .split('\n')
    .map((word) => word.trim())
    .filter((word) => word.length >= 4 && /^\p{L}+$/u.test(word));
  const known = new Set(words.map((word) => word.toLowerCase()));
  const simple = [...known].filter((word) => compoundParts(word, known) === null);

  const db = await openDatabase();
  const lexemes = new Set<string>();
  for (let start = 0; start < simple.length; start += 5000) {
    const { rows } = await db.query<{ lexeme: string }>(
      'select distinct v.lexeme from unnest($1::text[]) as w, unnest(private.german_lexemes(w)) as v',
      [simple.slice(start, start + 5000)],
    );
    for (const row of rows) lexemes.add(row.lexeme);
  }
  await db.close();

  const sorted = [...lexemes].filter((lexeme) => /^\p{L}+$/u.test(lexeme)).sort();
  const lines: string[] = [];
  for (let start = 0; start < sorted.length; start += 12) lines.push(sorted.slice(start, start + 12).join(' '));
  const sql = `-- The German words a compound's parts are looked up in (private.compound_words; the splitting is
-- private.compound_parts() in …_compounds.sql).
--
-- Source: Debian's wngerman word list (igerman98, © 1999-2016 Björn Jacke, GNU General Public
-- License 2.0 or later). Derived by scripts/compounds.ts: words of four letters or more, letters
-- only, no word that is itself made of two words of the list, each stemmed by
-- private.german_lexemes(). Do not edit by hand: run the script again.
--
-- ${String(sorted.length)} lexemes of ${String(simple.length)} of the list's ${String(known.size)} words, twelve to a line.

create table private.compound_words (lexeme text primary key);
comment on table private.compound_words is
  'German words as lexemes (wngerman, GPL-2.0-or-later; scripts/compounds.ts): the parts a compound is split into.';
revoke all on private.compound_words from public, anon, authenticated;
grant select on private.compound_words to authenticated, service_role;

insert into private.compound_words (lexeme)
select distinct x
  from (values
${lines.map((line) => `('${line}')`).join(',\n')}
       ) as v (words)
 cross join lateral regexp_split_to_table(v.words, ' ') as x;

analyze private.compound_words;
`;
  await writeFile(TARGET, sql);
  console.log(`${String(known.size)} words, ${String(simple.length)} no compound, ${String(sorted.length)} lexemes -> ${TARGET}`);
}

await main();
