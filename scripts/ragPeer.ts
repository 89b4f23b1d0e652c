/**
 * The peer of `npm run bench:rag`: a well-known library's BM25 ranking exactly the passages the
 * product made, so that our search's figures stand beside what a library default does on the same
 * work. Not our code: `wink-bm25-text-search` 3.1 (BM25 with k1 1.2, b 0.75, its defaults) over
 * each passage's heading and text, German Snowball stemming from `snowball-stemmers`, PostgreSQL's
 * German stop words (below). The question goes in as the visitor typed it; a follow-up with the
 * previous question before it, the same text our search gets.
 *
 * A second peer adds compounds as the stronger baseline does: every word of four letters
 * or more that splits into known words (Debian's `wngerman` word list, /usr/share/dict/ngerman,
 * greedy longest known parts of at least four letters, a linking "s" allowed) has its parts
 * indexed beside it, on the passage and the question side.
 */
import { existsSync, readFileSync } from 'node:fs';

import { newStemmer } from 'snowball-stemmers';
import bm25 from 'wink-bm25-text-search';

/**
 * PostgreSQL's `german.stop` (tsearch_data; from the Snowball project, BSD-3-Clause), word for
 * word: the stop words the database's `german` configuration drops.
 */
export const GERMAN_STOP_WORDS: ReadonlySet<string> = new Set(
  `aber alle allem allen aller alles als also am an ander andere anderem anderen anderer anderes
anderm andern anderr anders auch auf aus bei bin bis bist da damit dann der den des dem die das
daß derselbe derselben denselben desselben demselben dieselbe dieselben dasselbe dazu dein deine
deinem deinen deiner deines denn derer dessen dich dir du dies diese diesem diesen dieser dieses
doch dort durch ein eine einem einen einer eines einig einige einigem einigen einiger einiges
einmal er ihn ihm es etwas euer eure eurem euren eurer eures für gegen gewesen hab habe haben hat
hatte hatten hier hin hinter ich mich mir ihr ihre ihrem ihren ihrer ihres euch im in indem ins
ist jede jedem jeden jeder jedes jene jenem jenen jener jenes jetzt kann kein keine keinem keinen
keiner keines können könnte machen man manche manchem manchen mancher manches mein meine meinem
meinen meiner meines mit muss musste nach nicht nichts noch nun nur ob oder ohne sehr sein seine
seinem seinen seiner seines selbst sich sie ihnen sind so solche solchem solchen solcher solches
soll sollte sondern sonst über um und uns unse unsem unsen unser unses unter viel vom von vor
während war waren warst was weg weil weiter welche welchem welchen welcher welches wenn werde
werden wie wieder will wir wird wirst wo wollen wollte würde würden zu zum zur zwar zwischen`.split(/\s+/u),
);

const stemmer = newStemmer('german');

/** The words of a text as the peer reads them: lower case, letters and digits. */
const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** A word list to split compounds by: every entry of four letters or more, lower case. */
export function loadWordList(path = '/usr/share/dict/ngerman'): ReadonlySet<string> {
  if (!existsSync(path)) throw new Error(`${path} is missing: apt-get install wngerman`);
  return new Set(
    readFileSync(path, 'utf8')
      .split('\n')
      .map((word) => word.trim().toLowerCase())
      .filter((word) => word.length >= 4 && /^\p{L}+$/u.test(word)),
  );
}

/** The known parts a word is made of (each of four letters or more, longest first), or null. */
export function compoundParts(word: string, known: ReadonlySet<string>, inner = false): string[] | null {
  if (inner && known.has(word)) return [word];
  for (let length = word.length - 4; length >= 4; length--) {
    const head = word.slice(0, length);
    if (!known.has(head)) continue;
    const rest = word.slice(length);
    for (const tail of rest.startsWith('s') && rest.length > 4 ? [rest, rest.slice(1)] : [rest]) {
      const parts = compoundParts(tail, known, true);
      if (parts !== null) return [head, ...parts];
    }
  }
  return null;
}

/** The peer's tokens of a text: words without stop words, stemmed; with `known`, compounds' parts beside them. */
export function peerTokens(text: string, known: ReadonlySet<string> | null = null): string[] {
  const tokens: string[] = [];
  for (const word of words(text)) {
    if (GERMAN_STOP_WORDS.has(word)) continue;
    tokens.push(stemmer.stem(word));
    const parts = known === null || word.length < 8 ? null : compoundParts(word, known);
    for (const part of parts ?? []) tokens.push(stemmer.stem(part));
  }
  return tokens;
}

export interface PeerPassage {
  heading: string;
  content: string;
}

/** A BM25 index over the passages; search() gives the indexes of the best `limit`, best first. */
export function createPeer(passages: readonly PeerPassage[], known: ReadonlySet<string> | null = null): { search(text: string, limit: number): number[] } {
  const engine = bm25();
  engine.defineConfig({ fldWeights: { text: 1 } });
  engine.definePrepTasks([(text) => peerTokens(text, known)]);
  passages.forEach((passage, index) => engine.addDoc({ text: `${passage.heading}\n${passage.content}` }, index));
  engine.consolidate();
  return { search: (text, limit) => engine.search(text, limit).map(([id]) => Number(id)) };
}
