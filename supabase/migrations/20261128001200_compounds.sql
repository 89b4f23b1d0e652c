-- Compounds as German needs them: a passage that says "Ratenzahlung" holds "Raten" and "Zahlung"
-- too, so "in Raten zahlen" finds it; a question's compound the passages do not hold is searched
-- by its parts. One splitting for both sides, in the database's text processing:
--
--   private.compound_suffixes()       endings that make words, no compound ends in them
--   private.compound_fronts(fragments)  the known words a compound's first parts stand for
--   private.compound_splits(lexemes)  the compounds among lexemes and the known parts of each
--                                     (private.compound_words, …_compound_words.sql, from the
--                                     wngerman word list); compound_parts(lexeme) for one
--   private.passage_lexemes(source)   a text's lexemes (private.german_lexemes()) and its
--                                     compounds' parts beside them: what passages and titles store
--
-- A question's compound that no passage holds is searched by its parts (private.stand_ins()), and
-- the evidence names the compounds a part was found in (private.passage_evidence()).
--
-- Every passage and title is stored again with its parts (the generated columns are written anew)
-- and the word counts the search weighs by are counted again.


-- Endings that make words rather than end compounds: "Herr|schaft", "Sitz|ung" are no compounds
-- of "Schaft" or "Ung", although the word list has them.
create or replace function private.compound_suffixes()
returns text[]
language sql
immutable
parallel safe
set search_path = ''
as $$
  select array['ung', 'aft', 'schaft', 'haft', 'heit', 'keit', 'lich', 'ling', 'los', 'nis', 'sam', 'tum', 'bar', 'isch', 'chen', 'lein', 'ig', 'er', 'ei', 'tor', 'ion']
$$;


-- The known words a compound stands for where it is cut: for the first part (and a middle one),
-- the fragment as it is, without a linking element ("Urlaub|s|tage", "Raten|zahlung"), or its stem
-- ("Kündigungs|frist": "kundig"), the first of these that private.compound_words knows; exact when
-- it is the fragment as it is. One row per cut that gives a known word.
create or replace function private.compound_fronts(fragments text[])
returns table (fragment text, lexeme text, exact boolean)
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
begin
  return query
      select k.fragment, k.lexeme, k.lexeme = k.fragment
        from (
          -- Each looked up by itself (an index probe), the stemmer only when the others are not known.
          select f.fragment,
                 coalesce(
                   (select c.lexeme from private.compound_words c where c.lexeme = f.fragment),
                   (select c.lexeme from private.compound_words c where c.lexeme = regexp_replace(f.fragment, '(?:s|es|n|en|e|er|ens|ns)$', '')),
                   (select c.lexeme from private.compound_words c
                     where c.lexeme = (ts_lexize('pg_catalog.german_stem'::regdictionary, f.fragment))[1]),
                   (select c.lexeme from private.compound_words c
                     where c.lexeme = (ts_lexize('pg_catalog.german_stem'::regdictionary,
                                                 regexp_replace(f.fragment, '(?:s|es|n|en|e|er|ens|ns)$', '')))[1])
                 ) as lexeme
            from (select distinct x as fragment from unnest(fragments) as x) f
        ) k
       where k.lexeme is not null;
end
$$;


-- The compounds among lexemes (seven letters or more) and the known parts each is made of, first
-- part first. The rest after the first part is a known word of three letters or more (lexemes are
-- stemmed already: "urlaubstag": urlaub, tag) and no word-forming ending. Of the cuts into a known
-- first part of four letters or more and that rest, the one whose first part is a word as it
-- stands ("schlaf|stor", not "schlafs|tor"), then the longest first part ("stornogebuhr": storno,
-- gebuhr; "ratenzahl": rat, zahl); else three parts, first and middle known words of four letters
-- or more ("kaffeevollautomat": kaffe, voll, automat). Only cuts whose rest is known are looked at
-- further, and all lexemes of a text at once, so a passage costs one statement.
--
-- Immutable for the generated columns that store a passage's parts: it reads private.compound_words,
-- which only a migration changes, and a migration that does stores every passage again.
create or replace function private.compound_splits(lexemes text[])
returns table (compound text, parts text[])
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
begin
  return query
      with ending as (
        select w.word, n.n, left(w.word, n.n) as front, substr(w.word, n.n + 1) as tail
          from (select distinct x as word from unnest(lexemes) as x where char_length(x) >= 7 and x !~ '[^[:alpha:]]') w
          cross join generate_series(char_length(w.word) - 3, 4, -1) as n (n)
         where substr(w.word, n.n + 1) <> all (private.compound_suffixes())
           -- An index probe per cut (a join would read the whole word list).
           and (select true from private.compound_words t where t.lexeme = substr(w.word, n.n + 1))
      ),
      two as (
        select distinct on (e.word) e.word, array[h.lexeme, e.tail] as parts
          from ending e
          join private.compound_fronts(array(select e0.front from ending e0)) h on h.fragment = e.front
         order by e.word, h.exact desc, e.n desc
      ),
      middle as (
        select e.word, e.n, e.tail, c.n as cut, left(e.front, c.n) as first, substr(e.front, c.n + 1) as second
          from ending e
          cross join generate_series(char_length(e.front) - 4, 4, -1) as c (n)
         where not exists (select from two t where t.word = e.word)
      ),
      fronts as (
        select * from private.compound_fronts(array(select m.first from middle m union all select m.second from middle m))
      ),
      three as (
        select distinct on (m.word) m.word, array[h.lexeme, s.lexeme, m.tail] as parts
          from middle m
          join fronts h on h.fragment = m.first
          join fronts s on s.fragment = m.second
         order by m.word, m.n desc, h.exact desc, m.cut desc
      )
      select t.word, t.parts from two t
      union all
      select t.word, t.parts from three t;
