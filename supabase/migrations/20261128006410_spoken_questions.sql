-- Questions as a speech recogniser writes them, and as people say them.
--
--   * Nouns of a question written in lower case: the search weighs a question's nouns more (they
--     name what it asks about) and a noun no passage holds most (the question is about something
--     the knowledge base does not know). A question typed as German is written shows its nouns by
--     their capital letter; one in lower case ("kann man da auch turnschuhe drin waschen") by the
--     word list private.noun_words (…_noun_words.sql): a word the list knows only as a noun is one,
--     and so is a compound of two such words that the list does not have ("deutschlandticket").
--   * A hyphenated word no passage holds ("Eco-Programm") is asked by its parts, which the parser
--     gives beside it ("eco", "programm"), as an unknown compound is (private.stand_ins()); it no
--     longer weighs as an unknown noun of its own.
--   * A verb as the question says it ("wartet", "zahlt", "abgesagt", "gewartet") also finds its
--     stem as the documents write it ("warten": wart, "absagen": absag): Snowball keeps the
--     endings -t, -et and -st and the ge- of a participle, which the infinitive does not have.
--   * Spoken forms of function words ("ham", "se", "n", "haste", "kannste") are question words.
--   * A number said as a word finds its digits ("zwei Wochen" – "2 Wochen", "einundfünfzig" – "51";
--     not the reverse: a number typed in digits, "Rückgabewert 3", is meant as the documents write
--     it), a code spoken digit by digit is joined ("e null neun" – "E09"), and a number word is no
--     compound's end ("acht" – "Weihnacht").
--
-- Whole definitions of private.search_terms(), private.term_query() and private.joined_codes(), as
-- …_search_current.sql and …_search_plans.sql wrote them otherwise.

-- Spoken forms of function words, as a recogniser writes them ("ham se n termin frei", "haste",
-- "kannste"): they ask, as "haben", "Sie", "ein", "hast du" do, and name nothing. Without them a
-- spoken question weighs each of them as a word the knowledge base does not know.
insert into private.question_words (lexeme)
select distinct v.lexeme
  from unnest(private.german_lexemes(
    'ham hamse habense se n nu haste hasse biste bisse kannste kanns willste weißte machste gehste gibste ' ||
    'musste sollte issn isser isse gehts klappts')) as v
on conflict (lexeme) do nothing;


-- A number written as a word, as its digits: "acht" – "8", "zwölf" – "12", "einundfünfzig" –
-- "51", "zweihundertfünfzig" – "250" (the lexeme as private.german_lexemes() makes it: "sieb",
-- "einundfunfz"); null for any other word.
create or replace function private.number_digits(word text)
returns text
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
declare
  -- 0 to 19 as lexemes, at their value + 1.
  small constant text[] := array['null', 'ein', 'zwei', 'drei', 'vier', 'funf', 'sech', 'sieb', 'acht', 'neun', 'zehn', 'elf',
                                 'zwolf', 'dreizehn', 'vierzehn', 'funfzehn', 'sechzehn', 'siebzehn', 'achtzehn', 'neunzehn'];
  -- A digit inside a compound, written out ("ein|und|fünfzig"), at its value + 1.
  digit constant text[] := array['', 'ein', 'zwei', 'drei', 'vier', 'funf', 'sechs', 'sieben', 'acht', 'neun'];
  -- The tens from twenty, at their value / 10.
  tens constant text[] := array['', 'zwanz', 'dreiss', 'vierz', 'funfz', 'sechz', 'siebz', 'achtz', 'neunz'];
  parts text[];
begin
  if array_position(small, word) is not null then
    return (array_position(small, word) - 1)::text;
  end if;
  parts := regexp_match(word, '^(?:(ein|zwei|drei|vier|funf|sechs|sieben|acht|neun)?(hundert))?(?:(ein|zwei|drei|vier|funf|sechs|sieben|acht|neun)und)?(zwanz|dreiss|vierz|funfz|sechz|siebz|achtz|neunz)?(?:ig)?$');
  if parts is null or (parts[2] is null and parts[4] is null) then
    return null;
  end if;
  return (coalesce(array_position(digit, parts[1]) - 1, case when parts[2] is null then 0 else 1 end) * 100
          + coalesce(array_position(digit, parts[3]) - 1, 0)
          + coalesce(array_position(tens, parts[4]) * 10, 0))::text;
end
$$;


