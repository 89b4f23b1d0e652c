/**
 * The question's terms (…_search_current.sql, …_spoken_questions.sql): private.search_terms() with
 * what stands in for a word no passage holds (private.stand_ins()), what a passage must hold to have
 * a word (private.term_query(): prefixes, synonyms, compounds, verb forms, numbers) and how much each
 * term weighs.
 */
import { beforeAll, describe, expect, it } from 'vitest';

import { actors, insertDocument, run, useDatabase } from './fixtures';

const fixture = useDatabase();

interface Term extends Record<string, unknown> {
  lexeme: string;
  position: number;
  from_previous: boolean;
  named: boolean;
  query: string;
  passages: number;
  weight: number;
}

const handbook = [
  'Sonderurlaub',
  'Sonderurlaub gibt es für:\nEigene Hochzeit\t2 Arbeitstage\nUmzug mit eigenem Haushalt\t1 Arbeitstag',
  'Erholungsurlaub',
  'Der Erholungsurlaub beträgt 30 Arbeitstage im Jahr.',
  'Dienstreisen',
  'Für Fahrten mit dem eigenen Auto gilt eine Kilometerpauschale von 0,30 Euro.',
].join('\n\n');
const manual = [
  'Wassertank',
  'Der Wassertank fasst 1,8 Liter. Greifen Sie nicht in das Mahlwerk. Die Kanne spülen Sie von Hand. ' +
    'Am Anfang jedes Monats, zu Beginn der Reinigung, leeren Sie die Schale.',
  'Mindestens einmal im Monat entkalken. Zeigt die Anzeige E07, ist das Mahlwerk blockiert.',
].join('\n\n');
const prices = 'Preise\n\nKurs\tPreis\nAchtsamkeitskurs\t340 Euro\nStressbewältigung\t240 Euro';

async function ingest(title: string, text: string): Promise<void> {
  const id = await insertDocument(fixture.db, { title });
  await run(fixture.db, actors.admin, 'select public.ingest_document_text($1, $2)', [id, text]);
}

const terms = async (question: string, previous: string | null = null): Promise<Term[]> =>
  run<Term>(fixture.db, actors.service, 'select lexeme, position, from_previous, named, query::text as query, passages, weight from private.search_terms($1, $2)', [
    question,
    previous,
  ]);

const standIns = async (word: string): Promise<string[]> => {
  const [row] = await run<{ forms: string[] }>(fixture.db, actors.service, 'select private.stand_ins($1) as forms', [word]);
  return row?.forms ?? [];
};

interface TermQuery extends Record<string, unknown> {
  query: string;
  passages: number;
  related: string | null;
  related_passages: number;
}

const termQuery = async (word: string): Promise<TermQuery> => {
  const [row] = await run<TermQuery>(
    fixture.db,
    actors.service,
    'select t.query::text as query, t.passages, t.related::text as related, t.related_passages from private.term_query($1) t',
    [word],
  );
  return row ?? { query: '', passages: -1, related: null, related_passages: -1 };
};

const lexeme = async (word: string): Promise<string> => {
  const [row] = await run<{ lexeme: string }>(fixture.db, actors.service, 'select v.lexeme from unnest(private.german_lexemes($1)) v', [word]);
  return row?.lexeme ?? '';
};

beforeAll(async () => {
  await ingest('handbuch.pdf', handbook);
  await ingest('anleitung.pdf', manual);
  await ingest('preise.pdf', prices);
});

describe('private.stand_ins', () => {
  it('keeps a word passages hold, also as the beginning of a longer word', async () => {
    expect(await standIns('hochzeit')).toEqual(['hochzeit']);
    expect(await standIns('wass')).toEqual(['wass']);
  });

  it('takes a slip of seven letters or more for the word of the knowledge base or the synonym table it misses', async () => {
    expect(await standIns(await lexeme('Achtsamkeitskurz'))).toEqual([await lexeme('Achtsamkeitskurs')]);
    // "Urlaubstage" is in no passage, but in the synonym table (with "Sonderurlaub").
    expect(await standIns(await lexeme('Urlaubtage'))).toEqual([await lexeme('Urlaubstage')]);
    // Shorter words are too often another word.
    expect(await standIns(await lexeme('gewonnen'))).toEqual([await lexeme('gewonnen')]);
  });

  it('splits a compound into its two parts when passages hold both, and only then', async () => {
    expect(await standIns(await lexeme('Hochzeitsumzug'))).toEqual([await lexeme('Hochzeit'), await lexeme('Umzug')]);
    expect(await standIns(await lexeme('Mindestlohn'))).toEqual([await lexeme('Mindestlohn')]);
    expect(await standIns(await lexeme('Paarberatung'))).toEqual([await lexeme('Paarberatung')]);
  });
});

