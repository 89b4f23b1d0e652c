-- The knowledge search as it is now, on every database: the baseline's …_search.sql wrote its
-- first form, and a database keeps what a migration wrote when it was applied, so every change
-- since comes here as whole definitions.
--
--   public.search_knowledge(query, match_count, previous, query_embedding)
--     1. private.search_terms()        the question's words, weighted, each with what stands for it
--          private.question_words      words that ask rather than name a topic (weight 0)
--          private.joined_codes()      codes written apart ("E 07" for "E07")
--          private.stand_ins()         a word no passage has: the slip it is, or its known parts
--          private.term_query()        the word, its synonyms and the compounds ending in it; for a
--                                      word no passage holds, its thesaurus synonyms
--          private.synonyms            the German synonym table (…_search.sql)
--          private.thesaurus           OpenThesaurus's synonym sets (…_thesaurus.sql)
--     2. private.lexical_candidates()  passages sharing words with it, scored: the lexical ranking
--     3. private.vector_candidates()   with a question embedding: the nearest passages
--     4. private.fused_candidates()    both as one ranking: relevance floor, reciprocal rank
--                                      fusion, German first
--     5. one passage per near-duplicate, at most five, each with its evidence
--          private.passage_evidence()  which of the passage's words count for which term
--
-- Every function reads text through private.german_lexemes(), as the passages were written
-- (…_documents.sql).
--
-- The functions are dropped first, whatever their arguments, and private.search_term with them: a
-- function's result columns and a composite type's fields cannot be changed in place, and a
-- database set up from an earlier state of the baseline may hold any earlier form of them.

do $$
declare
  routine regprocedure;
begin
  for routine in
    select p.oid::regprocedure
      from pg_proc p
      join pg_namespace n on n.oid = p.pronamespace
     where (n.nspname = 'public' and p.proname = 'search_knowledge')
        or (n.nspname = 'private' and p.proname in ('thesaurus_share', 'stand_ins', 'term_query', 'joined_codes', 'search_terms',
                                                     'lexical_candidates', 'vector_candidates', 'passage_evidence', 'fused_candidates'))
  loop
    execute format('drop function %s', routine);
  end loop;
end
$$;
drop type if exists private.search_term;


-- The share of a word's weight a passage gets for holding only a thesaurus synonym of it.
create or replace function private.thesaurus_share()
returns real
language sql
immutable
parallel safe
set search_path = ''
as $$ select 0.6::real $$;


-- A term of a question as the search uses it.
create type private.search_term as (
  -- The question's word, stemmed; what the admin's preview shows.
  lexeme text,
  -- Order: the question's words first, in their order, then the previous turn's.
  position integer,
  from_previous boolean,
  -- Written with a capital letter inside its sentence: a German noun, what a question is about.
  named boolean,
  -- What a passage must hold to count as having the word (private.term_query()).
  query tsquery,
  -- How many passages hold it, at most (the weight is read from this).
  passages integer,
  -- What a passage holds when it has only a thesaurus synonym of the word (private.thesaurus).
  related tsquery,
  -- ln(1 + (N - n + 0.5) / (n + 0.5)) for n of N passages (BM25's idf); 0 for a question word.
  weight real
);


-- The words that stand for a word no passage holds: the word of the knowledge base or of the
-- synonym table it is a slip of (words of seven letters or more: one letter changed, two from nine letters on, the first three
-- letters the same; shorter words are too often another word: "gewonnen" – "gewohnt"), else the two parts of a compound when passages have both ("Urlaubtage": urlaub, tag). A
-- compound with an unknown part stays unknown: "Mindestlohn" is not "mindestens", "Paarberatung"
-- is no kind of "Beratung" the knowledge base knows. Returns the word itself when passages hold it
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
  return array[word];
end
$$;


-- What a passage must hold to have a word: the word (as the beginning of a longer word too, for
-- words of five letters or more: "Pause" – "Pausenraum"), its synonyms likewise, and the
-- knowledge base's compounds ending in the word or a synonym ("Urlaub" – "Erholungsurlaub"; the
-- six held by most passages, for words of five letters or more). With how many passages hold any
-- of these, at most (a passage with two of them counts twice). related: for a word no passage
-- holds (and no synonym or compound of it), the lexemes of its thesaurus sets (private.thesaurus)
-- that passages hold, with how many passages hold them. A word the knowledge base has is taken as
-- the documents write it: its thesaurus sets mix senses and would pull in passages about another
-- one. A question word is no synonym ("Flasche" – "Kanne" is stemmed "kann", as "kann" is).
create or replace function private.term_query(word text, out query tsquery, out passages integer,
                                              out related tsquery, out related_passages integer)
