/**
 * Writes supabase/migrations/20261128006400_noun_words.sql: the German words that are only ever
 * nouns (private.noun_words), so that the search can tell the nouns of a question typed or spoken
 * in lower case ("kann man da auch turnschuhe drin waschen"), derived from Debian's `wngerman` word
 * list (/usr/share/dict/ngerman; igerman98 by Björn Jacke, GPL-2.0-or-later). Only the development
 * machine needs the package; the migration carries the result.
 *
 * A spell checker's list writes a word with a capital letter only when it is always written so: a
 * noun or a name ("Turnschuhe", "Termin", "Hamburg"). A word that may also be written in lower case
 * is listed in lower case ("essen" for "essen" and "Essen", "pause", "nachts"): no sure noun. So
 * the list's capitalised entries, in lower case, are the surface forms that are nouns whatever the
 * sentence: letters only, three or more of them.
 *
 * `npx tsx scripts/nounWords.ts [path to the word list]`
 *
 * Once released (tests/db/migrations.test.ts keeps its checksum), the script reproduces it as it
 * is; a newer word list goes out as a new migration that empties private.noun_words and inserts the
 * new words.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const SOURCE = process.argv[2] ?? '/usr/share/dict/ngerman';
const TARGET = join(import.meta.dirname, '..', 'supabase', 'migrations', '20261128006400_noun_words.sql');

async function main(): Promise<void> {
  const entries = (await readFile(SOURCE, 'utf8')).split('\n').map((word) => word.trim());
  const lowerCase = new Set(entries.filter((word) => /^\p{Ll}/u.test(word)));
  const nouns = [
    ...new Set(
      entries.filter((word) => /^\p{Lu}\p{Ll}{2,}$/u.test(word)).map((word) => word.toLowerCase()).filter((word) => !lowerCase.has(word)),
    ),
  ].sort();

  const lines: string[] = [];
  for (let start = 0; start < nouns.length; start += 16) lines.push(nouns.slice(start, start + 16).join(' '));
  const sql = `-- The German words that are only ever nouns (private.noun_words): how the search tells the nouns
-- of a question typed or spoken in lower case (private.search_terms() in …_spoken_nouns.sql).
--
-- Source: Debian's wngerman word list (igerman98, © 1999-2016 Björn Jacke, GNU General Public
-- License 2.0 or later). Derived by scripts/nounWords.ts: the list's entries written with a capital
-- letter (a spell checker's list writes a word so only when it is always written so), in lower
-- case, letters only, three or more. Do not edit by hand: run the script again.
--
-- ${String(nouns.length)} words, sixteen to a line.

create table private.noun_words (word text primary key);
comment on table private.noun_words is
  'German words that are only ever nouns, in lower case (wngerman, GPL-2.0-or-later; scripts/nounWords.ts): the nouns of a question written in lower case.';
revoke all on private.noun_words from public, anon, authenticated;
grant select on private.noun_words to authenticated, service_role;

insert into private.noun_words (word)
select distinct x
  from (values
${lines.map((line) => `('${line}')`).join(',\n')}
       ) as v (words)
 cross join lateral regexp_split_to_table(v.words, ' ') as x;

analyze private.noun_words;
`;
  await writeFile(TARGET, sql);
  console.log(`${String(entries.length)} entries, ${String(nouns.length)} nouns -> ${TARGET}`);
}

await main();
