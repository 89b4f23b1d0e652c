/**
 * Writes supabase/migrations/20261126000410_thesaurus.sql: the German synonym sets the search
 * matches a question's words by (private.thesaurus, created by the migration it writes), derived from
 * OpenThesaurus (https://www.openthesaurus.de, LGPL 2.1) as Debian's `mythes-de` package ships it
 * (/usr/share/mythes/th_de_DE_v2.dat). Only the development machine needs the package; the
 * migration carries the result.
 *
 * From every synonym set of the thesaurus it keeps:
 *   - single words (letters, inner hyphens), with their annotations ("(ugs.)", "(sich)") dropped;
 *   - no broader or narrower terms ("(Oberbegriff)", "(Unterbegriff)": a "Hund" is an "Tier", not
 *     the same), no figurative, archaic, vulgar or ironic uses (they match unrelated senses);
 *   - each word as the database stems it (private.german_lexemes(), the longest lexeme of a
 *     hyphenated word, as the passages hold it), stop words dropped;
 *   - sets of two to MAX_SET lexemes: bigger ones mix senses and stop being synonyms.
 *
 * `npx tsx scripts/thesaurus.ts [path to th_de_DE_v2.dat]`
 *
 * The migration is released (tests/db/migrations.test.ts keeps its checksum), so the script
 * reproduces it as it is; a newer thesaurus goes out as a new migration that empties
 * private.thesaurus and inserts the new sets.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { openDatabase } from '../supabase/local/database';

/** The largest synonym set kept, counted in distinct lexemes. */
export const MAX_SET = 8;

const SOURCE = process.argv[2] ?? '/usr/share/mythes/th_de_DE_v2.dat';
const TARGET = join(import.meta.dirname, '..', 'supabase', 'migrations', '20261126000410_thesaurus.sql');

/** Annotations that mark a word as no synonym of the set (a broader or narrower term) or as a sense apart. */
const DROPPED = /\((?:[^)]*\b)?(?:Oberbegriff|Unterbegriff|fig\.|veraltet|veraltend|derb|vulg\.|historisch|Spruch|ironisch|abwertend|scherzhaft)\b[^)]*\)/u;
const SINGLE_WORD = /^\p{L}+(?:-\p{L}+)*$/u;

function synonymSets(data: string): string[][] {
  const seen = new Set<string>();
  const sets: string[][] = [];
  for (const line of data.split('\n')) {
    // A set's line starts with its part of speech ("-" or "(adj)"), then the words, "|" between them.
    if (!/^(?:-|\([^)]*\))\|/u.test(line)) continue;
    const words = line
      .split('|')
      .slice(1)
      .filter((entry) => !DROPPED.test(entry))
      .map((entry) => entry.replace(/\([^)]*\)/gu, '').trim())
      .filter((entry) => SINGLE_WORD.test(entry));
    const unique = [...new Set(words)].sort();
    const key = unique.join('|');
    if (unique.length < 2 || seen.has(key)) continue;
    seen.add(key);
    sets.push(unique);
  }
  return sets;
}

async function main(): Promise<void> {
  const sets = synonymSets(await readFile(SOURCE, 'utf8'));
  const words = [...new Set(sets.flat())];
  const db = await openDatabase();
  const lexemes = new Map<string, string>();
  for (let start = 0; start < words.length; start += 2000) {
    const batch = words.slice(start, start + 2000);
    const { rows } = await db.query<{ word: string; lexeme: string | null }>(
      `select w as word,
              (select v.lexeme from unnest(private.german_lexemes(w)) as v order by char_length(v.lexeme) desc, v.lexeme limit 1) as lexeme
         from unnest($1::text[]) as w`,
      [batch],
    );
    for (const row of rows) if (row.lexeme) lexemes.set(row.word, row.lexeme);
  }
  await db.close();

  const seen = new Set<string>();
  const lines: string[] = [];
  for (const set of sets) {
    const stems = [...new Set(set.map((word) => lexemes.get(word)).filter((lexeme): lexeme is string => lexeme !== undefined))].sort();
    if (stems.length < 2 || stems.length > MAX_SET) continue;
    const line = stems.join(' ');
    if (seen.has(line)) continue;
    seen.add(line);
    lines.push(line);
  }
  lines.sort();

  const quoted = lines.map((line) => `('${line.replaceAll("'", "''")}')`);
  const sql = `-- German synonym sets for the knowledge search (private.thesaurus, see …_search_current.sql).
--
-- Source: OpenThesaurus (https://www.openthesaurus.de), © the OpenThesaurus contributors, licensed
-- under the GNU Lesser General Public License 2.1 (LGPL), as Debian's mythes-de package ships it.
-- Derived by scripts/thesaurus.ts: single words only, broader and narrower terms and figurative,
-- archaic or vulgar uses dropped, each word stemmed by private.german_lexemes(), sets of 2 to
-- ${MAX_SET} lexemes. Do not edit by hand: run the script again.
--
-- ${lines.length} sets, one per line, lexemes separated by spaces.

-- The table: synonym sets of single words as lexemes. A passage that holds only a word's thesaurus
-- synonym has the word at private.thesaurus_share() of its weight (see private.lexical_candidates()
-- in …_search_current.sql): a set mixes senses, the word itself is surer.
create table if not exists private.thesaurus (
  grp integer not null,
  lexeme text not null,
  primary key (grp, lexeme)
);
create index if not exists thesaurus_lexeme_idx on private.thesaurus (lexeme);
comment on table private.thesaurus is
  'German synonym sets as lexemes (OpenThesaurus, LGPL 2.1; scripts/thesaurus.ts); a word finds the other lexemes of its sets at a lower weight.';
revoke all on private.thesaurus from public, anon, authenticated;
grant select on private.thesaurus to authenticated, service_role;

insert into private.thesaurus (grp, lexeme)
select s.grp, w.lexeme
  from (select row_number() over ()::integer as grp, v.words
          from (values
${quoted.join(',\n')}
               ) as v (words)) s
 cross join lateral (select distinct x as lexeme from regexp_split_to_table(s.words, ' ') as x) w;

analyze private.thesaurus;
`;
  await writeFile(TARGET, sql);
  console.log(`${sets.length} sets in the thesaurus, ${lines.length} kept, ${lexemes.size} words stemmed -> ${TARGET}`);
}

await main();
