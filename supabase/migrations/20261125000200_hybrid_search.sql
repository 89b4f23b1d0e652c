-- Hybrid search when a language model key exists: passages get embeddings (the `embed` edge
-- function, OpenAI's text-embedding-3-small, 1536 dimensions) in a pgvector column with an HNSW
-- index, and search_knowledge fuses the full-text ranking with the nearest passages to the
-- question's embedding by reciprocal rank fusion. Without embeddings (no key, or passages not
-- embedded yet) it is the full-text search as before, with the same results.
-- pgvector is available on Supabase; the local stack loads PGlite's build of it.

create extension if not exists vector with schema extensions;

alter table public.document_chunks
  add column if not exists embedding extensions.vector(1536);
comment on column public.document_chunks.embedding is
  'The passage''s embedding (text-embedding-3-small), written by the embed function; null until embedded. New passages (a new or processed-again document) start without one.';

create index if not exists document_chunks_embedding_idx
  on public.document_chunks using hnsw (embedding extensions.vector_cosine_ops);

-- Writes embeddings: items is a JSON array of {document_id, ordinal, embedding} with embedding in
-- pgvector's text form ("[0.1,0.2,…]"). Admins and the service role only. Returns the rows written.
create or replace function public.store_passage_embeddings(items jsonb)
returns integer
language plpgsql
volatile
set search_path = ''
as $$
declare
  written integer;
begin
  if not ((select public.is_admin()) or (select auth.role()) = 'service_role') then
    raise exception 'only admins may store embeddings' using errcode = '42501';
  end if;
  update public.document_chunks c
     set embedding = i.embedding::extensions.vector
    from jsonb_to_recordset(coalesce(items, '[]'::jsonb)) as i (document_id uuid, ordinal integer, embedding text)
   where c.document_id = i.document_id
     and c.ordinal = i.ordinal;
  get diagnostics written = row_count;
  return written;
end
$$;

comment on function public.store_passage_embeddings(jsonb) is
  'Stores passage embeddings [{document_id, ordinal, embedding}] (embed function, service role); returns the number of passages written.';
revoke execute on function public.store_passage_embeddings(jsonb) from public, anon;
grant execute on function public.store_passage_embeddings(jsonb) to authenticated, service_role;

drop function if exists public.search_knowledge(text, integer, text);

-- Passages of COMPLETED documents that answer a German question, best first, at most 5.
--
-- How it decides:
--   * The question's terms come from the german text search configuration (stemming, stop words
--     dropped). Words that ask rather than say what about ("tun", "hilft", "total", "geht",
--     "Tipps" …) still match but carry no weight. Terms of five letters or more also match as a
--     prefix, so "Arbeit" finds "Arbeitsplatz"; a participle "gestresst" also looks for "Stress…".
--   * Every term weighs by how rare it is among all passages: ln(1 + 200 / (df + 1)), df counted
--     up to 200 (a term in no passage weighs most: the knowledge base does not know about it).
--   * A passage's score is the weighted share of the question's terms it contains (0..1). Only
--     passages at or above the floor (0.3, calibrated with `npm run bench:rag`) count: sharing
--     one common word with a question of several is not an answer. A term only the document's
--     title contains counts half.
--   * A follow-up is searched together with the previous user turn (`previous`), whose terms weigh
--     half: the score is the better of the question alone and question plus previous turn.
--   * Passages of documents in another language than German only when no German passage passes.
--   * A word no passage contains (a slip: "Atmnug", "Schlfzimmer") is replaced by the closest
--     word of the knowledge base that passages contain (at most two letters changed, one for
--     words under six letters).
--   * Near-duplicates (the same text after collapsing case and whitespace) come once, from the
--     most recently uploaded document.
--   * Ties: ts_rank_cd (cover density), then document id and passage ordinal.
--   * With query_embedding (the coach function embeds the question when OPENAI_API_KEY is set),
--     the 20 passages nearest to it join the passages above the floor by reciprocal rank fusion
--     (1 / (60 + rank) from each list); a passage only the embedding found needs a cosine
--     similarity of at least 0.45. rank is then the better of the score and that similarity.
-- matched_terms lists the question terms the passage contains, as the admin's preview shows them.
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
  content text,
  rank real,
  matched_terms text[],
  language text
)
language plpgsql
stable
set search_path = ''
-- The df counts use LIMIT; without statistics for a term the planner may bet on a sequential scan
-- ending early, which reads the whole table when the term is rare.
set enable_seqscan = off
as $$
#variable_conflict use_column
declare
  wanted constant integer := greatest(1, least(coalesce(match_count, 5), 5));
  floor_score constant real := 0.3;
  typo_edits constant integer := 2;
  df_cap constant integer := 200;
  rank_limit constant integer := 100;
  -- Hybrid search: nearest passages considered, the similarity a passage found only by its
  -- embedding needs, and the fusion constant.
  vector_limit constant integer := 20;
  semantic_floor constant real := 0.45;
  rrf_k constant integer := 60;
  lexemes text[];
  queries tsquery[];
  weights real[];
  from_previous boolean[];
  total_question real;
  total_combined real;
  any_term tsquery;
  rare_terms tsquery;
  all_question_terms tsquery;
  two_terms tsquery;
  informative_count integer;
  common_share real;
  candidates tsquery;
  found_count integer;