-- Codes written apart: a visitor types or speaks "E 07", "E-07" or "e null sieben" for the code
-- "E07" of a manual's table. A word of one to three letters and a number after it (digits, or one
-- to four digits spoken as words), joined, when the knowledge base holds the code so joined;
-- parts: the lexemes of the pieces, which then say nothing on their own.
create or replace function private.joined_codes(question text)
returns table (lexeme text, parts text[])
language sql
stable
set search_path = ''
as $$
  with written as (
    select lower(m[1]) as head, m[2] as digits, array[lower(m[1]), m[2], '-' || m[2]] as parts
      from regexp_matches(left(coalesce(question, ''), 2000), '(?:^|[^[:alnum:]])([[:alpha:]]{1,3})(?: +|-)([0-9]{1,4})(?![[:alnum:]])', 'g') as m
    union all
    select lower(m[1]),
           (select string_agg(private.number_digits(v.lexeme), '' order by v.positions[1]) from unnest(private.german_lexemes(m[2])) as v),
           array[lower(m[1])] || (select array_agg(v.lexeme) from unnest(private.german_lexemes(m[2])) as v)
      from regexp_matches(lower(left(coalesce(question, ''), 2000)),
                          '(?:^|[^[:alnum:]])([[:alpha:]]{1,3})((?: +(?:null|eins|zwei|drei|vier|fünf|sechs|sieben|acht|neun)){1,4})(?![[:alnum:]])', 'g') as m
  )
  select distinct k.lexeme, w.parts
    from written w
    join private.knowledge_terms k on k.lexeme = w.head || w.digits
$$;