end
$$;


-- The known parts one lexeme is made of (private.compound_splits()); empty when it is no compound.
create or replace function private.compound_parts(compound text)
returns text[]
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce((select s.parts from private.compound_splits(array[compound]) as s), '{}')
$$;


-- What a passage, a heading or a title stores: its lexemes (private.german_lexemes()) and, beside
-- each compound, its parts (without positions: they stand where the compound stands).
create or replace function private.passage_lexemes(source text)
returns tsvector
language sql
immutable
parallel safe
set search_path = ''
as $$
  select v.lexemes
         || array_to_tsvector(array(
              select distinct p.part
                from private.compound_splits(tsvector_to_array(v.lexemes)) as s
                cross join lateral unnest(s.parts) as p (part)))
    from (select private.german_lexemes(source) as lexemes) v
$$;

comment on function private.compound_suffixes() is
  'Word-forming endings (-ung, -schaft, -heit …) that the word list has as words but no compound ends in.';
comment on function private.compound_fronts(text[]) is
  'The known words (private.compound_words) fragments stand for as the first or middle part of a compound.';
comment on function private.compound_splits(text[]) is
  'The compounds among lexemes and the known parts each is made of, first part first.';
comment on function private.compound_parts(text) is
  'The known parts a compound lexeme is made of, empty for a word that is none.';
comment on function private.passage_lexemes(text) is
  'A text''s lexemes (private.german_lexemes()) with its compounds'' parts beside them: what passages and titles store.';

-- Generated columns call them as whoever writes the row; the search calls them too.
revoke execute on function private.compound_suffixes(), private.compound_fronts(text[]), private.compound_splits(text[]),
  private.compound_parts(text), private.passage_lexemes(text) from public;
grant execute on function private.compound_suffixes(), private.compound_fronts(text[]), private.compound_splits(text[]),
  private.compound_parts(text), private.passage_lexemes(text) to anon, authenticated, service_role;


-- The words that stand for a word no passage holds: the word of the knowledge base or of the
-- synonym table it is a slip of (words of seven letters or more: one letter changed, two from nine letters on, the first three
-- letters the same; shorter words are too often another word: "gewonnen" – "gewohnt"), else the two parts of a compound when passages have both ("Urlaubtage": urlaub, tag). A
-- compound with an unknown part stays unknown: "Mindestlohn" is not "mindestens", "Paarberatung"
-- is no kind of "Beratung" the knowledge base knows. Else the parts the word list splits it into,
-- when passages hold them all. Returns the word itself when passages hold it
-- (also as the beginning of a longer word: "Arbeit" – "Arbeitsplatz") or nothing stands in for it.
create or replace function private.stand_ins(word text)
returns text[]
language plpgsql
stable
set search_path = ''
as $$
declare
  typo_edits constant integer := 2;
  repaired text;
  modifier text;
  head text;
  parts text[];
