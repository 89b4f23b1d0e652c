-- Spelling slips tolerated: a question word that no passage contains is replaced by the closest
-- word of the knowledge base (stemmed words at most two letters apart by Levenshtein distance,
-- one for words under six letters, with the same first three letters), when passages contain
-- that one. The knowledge base's words (lexemes) are kept in private.knowledge_terms, filled as
-- passages are written. fuzzystrmatch is available on Supabase and in PGlite (the local stack
-- loads it). Measured with `npm run bench:search`: trigram candidates (pg_trgm) cost twice the
-- CPU time at the 95th percentile for the few slips they add (a slip in the first letters).

create extension if not exists fuzzystrmatch with schema extensions;

create table if not exists private.knowledge_terms (
  lexeme text primary key
);
comment on table private.knowledge_terms is
  'Every lexeme of the knowledge base''s passages, for the search''s typo tolerance; words of deleted documents may stay (the search checks that passages still contain a stand-in).';
create index if not exists knowledge_terms_prefix_idx on private.knowledge_terms (lexeme text_pattern_ops);

revoke all on private.knowledge_terms from public, anon, authenticated;
grant select on private.knowledge_terms to authenticated, service_role;

-- New passages add their words (runs as the owner: callers cannot write the table themselves).
create or replace function private.remember_knowledge_terms()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.knowledge_terms (lexeme)
  select distinct w from new_rows n, unnest(tsvector_to_array(n.fts)) as w
  on conflict do nothing;
  return null;
end
$$;
revoke execute on function private.remember_knowledge_terms() from public, anon, authenticated;

drop trigger if exists document_chunks_remember_terms on public.document_chunks;
create trigger document_chunks_remember_terms
  after insert on public.document_chunks
  referencing new table as new_rows
  for each statement execute function private.remember_knowledge_terms();

insert into private.knowledge_terms (lexeme)
select distinct w from public.document_chunks c, unnest(tsvector_to_array(c.fts)) as w
on conflict do nothing;

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
-- matched_terms lists the question terms the passage contains, as the admin's preview shows them.
--
-- Runs as the caller: admins and the service role see all COMPLETED passages; callers that row
-- level security hides the passages from get no rows.
create or replace function public.search_knowledge(query text, match_count integer default 5, previous text default null)
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
  if total_combined <= 0 then
    return;
  end if;

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
end
$$;

comment on function public.search_knowledge(text, integer, text) is
  'Passages of COMPLETED documents that answer a German question (weighted term coverage at or above 0.3; a word no passage has is replaced by the closest word of the knowledge base), best first; at most match_count (1..5, default 5). previous: the previous user turn for follow-ups.';

revoke execute on function public.search_knowledge(text, integer, text) from public, anon;
grant execute on function public.search_knowledge(text, integer, text) to authenticated, service_role;