describe('private.term_query', () => {
  it('matches words of four letters or more as the beginning of longer words', async () => {
    expect((await termQuery('auto')).query).toContain("'auto':*");
    expect((await termQuery('eur')).query).toBe("'eur'");
  });

  it('matches a word\'s synonyms, and evidence words only in one direction', async () => {
    const wedding = await termQuery(await lexeme('heiraten'));
    expect(wedding.query).toContain("'hochzeit':*");
    expect(wedding.passages).toBe(1);
    expect((await termQuery(await lexeme('teuer'))).query).toContain("'euro':*");
    expect((await termQuery('euro')).query).not.toContain("'teu'");
  });

  it('matches compounds ending in the word, never a word that merely ends in its letters', async () => {
    expect((await termQuery('urlaub')).query).toContain("'erholungsurlaub'");
    expect((await termQuery('tank')).query).toContain("'wassertank'");
    // "Greifen" ends in "reif" but is no compound of it.
    expect((await termQuery('reif')).query).not.toContain('greif');
  });

  it('looks a word no passage holds up in the thesaurus, and a word passages hold not', async () => {
    // OpenThesaurus: "PKW" – "Auto", "Automobil", "Personenwagen" …; "Auto" is in the handbook.
    const car = await termQuery('pkw');
    expect(car).toMatchObject({ passages: 0, related: "'auto'", related_passages: 1 });
    expect((await termQuery('auto')).related).toBeNull();
    // "Anfang" is held: the document says it so, its synonym "Beginn" (in the same passage) is not added.
    expect((await termQuery('anfang')).related).toBeNull();
    // A word with no synonym the knowledge base holds stays unknown.
    expect(await termQuery(await lexeme('Kraftfahrzeug'))).toMatchObject({ passages: 0, related: null, related_passages: 0 });
  });

  it('weighs a word known only by its thesaurus synonyms as they are weighed, and credits a passage with them at 0.6', async () => {
    const [car] = await terms('PKW');
    const [auto] = await terms('Auto');
    expect(car).toMatchObject({ lexeme: 'pkw', passages: 1 });
    expect(car?.weight).toBeCloseTo(auto?.weight ?? 0, 5);
    const best = async (question: string) => {
      const [row] = await run<{ score: number }>(
        fixture.db,
        actors.service,
        'select max(l.score) as score from private.lexical_candidates(array(select t from private.search_terms($1) t), 5, 0) l',
        [question],
      );
      return row?.score ?? 0;
    };
    expect(await best('Auto')).toBeCloseTo(1, 5);
    expect(await best('PKW')).toBeCloseTo(0.6, 5);
  });

  it('takes no question word of the thesaurus for a synonym', async () => {
    // OpenThesaurus has "Kanne" for "Flasche", stemmed "kann" as the question word "kann" is.
    expect((await termQuery(await lexeme('Flasche'))).related).toBeNull();
  });

  it('finds the stem of a verb in the form the question says it, and no noun\'s', async () => {
    // "Die Kanne spülen Sie von Hand": "spült", "gespült" find "spülen".
    expect((await termQuery(await lexeme('spült'))).query).toContain("'spul'");
    expect((await termQuery(await lexeme('gespült'))).query).toContain("'spul'");
    expect((await termQuery(await lexeme('Monat'))).query).not.toContain("'mona'");
  });

  it('finds the digits of a number said as a word, not the reverse', async () => {
    expect((await termQuery('acht')).query).toContain("'8'");
    expect((await termQuery(await lexeme('einundfünfzig'))).query).toContain("'51'");
    expect((await termQuery(await lexeme('zwanzig'))).query).toContain("'20'");
    expect((await termQuery('8')).query).toBe("'8'");
    const digits = async (word: string) =>
      (await run<{ digits: string | null }>(fixture.db, actors.service, 'select private.number_digits($1) as digits', [word]))[0]?.digits;
    expect(await digits(await lexeme('zwölf'))).toBe('12');
    expect(await digits(await lexeme('zweihundertfünfzig'))).toBe('250');
    expect(await digits(await lexeme('dreißig'))).toBe('30');
    expect(await digits(await lexeme('Hund'))).toBeNull();
  });

  it('counts the passages holding any of it', async () => {
    expect((await termQuery(await lexeme('Arbeitstag'))).passages).toBe(2);
    expect((await termQuery('gibtsnicht')).passages).toBe(0);
  });
});