language sql
stable
set search_path = ''
as $$
  with forms as (
    select word as form
    union
    select s2.lexeme
      from private.synonyms s1
      join private.synonyms s2 on s2.grp = s1.grp and s2.lexeme <> s1.lexeme
     where s1.lexeme = word and not s1.evidence_only
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
           select string_agg(q.literal || case when q.as_prefix then ':*' else '' end, ' | ') from quoted q
         )::tsquery
         || coalesce((select string_agg(format('''%s''', replace(replace(h.lexeme, '\', '\\'), '''', '''''')), ' | ') from heads h)::tsquery,
                     ''::tsquery),
         coalesce((select sum(held.passages) from held), 0)::integer,
         (select string_agg(format('''%s''', replace(replace(t.lexeme, '\', '\\'), '''', '''''')), ' | ') from thesaurus t)::tsquery,
         coalesce((select sum(t.passages) from thesaurus t), 0)::integer
$$;


-- Codes written apart: a visitor types or speaks "E 07" or "E-07" for the code "E07" of a
-- manual's table. A word of one to three letters and a number after it, joined, when the
-- knowledge base holds the code so joined; parts: the lexemes of the two pieces, which then say
-- nothing on their own.
create or replace function private.joined_codes(question text)
returns table (lexeme text, parts text[])
language sql
stable
set search_path = ''
as $$
  select distinct k.lexeme, array[lower(m[1]), m[2], '-' || m[2]]
    from regexp_matches(left(coalesce(question, ''), 2000), '(?:^|[^[:alnum:]])([[:alpha:]]{1,3})(?: +|-)([0-9]{1,4})(?![[:alnum:]])', 'g') as m
    join private.knowledge_terms k on k.lexeme = lower(m[1]) || m[2]
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
-- question typed all in lower case says nothing about its nouns: every word weighs as it is.
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
  capitalised as (
    -- Words with a capital letter that does not start a sentence.
    select v.lexeme
      from unnest(private.german_lexemes((
        select string_agg(m[1], ' ')
          from regexp_matches(left(coalesce(question, ''), 2000) || ' ' || left(coalesce(previous, ''), 2000),
                              '(?<=[^.!?:\s][\s„"(]{1,3})([[:upper:]][^\s.,!?;:“")]*)', 'g') as m
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
             or (not w.from_previous and exists (select from pieces p where p.lexeme = w.lexeme)) as asks,
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


-- Passages of COMPLETED documents that share informative words with the question, scored: the
-- lexical ranking, in one place.
--   score       the weighted share of the question's terms the passage holds (0..1). A term the
--               passage holds only as a thesaurus synonym counts private.thesaurus_share() (0.6),
--               a term only the document's title holds half. A follow-up's previous turn weighs half,
--               so the passage that goes on with the conversation ranks first.
--   standalone  the same without the previous turn: a passage that answers the new question on
--               its own passes the floor too, when the visitor changed the subject.
--   density     ts_rank_cd's cover density of the candidate terms, for ties.
--   language    the language of the passage's document.
--   matched     the question's terms the passage holds, as the admin's preview shows them.
-- Ranking every passage that shares one common word is what makes a search slow, so only a set
-- that cannot miss a passage the floor would let through is ranked: when the common terms (in
-- more than 200 passages) weigh less than the floor, the passages with a rarer term; else those
-- with all the question's terms when there are enough of them, else every passage with a term;
-- at most 100 of them, in storage order.
create or replace function private.lexical_candidates(terms private.search_term[], wanted integer, floor_score real)
returns table (chunk_id bigint, language text, score real, standalone real, density real, matched text[])
language plpgsql
stable
set search_path = ''
-- The candidate checks use LIMIT; without statistics for a term the planner may bet on a
-- sequential scan ending early, which reads the whole table when the term is rare.
set enable_seqscan = off
as $$
declare
  common_passages constant integer := 200;
  rank_limit constant integer := 100;
  related_share constant real := private.thesaurus_share();
  total real;
  question_total real;
  any_term tsquery;
  rare_terms tsquery;
  all_terms tsquery;
  common_share real;
  candidates tsquery;
  found integer;
begin
  select coalesce(sum(case when t.from_previous then 0.5 * t.weight else t.weight end), 0),
         coalesce(sum(t.weight) filter (where not t.from_previous), 0)
    into total, question_total
    from unnest(terms) as t;
  if total <= 0 then
    return;
  end if;

  -- The common terms' share of the weight, by the score and by the standalone score: the larger.
  select string_agg(t.either::text, ' | ')::tsquery,
         string_agg(t.either::text, ' | ') filter (where t.passages <= common_passages)::tsquery,
         string_agg(format('(%s)', t.either::text), ' & ') filter (where not t.from_previous)::tsquery,
         greatest(
           coalesce(sum(case when t.from_previous then 0.5 * t.weight else t.weight end)
                      filter (where t.passages > common_passages), 0) / total,
           case when question_total > 0
                then coalesce(sum(t.weight) filter (where t.passages > common_passages and not t.from_previous), 0) / question_total
                else 0 end
         )
    into any_term, rare_terms, all_terms, common_share
    from (select t0.*, t0.query || coalesce(t0.related, ''::tsquery) as either from unnest(terms) as t0) as t
   where t.weight > 0;

  candidates := any_term;
  if common_share < floor_score and rare_terms is not null then
    candidates := rare_terms;
  elsif all_terms is not null then
    select count(*) into found
      from (
        select 1
          from public.document_chunks c
          join public.documents d on d.id = c.document_id
         where c.fts @@ all_terms and d.status = 'COMPLETED'
         limit wanted
      ) enough;
    if found >= wanted then
      candidates := all_terms;
    end if;
  end if;

  return query
    with candidate as (
      select c0.id, c0.fts, d0.title_fts, d0.language
        from public.document_chunks c0
        join public.documents d0 on d0.id = c0.document_id
       where c0.fts @@ candidates
         and d0.status = 'COMPLETED'
       limit rank_limit
    ),
    credited as (
      select c.id, t.lexeme, t.position, t.from_previous, t.weight,
             case when c.fts @@ t.query then 1.0
                  when t.related is not null and c.fts @@ t.related then related_share
                  when c.title_fts @@ t.query then 0.5
                  else 0 end as credit
        from candidate c
        cross join unnest(terms) as t
       where t.weight > 0
    ),
    summed as (
      select x.id,
             coalesce(sum(x.weight * x.credit) filter (where not x.from_previous), 0) as question_found,
             coalesce(sum(x.weight * x.credit) filter (where x.from_previous), 0) as previous_found,
             array_agg(x.lexeme order by x.from_previous, x.position) filter (where x.credit > 0.5 and x.weight > 0) as matched
        from credited x
       group by x.id
    )
    select c.id,
           c.language,
           ((m.question_found + 0.5 * m.previous_found) / total)::real,
           (case when question_total > 0 then m.question_found / question_total else 0 end)::real,
           ts_rank_cd(c.fts, candidates, 1 | 32),
           coalesce(m.matched, '{}')
      from candidate c
      join summed m on m.id = c.id;
end
$$;


-- The passages of COMPLETED documents nearest to the question's embedding (HNSW index, cosine
-- distance), most similar first, with their cosine similarity; none without an embedding.
create or replace function private.vector_candidates(query_embedding extensions.vector, nearest integer)
returns table (chunk_id bigint, language text, similarity real)
language plpgsql
stable
set search_path = ''
as $$
begin
  -- Without an embedding there is nothing to compare (and the index is not walked at all).
  if query_embedding is null then
    return;
  end if;
  return query
    select n.id, d.language, n.similarity
      from (
        select c.id, c.document_id,
               (1 - (c.embedding operator(extensions.<=>) query_embedding))::real as similarity
          from public.document_chunks c
         where c.embedding is not null
         order by c.embedding operator(extensions.<=>) query_embedding
         limit nearest
      ) n
      join public.documents d on d.id = n.document_id
     where d.status = 'COMPLETED'
     order by n.similarity desc, n.id;
end
$$;


-- What in a passage answers to the question, for the offline coach to find the sentence, list
-- entry or table row that holds it: {"total": the question's weight, "asked": how many weighted
-- terms the latest question has itself, "asked_weight": their weight, "related_share": what a
-- thesaurus synonym counts,
-- "terms": [{"term", "weight", "previous", "words": the passage's lexemes that count as the term,
-- "related": those that count as its thesaurus synonyms only}]}. A follow-up's previous turn at
-- half weight, as the score counts it.
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
                                   where array_to_tsvector(array[w.lexeme]) @@ t.query), '[]'::jsonb),
               'related', coalesce((select jsonb_agg(w.lexeme order by w.lexeme)
                                      from unnest(fts) as w
                                     where t.related is not null
                                       and array_to_tsvector(array[w.lexeme]) @@ t.related
                                       and not array_to_tsvector(array[w.lexeme]) @@ t.query), '[]'::jsonb))
             order by t.from_previous, t.position)
        from unnest(terms) as t
       where t.weight > 0 and fts @@ (t.query || coalesce(t.related, ''::tsquery))
    ), '[]'::jsonb)
  )
$$;


-- The lexical and the vector candidates as one ranking, by reciprocal rank fusion: each list
-- ranks its own passages (the lexical one by score, then cover density; the vector one by
-- similarity) and a passage counts 1 / (60 + rank) from each list it is in.
--   * Lexical candidates only at or above the relevance floor (floor_score, 0.3): sharing one
--     common word with a question of several is not an answer.
--   * With query_embedding, the 20 passages nearest to it; one only the embedding found needs a
--     cosine similarity of at least 0.45 (a starting value for OpenAI's text-embedding-3-small,
--     where unrelated German texts score about 0.1-0.25). score is then the better of the lexical
--     score and that similarity.
--   * German passages only, unless no German passage passes; the best 4 × wanted (enough for
--     near-duplicates to be dropped afterwards), best first.
create or replace function private.fused_candidates(
  terms private.search_term[],
  query_embedding extensions.vector,
  wanted integer,
  floor_score real default 0.3
)
returns table (chunk_id bigint, language text, score real, density real, matched text[], fusion double precision)
language plpgsql
stable
set search_path = ''
set enable_seqscan = off
as $$
#variable_conflict use_column
begin
  return query
  with lexical as (
    select l.*, row_number() over (order by l.score desc, l.density desc, l.chunk_id) as lexical_rank
      from private.lexical_candidates(terms, wanted, floor_score) as l
     where greatest(l.score, l.standalone) >= floor_score
  ),
  semantic as (
    select v.*, row_number() over (order by v.similarity desc, v.chunk_id) as semantic_rank
      from private.vector_candidates(query_embedding, 20) as v
     where v.similarity >= 0.45
  ),
  fused as (
    select coalesce(l.chunk_id, s.chunk_id) as chunk_id,
           coalesce(l.language, s.language) as language,
           greatest(coalesce(l.score, 0), coalesce(s.similarity, 0))::real as score,
           coalesce(l.density, 0)::real as density,
           coalesce(l.matched, '{}') as matched,
           (coalesce(1.0 / (60 + l.lexical_rank), 0) + coalesce(1.0 / (60 + s.semantic_rank), 0))::double precision as fusion
      from lexical l
      full join semantic s on s.chunk_id = l.chunk_id
  )
  select f.chunk_id, f.language, f.score, f.density, f.matched, f.fusion
    from (select f0.*, bool_or(f0.language = 'de') over () as any_german from fused f0) f
   where f.language = 'de' or not f.any_german
   order by f.fusion desc, f.score desc, f.density desc, f.chunk_id
   limit 4 * wanted;
end
$$;


-- Passages of COMPLETED documents that answer a German question, best first, at most five.
--
--   * Terms (private.search_terms()): the question's words stemmed, question words weighing
--     nothing, slips and compounds stood in for, synonyms and compounds matched, each weighted by
--     how rare it is; a follow-up with the previous user turn (`previous`) at half weight.
--   * Candidates (private.fused_candidates()): the lexical ranking (private.lexical_candidates(),
--     the weighted share of the terms a passage holds) above the relevance floor, and with
--     query_embedding (the coach embeds the question when OPENAI_API_KEY is set) the nearest
--     passages (private.vector_candidates()), fused by reciprocal rank; German first. rank is the
--     better of the lexical score and the cosine similarity.
--   * Near-duplicates (the same heading and text after collapsing case and whitespace) come once,
--     from the most recently uploaded document.
--   * Ties: cover density, then document id and passage ordinal.
-- matched_terms lists the question's terms the passage holds (the admin's preview shows them);
-- evidence (private.passage_evidence()) which of the passage's words count for which term.
--
-- Runs as the caller: admins and the service role see all COMPLETED passages; callers that row
-- level security hides the passages from get no rows.
create or replace function public.search_knowledge(
  query text,
  match_count integer default 5,
  previous text default null,
  query_embedding extensions.vector default null
)
returns table (
  document_id uuid,
  document_title text,
  chunk_ordinal integer,
  heading text,
  content text,
  rank real,
  matched_terms text[],
  language text,
  evidence jsonb
)
language plpgsql
stable
set search_path = ''
set enable_seqscan = off
as $$
#variable_conflict use_column
declare
  wanted constant integer := greatest(1, least(coalesce(match_count, 5), 5));
  terms private.search_term[];
begin
  terms := array(select t from private.search_terms(query, previous) as t);
  if query_embedding is null and not exists (select from unnest(terms) as t where t.weight > 0) then
    return;
  end if;

  return query
    with best as (
      select f.* from private.fused_candidates(terms, query_embedding, wanted) as f
    ),
    unique_passages as (
      select distinct on (u.fingerprint) u.*
        from (
          select b.*, c.document_id, d.title, c.ordinal, c.heading, c.content, c.fts, d.created_at,
                 md5(lower(regexp_replace(c.heading || E'\n' || c.content, '\s+', ' ', 'g'))) as fingerprint
            from best b
            join public.document_chunks c on c.id = b.chunk_id
            join public.documents d on d.id = c.document_id
        ) u
       order by u.fingerprint, u.fusion desc, u.created_at desc, u.document_id, u.ordinal
    ),
    chosen as (
      select u.*
        from unique_passages u
       order by u.fusion desc, u.score desc, u.density desc, u.document_id, u.ordinal
       limit wanted
    )
    select c.document_id, c.title, c.ordinal, c.heading, c.content, c.score, c.matched, c.language,
           private.passage_evidence(c.fts, terms)
      from chosen c
     order by c.fusion desc, c.score desc, c.density desc, c.document_id, c.ordinal;
end
$$;

comment on function public.search_knowledge(text, integer, text, extensions.vector) is
  'Passages of COMPLETED documents that answer a German question (weighted share of its terms at or above 0.3; slips, compounds and synonyms matched; fused with the passages nearest to query_embedding when given), best first; at most match_count (1..5, default 5). previous: the previous user turn for follow-ups.';

revoke execute on function private.stand_ins(text), private.joined_codes(text), private.term_query(text), private.search_terms(text, text),
  private.thesaurus_share(),
  private.lexical_candidates(private.search_term[], integer, real),
  private.vector_candidates(extensions.vector, integer),
  private.fused_candidates(private.search_term[], extensions.vector, integer, real),
  private.passage_evidence(tsvector, private.search_term[]) from public, anon;
grant execute on function private.stand_ins(text), private.joined_codes(text), private.term_query(text), private.search_terms(text, text),
  private.thesaurus_share(),
  private.lexical_candidates(private.search_term[], integer, real),
  private.vector_candidates(extensions.vector, integer),
  private.fused_candidates(private.search_term[], extensions.vector, integer, real),
  private.passage_evidence(tsvector, private.search_term[]) to authenticated, service_role;

-- Visitors reach the knowledge only through the coach function (service role); the admin search
-- box calls it signed in. anon may not call it at all.
revoke execute on function public.search_knowledge(text, integer, text, extensions.vector) from public, anon;
grant execute on function public.search_knowledge(text, integer, text, extensions.vector) to authenticated, service_role;