-- The question's terms: its words (and the previous user turn's, for a follow-up) through
-- private.german_lexemes() with its codes written apart joined (private.joined_codes()), at most
-- 20 of them, each replaced by what stands in for it
-- (private.stand_ins(): a slip by the word meant, a compound by its known parts), expanded
-- (private.term_query()) and weighted by how rare it is among all passages (BM25's idf).
--
-- A noun (a word written with a capital letter inside its sentence, as German writes nouns)
-- weighs noun_share times as much as another word as rare: a question's nouns name what it is
-- about ("Wie viel Wasser passt in den Tank?"), its verbs and adjectives are said in many ways. A
-- question with no capital inside its sentences (as a speech recogniser or a phone keyboard writes
-- it) has its nouns told by the word list private.noun_words: a word the list knows only as a noun
-- is one ("turnschuhe", "termin"; not "essen", "pause" or "nachts", which may be other words).
--
-- A word no passage holds says the question may be about something the knowledge base does not
-- know. It weighs as much as a word held by a single passage, times unknown_named when it is a
-- noun ("Wie wird das Wetter morgen?", "Was kostet ein Flug nach Mallorca?") and times
-- unknown_other for any other word (a verb or an adjective put differently from the document:
-- "Wie trenne ich Arbeit und Freizeit?").
-- A word that sets the scene (private.context_words: "bei der Arbeit", "im Sommer") weighs
-- scene_share of what it would: it places the question, it does not say what it asks.
create or replace function private.search_terms(question text, previous text default null)
returns setof private.search_term
language sql
stable
set search_path = ''
as $$
  with settings (noun_share, unknown_named, unknown_other, scene_share) as (
    values (1.5::real, 3.0::real, 1.0::real, 0.5::real)
  ),
  codes as (
    select c.lexeme, c.parts, c.n from private.joined_codes(question) with ordinality as c (lexeme, parts, n)
  ),
  raw as (
    select v.lexeme, v.positions[1] as position, false as from_previous
      from unnest(private.german_lexemes(left(coalesce(question, ''), 2000))) as v
    union all
    select v.lexeme, 100000 + v.positions[1], true
      from unnest(private.german_lexemes(left(coalesce(previous, ''), 2000))) as v
    union all
    -- Codes written apart, joined ("E 07" – "E07"), right after the question's own words.
    select c.lexeme, (1000 + c.n)::integer, false from codes c
  ),
  pieces as (
    -- The pieces of a joined code, which weigh nothing on their own.
    select distinct unnest(c.parts) as lexeme from codes c
  ),
  written as (
    -- Words with a capital letter that does not start a sentence: the nouns of a question typed
    -- as German is written.
    select v.lexeme
      from unnest(private.german_lexemes((
        select string_agg(m[1], ' ')
          from regexp_matches(left(coalesce(question, ''), 2000) || ' ' || left(coalesce(previous, ''), 2000),
                              '(?<=[^.!?:\s][\s„"(]{1,3})([[:upper:]][^\s.,!?;:“")]*)', 'g') as m
      ))) as v
  ),
  capitalised as (
    select w.lexeme from written w
    union
    -- A question whose capitals say nothing (none inside a sentence, as a recogniser or a phone
    -- keyboard writes it): the words the word list knows only as nouns, and compounds of two of
    -- them that it does not list ("deutschland|ticket", "tür|dichtung").
    select v.lexeme
      from unnest(private.german_lexemes((
        select string_agg(n.word, ' ')
          from regexp_matches(lower(left(coalesce(question, ''), 2000) || ' ' || left(coalesce(previous, ''), 2000)),
                              '[[:alpha:]]+', 'g') as m
          join lateral (
            select m[1] as word
             where exists (select from private.noun_words n where n.word = m[1])
                or (char_length(m[1]) >= 8 and exists (
                      select from generate_series(3, char_length(m[1]) - 4) as cut (at)
                       where exists (select from private.noun_words a where a.word = left(m[1], cut.at))
                         and exists (select from private.noun_words b where b.word = substr(m[1], cut.at + 1))))
          ) n on true
         where not exists (select from written)
      ))) as v
  ),
  words as (
    select distinct on (r.lexeme) r.lexeme, r.position, r.from_previous
      from raw r
     order by r.lexeme, r.from_previous, r.position
  ),
  limited as (
    select w.*,
           exists (select from private.question_words q where q.lexeme = w.lexeme)
             or (not w.from_previous and exists (select from pieces p where p.lexeme = w.lexeme))
             -- A hyphenated word no passage holds is asked by its parts ("Eco-Programm": eco, programm).
             or (w.lexeme like '%-%' and not exists (select from private.knowledge_terms k where k.lexeme = w.lexeme)) as asks,
           exists (select from private.context_words x where x.lexeme = w.lexeme) as scene,
           exists (select from capitalised c where c.lexeme = w.lexeme)
             and not exists (select from private.context_words x where x.lexeme = w.lexeme) as named
      from words w
     order by w.from_previous, w.position
     limit 20
  ),
  stood as (
    -- Question words are taken as they are; every other word through its stand-ins.
    select distinct on (f.form) f.form, l.position, l.from_previous, l.asks, l.scene, l.named
      from limited l
      cross join lateral unnest(case when l.asks then array[l.lexeme] else private.stand_ins(l.lexeme) end) as f (form)
     order by f.form, l.from_previous, l.position
  ),
  stats as (
    select greatest(coalesce((select s.passages from private.knowledge_stats s), 0), 1)::real as total
  )
  select st.form, st.position, st.from_previous, st.named, t.query,
         least(h.held, n.total::integer),
         t.related,
         case when st.asks then 0::real
              else (ln(1 + (n.total - greatest(least(h.held, n.total), 1) + 0.5) / (greatest(least(h.held, n.total), 1) + 0.5))
                    * case when st.scene then x.scene_share else 1 end
                    * case when st.named then x.noun_share else 1 end
                    * case when h.held > 0 then 1 when st.named then x.unknown_named else x.unknown_other end)::real
         end
    from stood st
    cross join lateral private.term_query(st.form) as t
    -- A word no passage holds but whose thesaurus synonyms some do is known by them.
    cross join lateral (select case when t.passages > 0 then t.passages else t.related_passages end as held) h
    cross join stats n
    cross join settings x
   order by st.from_previous, st.position, st.form
$$;


-- What a passage must hold to have a word: the word (as the beginning of a longer word too, for
-- words of five letters or more: "Pause" – "Pausenraum"), its synonyms likewise, and the
-- knowledge base's compounds ending in the word or a synonym ("Urlaub" – "Erholungsurlaub"; the
-- six held by most passages, for words of five letters or more). With how many passages hold any
-- of these, at most (a passage with two of them counts twice). related: for a word no passage
-- holds (and no synonym or compound of it), the lexemes of its thesaurus sets (private.thesaurus)
-- that passages hold, with how many passages hold them. A word the knowledge base has is taken as
-- the documents write it: its thesaurus sets mix senses and would pull in passages about another
-- one. A question word is no synonym ("Flasche" – "Kanne" is stemmed "kann", as "kann" is). A
-- verb in the form the question says it (a word that is no noun, ending in -t, -et or -st after a
-- consonant, or a participle with ge-) finds the stem without that ending when passages hold it:
-- "wartet" – "warten", "abgesagt" – "absagen".
create or replace function private.term_query(word text, out query tsquery, out passages integer,
                                              out related tsquery, out related_passages integer)