begin
  with generic as (
    -- Words that ask rather than name a topic; stemmed like the question.
    select v.lexeme
      from unnest(to_tsvector('german',
        'tun tue tust macht machen mache gehen geht gibt gibts hilft helfen helfe hilfreich tipp tipps total ' ||
        'ganz gerade grad eigentlich wirklich einfach genau gut besser beste bestes viel viele oft lange lang ' ||
        'wann warum wieso weshalb welche welcher welches was wie wo ne mal bitte kannst können kann soll ' ||
        'sollte sollen muss musst darf dürfen okay gern gerne sagen sag sagst erklären erklär ' ||
        'bedeutet heißt ding sache sachen leute jemand etwas nun momentan immer ständig dass wer woran merke ' ||
        'merken merk frage fragen info infos')) as v
  ),
  raw as (
    select v.lexeme, v.positions[1] as position, false as prev
      from unnest(to_tsvector('german', left(coalesce(query, ''), 2000))) as v
    union all
    select v.lexeme, 100000 + v.positions[1], true
      from unnest(to_tsvector('german', left(coalesce(previous, ''), 2000))) as v
  ),
  terms as (
    select distinct on (r.lexeme) r.lexeme, r.position, r.prev,
           r.lexeme in (select g.lexeme from generic g) as is_generic
      from raw r
     order by r.lexeme, r.prev, r.position
  ),
  limited as (
    select t.*,
           -- Quoted, so nothing in the question is read as tsquery syntax.
           format('''%s''', replace(replace(t.lexeme, '\', '\\'), '''', '''''')) as quoted,
           substring(t.lexeme from '^ge([[:alpha:]]{4,})t$') as participle
      from terms t
     order by t.prev, t.position
     limit 20
  ),
  term_queries as (
    select l.lexeme, l.position, l.prev, l.is_generic,
           (case
              when char_length(l.lexeme) >= 5 and l.lexeme !~ '[^[:alpha:]]'
                then l.quoted || ':*'
              else l.quoted
            end
            || case when l.participle is not null then format(' | ''%s'':*', l.participle) else '' end
           )::tsquery as q
      from limited l
  ),
  counted as (
    select tq.*,
           (select count(*) from (select 1 from public.document_chunks c where c.fts @@ tq.q limit df_cap) seen) as df
      from term_queries tq
  ),
  fixed as (
    -- A word no passage contains may be a slip of the pen: the closest word of the knowledge base
    -- (at most typo_edits letters changed, one for words under six letters) stands in for it,
    -- when passages have it.
    select coalesce(f.lexeme, c.lexeme) as lexeme, c.position, c.prev, c.is_generic,
           coalesce(f.q, c.q) as q, coalesce(f.df, c.df) as df
      from counted c
      left join lateral (
        select k.lexeme, k.q, k.df
          from (
            select t.lexeme, t.q,
                   (select count(*) from (select 1 from public.document_chunks c2 where c2.fts @@ t.q limit df_cap) seen) as df
              from (
                select kt.lexeme,
                       format('''%s''', replace(replace(kt.lexeme, '\', '\\'), '''', ''''''))::tsquery as q,
                       extensions.levenshtein(kt.lexeme, c.lexeme) as edits
                  from (
                    -- Candidates: words with the same first three letters and about the same
                    -- length (a slip rarely hits the start of a word), through the prefix index.
                    select k1.lexeme from private.knowledge_terms k1
                     where k1.lexeme like left(c.lexeme, 3) || '%'
                       and char_length(k1.lexeme) between char_length(c.lexeme) - typo_edits and char_length(c.lexeme) + typo_edits
                  ) kt
                 where extensions.levenshtein_less_equal(kt.lexeme, c.lexeme, typo_edits) <= case when char_length(c.lexeme) >= 6 then typo_edits else 1 end
                 order by edits, abs(char_length(kt.lexeme) - char_length(c.lexeme)), kt.lexeme
                 limit 3
              ) t
          ) k
         where c.df = 0 and not c.is_generic and char_length(c.lexeme) >= 5 and c.lexeme !~ '[^[:alpha:]]'
           and k.df > 0
         limit 1
      ) f on true
  )
  select coalesce(array_agg(tq.lexeme order by tq.prev, tq.position), '{}'),
         coalesce(array_agg(tq.q order by tq.prev, tq.position), '{}'),
         coalesce(array_agg(
           case when tq.is_generic then 0::real
                else ln(1 + df_cap::real / (1 + tq.df))::real
           end order by tq.prev, tq.position), '{}'),
         coalesce(array_agg(tq.prev order by tq.prev, tq.position), '{}')
    into lexemes, queries, weights, from_previous
    from fixed tq;

  select coalesce(sum(w) filter (where not p), 0), coalesce(sum(case when p then 0.5 * w else w end), 0)
    into total_question, total_combined
    from unnest(weights, from_previous) as t (w, p);
  if total_combined <= 0 and query_embedding is null then
    return;
  end if;

  if total_combined > 0 then

  -- Candidates: passages with an informative term. When the common terms (df at the cap) weigh
  -- less than the floor, a passage needs a rarer term to pass, so only those are ranked.
  select string_agg(t.q::text, ' | ')::tsquery,
         string_agg(t.q::text, ' | ') filter (where t.w > ln(1 + df_cap::real / (1 + df_cap)) + 0.001)::tsquery,
         string_agg(t.q::text, ' & ') filter (where not t.p)::tsquery,
         count(*) filter (where not t.p),
         coalesce(sum(case when t.p then 0.5 * t.w else t.w end)
                    filter (where t.w <= ln(1 + df_cap::real / (1 + df_cap)) + 0.001), 0) / total_combined
    into any_term, rare_terms, all_question_terms, informative_count, common_share
    from unnest(queries, weights, from_previous) as t (q, w, p)
   where t.w > 0;

  candidates := any_term;
  if common_share < floor_score and rare_terms is not null then
    candidates := rare_terms;
  elsif all_question_terms is not null then
    select count(*) into found_count
      from (
        select 1
          from public.document_chunks c
          join public.documents d on d.id = c.document_id
         where c.fts @@ all_question_terms and d.status = 'COMPLETED'
         limit wanted
      ) enough;
    if found_count >= wanted then
      candidates := all_question_terms;
    elsif informative_count between 3 and 10 then
      -- Common terms only: rank the passages with at least two of them when there are enough.
      select string_agg(format('(%s & %s)', a.q::text, b.q::text), ' | ')::tsquery
        into two_terms
        from unnest(queries, weights, from_previous) with ordinality as a (q, w, p, i)
        join unnest(queries, weights, from_previous) with ordinality as b (q, w, p, i) on b.i > a.i
       where a.w > 0 and b.w > 0 and not a.p and not b.p;
      select count(*) into found_count
        from (
          select 1
            from public.document_chunks c
            join public.documents d on d.id = c.document_id
           where c.fts @@ two_terms and d.status = 'COMPLETED'
           limit wanted
        ) enough;
      if found_count >= wanted then
        candidates := two_terms;
      end if;
    end if;
  end if;

  end if;

  -- Full text alone (no question embedding): the plain query, which plans and runs faster than
  -- the fused one with an empty vector side (bench:search).
  if query_embedding is null then
  return query
    with scored as (
      select c.document_id,
             d.title as document_title,
             c.ordinal as chunk_ordinal,
             c.content,
             d.language,
             d.created_at as uploaded_at,
             m.question_weight + 0.5 * m.title_question_weight as question_weight,
             m.previous_weight + 0.5 * m.title_previous_weight as previous_weight,
             m.matched,
             ts_rank_cd(c.fts, candidates, 1 | 32) as density,
             md5(lower(regexp_replace(c.content, '\s+', ' ', 'g'))) as fingerprint
        from (
          -- At most rank_limit candidates are scored (in storage order), so a question whose
          -- informative terms are all in thousands of passages costs no more than that.
          select c0.*
            from public.document_chunks c0
            join public.documents d0 on d0.id = c0.document_id
           where c0.fts @@ candidates
             and d0.status = 'COMPLETED'
           limit rank_limit
        ) c
        join public.documents d on d.id = c.document_id
        cross join lateral (
          -- The document's title is context for each of its passages: a term only the title has
          -- counts half.
          select coalesce(sum(t.w) filter (where not t.p and t.in_passage), 0) as question_weight,
                 coalesce(sum(t.w) filter (where t.p and t.in_passage), 0) as previous_weight,
                 coalesce(sum(t.w) filter (where not t.p and not t.in_passage), 0) as title_question_weight,
                 coalesce(sum(t.w) filter (where t.p and not t.in_passage), 0) as title_previous_weight,
                 coalesce(array_agg(t.l order by t.p, t.i) filter (where t.w > 0 and t.in_passage), '{}') as matched
            from (
              select u.*, c.fts @@ u.q as in_passage
                from unnest(lexemes, queries, weights, from_previous) with ordinality as u (l, q, w, p, i)
               where c.fts @@ u.q or d.title_fts @@ u.q
            ) t
        ) m
    ),
    ranked as (
      select s.*,
             greatest(
               case when total_question > 0 then s.question_weight / total_question else 0 end,
               (s.question_weight + 0.5 * s.previous_weight) / total_combined
             )::real as score
        from scored s
    ),
    passing as (
      select distinct on (r.fingerprint) r.*
        from ranked r
       where r.score >= floor_score
       order by r.fingerprint, r.score desc, r.uploaded_at desc, r.document_id, r.chunk_ordinal
    ),
    preferred as (
      select p.*, bool_or(p.language = 'de') over () as any_german
        from passing p
    )
    select p.document_id, p.document_title, p.chunk_ordinal, p.content, p.score, p.matched, p.language
      from preferred p
     where p.language = 'de' or not p.any_german
     order by p.score desc, p.density desc, p.document_id, p.chunk_ordinal
     limit wanted;
    return;
  end if;

  return query
    with scored as (
      select c.document_id,
             d.title as document_title,
             c.ordinal as chunk_ordinal,
             c.content,
             d.language,
             d.created_at as uploaded_at,
             m.question_weight + 0.5 * m.title_question_weight as question_weight,
             m.previous_weight + 0.5 * m.title_previous_weight as previous_weight,
             m.matched,
             ts_rank_cd(c.fts, candidates, 1 | 32) as density,
             md5(lower(regexp_replace(c.content, '\s+', ' ', 'g'))) as fingerprint
        from (
          -- At most rank_limit candidates are scored (in storage order), so a question whose
          -- informative terms are all in thousands of passages costs no more than that.
          select c0.*
            from public.document_chunks c0
            join public.documents d0 on d0.id = c0.document_id
           where c0.fts @@ candidates
             and d0.status = 'COMPLETED'
           limit rank_limit
        ) c
        join public.documents d on d.id = c.document_id
        cross join lateral (
          -- The document's title is context for each of its passages: a term only the title has
          -- counts half.
          select coalesce(sum(t.w) filter (where not t.p and t.in_passage), 0) as question_weight,
                 coalesce(sum(t.w) filter (where t.p and t.in_passage), 0) as previous_weight,
                 coalesce(sum(t.w) filter (where not t.p and not t.in_passage), 0) as title_question_weight,
                 coalesce(sum(t.w) filter (where t.p and not t.in_passage), 0) as title_previous_weight,
                 coalesce(array_agg(t.l order by t.p, t.i) filter (where t.w > 0 and t.in_passage), '{}') as matched
            from (
              select u.*, c.fts @@ u.q as in_passage
                from unnest(lexemes, queries, weights, from_previous) with ordinality as u (l, q, w, p, i)
               where c.fts @@ u.q or d.title_fts @@ u.q
            ) t
        ) m
    ),
    ranked as (
      select s.*,
             greatest(
               case when total_question > 0 then s.question_weight / total_question else 0 end,
               (s.question_weight + 0.5 * s.previous_weight) / total_combined
             )::real as score
        from scored s
    ),
    lexical as (
      select r.*,
             (row_number() over (order by r.score desc, r.density desc, r.document_id, r.chunk_ordinal))::integer as lexical_rank
        from ranked r
       where r.score >= floor_score
    ),
    semantic as (
      -- The passages nearest to the question's embedding (HNSW index, cosine distance).
      select v.*,
             (row_number() over (order by v.similarity desc, v.document_id, v.chunk_ordinal))::integer as semantic_rank
        from (
          select c.document_id,
                 d.title as document_title,
                 c.ordinal as chunk_ordinal,
                 c.content,
                 d.language,
                 d.created_at as uploaded_at,
                 (1 - (c.embedding operator(extensions.<=>) query_embedding))::real as similarity,
                 md5(lower(regexp_replace(c.content, '\s+', ' ', 'g'))) as fingerprint
            from (
              select c0.*
                from public.document_chunks c0
               where query_embedding is not null and c0.embedding is not null
               order by c0.embedding operator(extensions.<=>) query_embedding
               limit vector_limit
            ) c
            join public.documents d on d.id = c.document_id
           where d.status = 'COMPLETED'
        ) v
    ),
    fused as (
      -- Reciprocal rank fusion: 1 / (60 + rank) from each list a passage is on. A passage only the
      -- embedding found must be at least semantic_floor similar to count at all.
      select coalesce(l.document_id, s.document_id) as document_id,
             coalesce(l.document_title, s.document_title) as document_title,
             coalesce(l.chunk_ordinal, s.chunk_ordinal) as chunk_ordinal,
             coalesce(l.content, s.content) as content,
             coalesce(l.language, s.language) as language,
             coalesce(l.uploaded_at, s.uploaded_at) as uploaded_at,
             coalesce(l.fingerprint, s.fingerprint) as fingerprint,
             coalesce(l.matched, '{}') as matched,
             greatest(coalesce(l.score, 0), case when s.similarity >= semantic_floor then s.similarity else 0 end)::real as score,
             coalesce(l.density, 0) as density,
             (coalesce(1.0 / (rrf_k + l.lexical_rank), 0)
               + case when s.similarity >= semantic_floor then 1.0 / (rrf_k + s.semantic_rank) else 0 end)::real as fusion
        from lexical l
        full join semantic s on s.document_id = l.document_id and s.chunk_ordinal = l.chunk_ordinal
       where l.document_id is not null or s.similarity >= semantic_floor
    ),
    passing as (
      select distinct on (f.fingerprint) f.*
        from fused f
       order by f.fingerprint, f.fusion desc, f.uploaded_at desc, f.document_id, f.chunk_ordinal
    ),
    preferred as (
      select p.*, bool_or(p.language = 'de') over () as any_german
        from passing p
    )
    select p.document_id, p.document_title, p.chunk_ordinal, p.content, p.score, p.matched, p.language
      from preferred p
     where p.language = 'de' or not p.any_german
     order by p.fusion desc, p.score desc, p.density desc, p.document_id, p.chunk_ordinal
     limit wanted;
end
$$;

comment on function public.search_knowledge(text, integer, text, extensions.vector) is
  'Passages of COMPLETED documents that answer a German question (weighted term coverage at or above 0.3, slips of the pen tolerated; fused with the nearest passages to query_embedding when given), best first; at most match_count (1..5, default 5). previous: the previous user turn for follow-ups.';

revoke execute on function public.search_knowledge(text, integer, text, extensions.vector) from public, anon;
grant execute on function public.search_knowledge(text, integer, text, extensions.vector) to authenticated, service_role;
