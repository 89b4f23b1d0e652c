-- What the offline coach is told about each passage the search returns, so that it can say "not
-- in my knowledge" where a passage only shares words with a question:
--
--   * The evidence lists every weighted term of the question, also those the passage does not hold
--     (with no words), each marked as a noun or not (`named`): what the passage lacks is as telling
--     as what it holds.
--   * `foreign`: the question's nouns that the passage's document never mentions, in no passage and
--     not in its title ("Was kostet eine Flasche Entkalker?" against a coworking space's house rules
--     that sell drinks by the bottle). A passage of that document does not answer the question,
--     however many of its other words it shares. German documents only: an English one writes its
--     nouns in English.
--
-- Whole definitions of private.passage_evidence() and public.search_knowledge(), as
-- …_search_plans.sql wrote them otherwise.


-- What in a passage answers to the question, for the offline coach to find the sentence, list
-- entry or table row that holds it: {"total": the question's weight, "asked": how many weighted
-- terms the latest question has itself, "asked_weight": their weight, "related_share": what a
-- thesaurus synonym counts,
-- "terms": [{"term", "weight", "previous", "named": a noun of the question, "words": the passage's
-- lexemes that count as the term, "related": those that count as its thesaurus synonyms only}]},
-- every weighted term of the question, held or not. A follow-up's previous turn at half weight, as
-- the score counts it.
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
               'named', t.named,
               -- Only a term the passage holds has words in it: the others are not looked for.
               'words', case when fts @@ t.query
                             then coalesce((select jsonb_agg(w.lexeme order by w.lexeme)
                                              from unnest(fts) as w
                                             where array_to_tsvector(array[w.lexeme]) @@ t.query), '[]'::jsonb)
                             else '[]'::jsonb end,
               'related', case when t.related is not null and fts @@ t.related
                               then coalesce((select jsonb_agg(w.lexeme order by w.lexeme)
                                                from unnest(fts) as w
                                               where array_to_tsvector(array[w.lexeme]) @@ t.related
                                                 and not array_to_tsvector(array[w.lexeme]) @@ t.query), '[]'::jsonb)
                               else '[]'::jsonb end)
             order by t.from_previous, t.position)
        from unnest(terms) as t
       where t.weight > 0
    ), '[]'::jsonb)
  )
$$;


-- The question's own nouns (weighted, not the previous turn's) that a German document never
-- mentions: neither the passage (`fts`) nor any other passage of its document holds the noun (or a
-- thesaurus synonym of it), nor does its title. A JSON array of their lexemes; empty for a document
-- of another language.
create or replace function private.foreign_nouns(fts tsvector, document_id uuid, language text, terms private.search_term[])
returns jsonb
language sql
stable
set search_path = ''
as $$
  select coalesce(jsonb_agg(t.lexeme order by t.position), '[]'::jsonb)
    from (select t0.*, case when t0.related is null then t0.query else t0.query || t0.related end as either
            from unnest(terms) as t0) as t
   where foreign_nouns.language = 'de'
     and t.named and t.weight > 0 and not t.from_previous
     -- The passage itself first: a noun it holds is none of them, and needs no look further.
     and not fts @@ t.either
     and not exists (select from public.documents d where d.id = foreign_nouns.document_id and d.title_fts @@ t.query)
     and not exists (
       select from public.document_chunks c
        where c.document_id = foreign_nouns.document_id
          and c.fts @@ t.either
     )
$$;

revoke execute on function private.foreign_nouns(tsvector, uuid, text, private.search_term[]) from public, anon;
grant execute on function private.foreign_nouns(tsvector, uuid, text, private.search_term[]) to authenticated, service_role;


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
-- evidence (private.passage_evidence()) which of the passage's words count for which term, and
-- (private.foreign_nouns()) the question's nouns that the passage's document never mentions.
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
             || jsonb_build_object('foreign', private.foreign_nouns(c.fts, c.document_id, c.language, terms))
      from chosen c
     order by c.fusion desc, c.score desc, c.density desc, c.document_id, c.ordinal;
end
$$;