language sql
stable
set search_path = ''
as $$
  with spoken_number as (
    -- Most words are no number: only what starts like one is read as one.
    select case when word ~ '^(null|ein|zwei|zwanz|drei|vier|funf|sech|sieb|acht|neun|zehn|elf|zwolf|hundert)'
                then private.number_digits(word) end as digits
  ),
  forms as (
    select word as form
    union
    select s2.lexeme
      from private.synonyms s1
      join private.synonyms s2 on s2.grp = s1.grp and s2.lexeme <> s1.lexeme
     where s1.lexeme = word and not s1.evidence_only
    union
    -- A number spoken as a word, as the documents may write it: "acht" – "8", "einundfünfzig" – "51".
    select n.digits from spoken_number n where n.digits is not null
    union
    -- A verb as the question says it ("wartet", "abgesagt"): its stem as the documents write it
    -- ("warten": wart, "absagen": absag), when passages hold that stem; no noun ("Nacht" is no
    -- "nach").
    select k.lexeme
      from (select regexp_replace(regexp_replace(word, '^(ab|an|auf|aus|ein|mit|nach|vor|zu|zuruck|weg|um|)ge(.{3,})$', '\1\2'), '(?<=..)(est|et|st|t)$', '') as stem
             where word ~ '[^aeiouäöü](est|et|st|t)$' and char_length(word) >= 5
               and not exists (select from private.noun_words n where n.word = term_query.word)) v
      join private.knowledge_terms k on k.lexeme = v.stem
     where v.stem <> word and char_length(v.stem) >= 4
  ),
  quoted as (
    select f.form,
           format('''%s''', replace(replace(f.form, '\', '\\'), '''', '''''')) as literal,
           char_length(f.form) >= 4 and f.form !~ '[^[:alpha:]]' as as_prefix
      from forms f
  ),
  heads as (
    -- Compounds ending in the word itself (four letters or more: "Tank" – "Wassertank"; shorter
    -- ones end too many unrelated words: "Tag" – "Vertrag"). Not those of its synonyms: they end
    -- unrelated words as easily ("Urlaub" – "frei" – "gewaltfrei"), and the synonym table names
    -- the compounds that matter ("Sonderurlaub").
    select h.lexeme, h.passages
      from quoted q
      cross join lateral (
        select k.lexeme, k.passages
          from private.knowledge_terms k
         where q.form = word and char_length(q.form) >= 4 and q.form !~ '[^[:alpha:]]'
           -- No number: "acht" ends "Weihnacht" and "Beobacht(ung)".
           and not exists (select from spoken_number n where n.digits is not null)
           and k.reversed ~>=~ reverse(q.form) and k.reversed ~<~ (reverse(q.form) || chr(65535))
           -- A compound: at least three letters before the form ("Wasser|tank", not "G|reifen").
           and char_length(k.lexeme) >= char_length(q.form) + 3
           and not (q.as_prefix and left(k.lexeme, char_length(q.form)) = q.form)
         order by k.passages desc, k.lexeme
         limit 6
      ) h
  ),
  held as (
    select k.lexeme, k.passages
      from quoted q
      join private.knowledge_terms k
        on k.lexeme ~>=~ q.form and k.lexeme ~<~ (q.form || case when q.as_prefix then chr(65535) else chr(1) end)
    union
    select h.lexeme, h.passages from heads h
  ),
  thesaurus as (
    select distinct k.lexeme, k.passages
      from private.thesaurus t1
      join private.thesaurus t2 on t2.grp = t1.grp and t2.lexeme <> t1.lexeme
      join private.knowledge_terms k on k.lexeme = t2.lexeme
     where t1.lexeme = word
       and not exists (select from held h)
       and not exists (select from private.question_words q where q.lexeme = k.lexeme)
  )
  select (
           select string_agg(p.literal, ' | ')
             from (
               select q.literal || case when q.as_prefix then ':*' else '' end as literal from quoted q
               union all
               select format('''%s''', replace(replace(h.lexeme, '\', '\\'), '''', '''''')) from heads h
             ) p
         )::tsquery,
         coalesce((select sum(held.passages) from held), 0)::integer,
         (select string_agg(format('''%s''', replace(replace(t.lexeme, '\', '\\'), '''', '''''')), ' | ') from thesaurus t)::tsquery,
         coalesce((select sum(t.passages) from thesaurus t), 0)::integer
$$;

revoke execute on function private.number_digits(text) from public, anon;
grant execute on function private.number_digits(text) to authenticated, service_role;