begin
  if exists (select from private.knowledge_terms k where k.lexeme = word)
     or (char_length(word) >= 4 and word !~ '[^[:alpha:]]'
         and exists (select from private.knowledge_terms k where k.lexeme ~>=~ word and k.lexeme ~<~ (word || chr(65535)))) then
    return array[word];
  end if;
  if char_length(word) < 5 or word ~ '[^[:alpha:]]' then
    return array[word];
  end if;

  if char_length(word) >= 7 then
    -- The words of the knowledge base and of the synonym table (whose synonyms passages may have).
    select v.lexeme into repaired
      from (
        select k.lexeme, k.passages from private.knowledge_terms k
         where k.lexeme ~>=~ left(word, 3) and k.lexeme ~<~ (left(word, 3) || chr(65535))
        union all
        select s.lexeme, 0 from private.synonyms s where left(s.lexeme, 3) = left(word, 3) and not s.evidence_only
      ) v
     where char_length(v.lexeme) between char_length(word) - typo_edits and char_length(word) + typo_edits
       and extensions.levenshtein_less_equal(v.lexeme, word, typo_edits)
           <= case when char_length(word) >= 9 then typo_edits else 1 end
     order by extensions.levenshtein(v.lexeme, word), abs(char_length(v.lexeme) - char_length(word)), v.passages desc, v.lexeme
     limit 1;
    if repaired is not null then
      return array[repaired];
    end if;
  end if;

  -- A compound of two words the knowledge base has: the longest of its words (five letters or
  -- more) the compound begins with, and the longest (three or more) it ends with, not overlapping,
  -- with at most six letters between them (an ending and a joint: "Stressbewält|igungs|kurs").
  select k.lexeme into modifier
    from generate_series(char_length(word) - 3, 5, -1) as n
    join private.knowledge_terms k on k.lexeme = left(word, n.n)
   order by n.n desc
   limit 1;
  if modifier is not null then
    select k.lexeme into head
      from generate_series(char_length(word) - char_length(modifier), 3, -1) as n
      join private.knowledge_terms k on k.lexeme = right(word, n.n)
     where char_length(word) - char_length(modifier) - n.n <= 6
     order by n.n desc
     limit 1;
    if head is not null then
      return array[modifier, head];
    end if;
  end if;

  -- A compound the word list splits (private.compound_parts()) into parts that passages all hold
  -- ("Zahlungsfristen": zahlung, frist). With a part no passage holds it stays unknown, as above.
  parts := private.compound_parts(word);
  if cardinality(parts) > 0
     and not exists (select from unnest(parts) as p (part)
                      where not exists (select from private.knowledge_terms k where k.lexeme = p.part)) then
    return parts;
  end if;
  return array[word];
end
$$;


-- What in a passage answers to the question (as …_search_plans.sql wrote it), and for a term
-- found as a compound's part, the compounds of the passage that hold it: the offline coach finds
-- the term in the text by the beginning of its words, and "Stornogebühr" does not begin with
-- "Gebühr". A compound of the passage holds a found lexeme that stands in it after its first four
-- letters ("stornogebuhr" holds "gebuhr").
create or replace function private.passage_evidence(fts tsvector, terms private.search_term[])
returns jsonb
language sql
immutable
parallel safe
set search_path = ''
as $$
  select jsonb_build_object(
    'total', coalesce((select sum(case when t.from_previous then 0.5 * t.weight else t.weight end) from unnest(terms) as t), 0),
    'asked', (select count(*) from unnest(terms) as t where t.weight > 0 and not t.from_previous),
    'asked_weight', coalesce((select sum(t.weight) from unnest(terms) as t where not t.from_previous), 0),
    'related_share', private.thesaurus_share(),
    'terms', coalesce((
      select jsonb_agg(jsonb_build_object(
               'term', t.lexeme,
               'weight', case when t.from_previous then 0.5 * t.weight else t.weight end,
               'previous', t.from_previous,
               'words', coalesce((select jsonb_agg(w.lexeme order by w.lexeme)
                                    from unnest(fts) as w
                                   where array_to_tsvector(array[w.lexeme]) @@ t.query
                                      or (char_length(w.lexeme) >= 7
                                          and exists (select from unnest(fts) as p
                                                       where char_length(p.lexeme) >= 3
                                                         and strpos(substr(w.lexeme, 5), p.lexeme) > 0
                                                         and array_to_tsvector(array[p.lexeme]) @@ t.query))), '[]'::jsonb),
               'related', coalesce((select jsonb_agg(w.lexeme order by w.lexeme)
                                      from unnest(fts) as w
                                     where t.related is not null
                                       and array_to_tsvector(array[w.lexeme]) @@ t.related
                                       and not array_to_tsvector(array[w.lexeme]) @@ t.query), '[]'::jsonb))
             order by t.from_previous, t.position)
        from unnest(terms) as t
       where t.weight > 0 and (fts @@ t.query or (t.related is not null and fts @@ t.related))
    ), '[]'::jsonb)
  )
$$;


-- Passages and titles stored again with their compounds' parts. A generated column's expression
-- cannot be changed in place: the column is added anew, its index with it.
alter table public.document_chunks drop column fts;
alter table public.document_chunks add column fts tsvector
  generated always as (setweight(private.passage_lexemes(heading), 'A') || private.passage_lexemes(content)) stored;
comment on column public.document_chunks.fts is
  'The lexemes of heading (weight A) and content with their compounds'' parts, from private.passage_lexemes().';
create index document_chunks_fts_idx on public.document_chunks using gin (fts);

alter table public.documents drop column title_fts;
alter table public.documents add column title_fts tsvector
  generated always as (private.passage_lexemes(regexp_replace(title, '\.pdf$|[_.]', ' ', 'gi'))) stored;
comment on column public.documents.title_fts is
  'The lexemes of the title (extension and separators dropped) with its compounds'' parts, context for its passages.';

-- The word counts, counted again from the passages as they are now stored.
delete from private.knowledge_terms;
delete from private.knowledge_stats;
select private.count_knowledge_terms(array(select c.fts from public.document_chunks c), 1);
