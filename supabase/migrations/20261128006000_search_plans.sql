-- The knowledge search, fast on PostgreSQL's defaults, silent, and follow-ups that point back.
--
--   * No planner switch: lexical_candidates, fused_candidates and search_knowledge ran with
--     `set enable_seqscan = off`, which adds a huge cost to every plan with a sequential scan
--     anywhere in it (a small table, a function's rows) and so lifted the plans past PostgreSQL's
--     jit_above_cost: with the server's default jit = on, every search then spent about a second
--     compiling them. The plans below are cheap by themselves.
--   * No empty text-search query: a tsquery is built only from lexemes (`''::tsquery` made the
--     server send the notice "text-search query doesn't contain lexemes" to the client on every
--     search).
--   * Words that point back to the previous turn ("davon", "dazu", "dafür", "hierzu" …: "da",
--     "hier" or "wo" and a preposition) ask about what was said before; as question words they
--     weigh nothing, so "Und wie viele davon?" after a question about holidays is searched by the
--     holiday question's words, not as a question about an unknown word.
--
-- Whole definitions of the functions this changes, as …_search_current.sql wrote them otherwise.

insert into private.question_words (lexeme)
select distinct v.lexeme
  from unnest(array['da', 'dar', 'hier', 'wo', 'wor']) as pronoun (head)
  cross join unnest(array['an', 'auf', 'aus', 'bei', 'durch', 'für', 'gegen', 'hinter', 'in', 'mit', 'nach', 'neben', 'über', 'um',
                          'unter', 'von', 'vor', 'zu', 'zwischen']) as preposition (word)
  cross join lateral unnest(private.german_lexemes(pronoun.head || preposition.word)) as v
 -- "dar" and "wor" before a vowel ("darauf", "worüber"), "da" and "wo" before a consonant
 -- ("dabei", "wovon"), "hier" before either ("hierauf", "hierzu").
 where pronoun.head = 'hier' or (pronoun.head in ('dar', 'wor')) = (preposition.word ~ '^[aeiouäöü]')
on conflict (lexeme) do nothing;


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
    from (select t0.*, case when t0.related is null then t0.query else t0.query || t0.related end as either from unnest(terms) as t0) as t
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
       where t.weight > 0 and (fts @@ t.query or (t.related is not null and fts @@ t.related))
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