describe('private.search_terms', () => {
  it('gives question words no weight and rarer words more', async () => {
    const found = await terms('Wie viele Arbeitstage bekomme ich für die Hochzeit?');
    const weight = (word: string) => found.find((term) => term.lexeme === word)?.weight;
    expect(weight(await lexeme('viele'))).toBe(0);
    expect(weight(await lexeme('bekomme'))).toBe(0);
    expect(weight(await lexeme('Hochzeit'))).toBeGreaterThan(weight(await lexeme('Arbeitstage')) ?? Number.POSITIVE_INFINITY);
  });

  it('weighs a noun half again as much as another word as rare', async () => {
    const noun = (await terms('Was kostet die Hochzeit?')).find((term) => term.lexeme === 'hochzeit');
    const word = (await terms('Was kostet es, wenn ich Dich heirate?')).find((term) => term.lexeme === 'heirat');
    expect(noun).toMatchObject({ passages: 1, named: true });
    expect(word).toMatchObject({ passages: 1, named: false });
    expect(noun?.weight).toBeCloseTo(1.5 * (word?.weight ?? 0), 4);
  });

  it('tells the nouns of a question without capitals inside its sentences by the word list', async () => {
    // As a speech recogniser writes it, or a phone keyboard that capitalises only the first word.
    for (const question of ['was kostet die hochzeit', 'Was kostet die hochzeit']) {
      expect((await terms(question)).find((term) => term.lexeme === 'hochzeit'), question).toMatchObject({ named: true });
    }
    // A word the list knows as another word too is no sure noun ("Pause", "pausen").
    expect((await terms('wie lange geht die pause')).find((term) => term.lexeme === 'paus')).toMatchObject({ named: false });
    // Where the question writes nouns with capitals, its lower-case words are no nouns.
    expect((await terms('Was kostet die Hochzeit und der umzug')).find((term) => term.lexeme === 'umzug')).toMatchObject({ named: false });
    // An unknown noun said in lower case weighs as one typed with its capital.
    const shoes = (await terms('kann man da auch turnschuhe drin waschen')).find((term) => term.lexeme === 'turnschuh');
    const typed = (await terms('Kann man da auch Turnschuhe drin waschen?')).find((term) => term.lexeme === 'turnschuh');
    expect(shoes).toMatchObject({ passages: 0, named: true });
    expect(shoes?.weight).toBeCloseTo(typed?.weight ?? 0, 4);
    // A compound of two nouns the list does not have is one too; a word that only ends in a noun not.
    expect((await terms('zahlt die firma das deutschlandticket')).find((term) => term.lexeme === 'deutschlandticket')).toMatchObject({ named: true });
    expect((await terms('kann ich die abstottern')).find((term) => term.lexeme === 'abstott')).toMatchObject({ named: false });
  });

  it('gives spoken forms of function words no weight', async () => {
    const found = await terms('ham se n termin frei haste ne idee');
    for (const word of ['ham', 'se', 'n', 'hast']) expect(found.find((term) => term.lexeme === word)?.weight, word).toBe(0);
  });

  it('asks a hyphenated word no passage holds by its parts', async () => {
    const found = await terms('Wie lange dauert die Wassertank-Reinigung?');
    expect(found.find((term) => term.lexeme === 'wassertank-rein')?.weight).toBe(0);
    expect(found.find((term) => term.lexeme === 'wassertank')?.weight).toBeGreaterThan(0);
  });

  it('weighs an unknown noun as the topic the knowledge base does not know, a scene-setting word and a lower-case question not', async () => {
    // "Hochzeit" is in one passage: an unknown word weighs as much, an unknown noun three times.
    const wedding = await terms('Was kostet die Hochzeit auf Mallorca?');
    const mallorca = wedding.find((term) => term.lexeme === 'mallorca');
    const hochzeit = wedding.find((term) => term.lexeme === 'hochzeit');
    expect(hochzeit).toMatchObject({ passages: 1, named: true });
    expect(mallorca).toMatchObject({ passages: 0, named: true });
    expect(mallorca?.weight).toBeCloseTo(3 * (hochzeit?.weight ?? 0), 4);
    // A season sets the scene (half the weight, not the topic); a question typed in lower case
    // says nothing about its nouns.
    const single = (await terms('Was kostet es, wenn ich Dich heirate?')).find((term) => term.lexeme === 'heirat')?.weight ?? 0;
    const summer = (await terms('Ich heirate im Sommer')).find((term) => term.lexeme === 'somm');
    expect(summer).toMatchObject({ named: false, passages: 0 });
    expect(summer?.weight).toBeCloseTo(0.5 * single, 4);
    // A word no passage holds that may be no noun ("gewonnen") weighs as a word of one passage.
    const won = (await terms('wer hat gewonnen')).find((term) => term.lexeme === 'gewonn');
    expect(won).toMatchObject({ named: false, passages: 0 });
    expect(won?.weight).toBeCloseTo(single, 4);
  });

  it('puts a follow-up\'s own terms first and marks the previous turn\'s', async () => {
    const found = await terms('Und was kostet der?', 'Gibt es einen Achtsamkeitskurs?');
    expect(found.filter((term) => term.weight > 0).map((term) => [term.lexeme, term.from_previous])).toEqual([
      ['kostet', false],
      [await lexeme('Achtsamkeitskurs'), true],
    ]);
  });

  it('reads "davon", "dazu", "dafür" … as pointing back to the previous turn, not as words of their own', async () => {
    for (const followUp of ['Und wie viele davon?', 'Was gibt es dazu?', 'Und dafür?', 'Wie ist es darüber?', 'Und wie viel hiervon?']) {
      const found = await terms(followUp, 'Wie viel Erholungsurlaub habe ich?');
      expect(found.filter((term) => term.weight > 0 && !term.from_previous), followUp).toEqual([]);
    }
    // A follow-up that only points back finds what the previous turn asked about.
    const [first] = await run<{ content: string }>(fixture.db, actors.service, 'select content from public.search_knowledge($1, 5, $2)', [
      'Und wie viele davon?',
      'Wie viel Erholungsurlaub habe ich im Jahr?',
    ]);
    expect(first?.content).toContain('Der Erholungsurlaub beträgt 30 Arbeitstage');
  });

  it('joins a code written apart when the knowledge base holds it joined, and only then', async () => {
    for (const question of ['Die Maschine blinkt mit E 07', 'Die Maschine blinkt mit e-07']) {
      const found = await terms(question);
      expect(found.find((term) => term.lexeme === 'e07')).toMatchObject({ from_previous: false, passages: 1 });
      expect(found.find((term) => term.lexeme === 'e07')?.weight).toBeGreaterThan(0);
      // Its pieces say nothing on their own.
      const pieces = found.filter((term) => ['e', '07', '-07'].includes(term.lexeme));
      expect(pieces.length).toBeGreaterThan(0);
      expect(pieces.every((term) => term.weight === 0)).toBe(true);
    }
    // Spoken digit by digit.
    const spoken = await terms('die maschine blinkt mit e null sieben');
    expect(spoken.find((term) => term.lexeme === 'e07')?.weight).toBeGreaterThan(0);
    expect(spoken.filter((term) => ['e', 'null', 'sieb'].includes(term.lexeme)).every((term) => term.weight === 0)).toBe(true);
    // A code the knowledge base does not hold stays as it was typed.
    const other = await terms('Die Maschine blinkt mit E 08');
    expect(other.map((term) => term.lexeme)).not.toContain('e08');
    expect(other.find((term) => term.lexeme === '08')?.weight).toBeGreaterThan(0);
  });

  it('takes at most twenty words and nothing of an empty question', async () => {
    expect(await terms(Array.from({ length: 40 }, (_, i) => `Wort${String.fromCharCode(97 + (i % 26))}${String(i)}`).join(' '))).toHaveLength(20);
    expect(await terms('')).toEqual([]);
  });
});
