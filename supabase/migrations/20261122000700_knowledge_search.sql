-- Turning a document's text into passages and finding the passages that answer a question.

-- Internals that functions call but the Data API must not expose (only `public` is exposed).
create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to authenticated, service_role;

-- Splits text into passages of roughly min_chars to max_chars characters. Blank lines separate
-- paragraphs, a new passage starts at a paragraph once the current one is long enough, otherwise
-- passages fill up sentence by sentence. A sentence longer than max_chars is cut between words;
-- only a single "word" longer than max_chars (a URL, a hash) is cut inside itself. Whitespace
-- inside a paragraph is collapsed, since PDF text breaks lines mid-sentence.
create or replace function private.split_text_into_passages(
  source text,
  min_chars integer default 500,
  max_chars integer default 1200
)
returns table (ordinal integer, content text)
language plpgsql
immutable
set search_path = ''
as $$
declare
  passages text[] := '{}';
  current_passage text := '';
  paragraph text;
  sentence text;
  word text;
  piece text;
  unit text;
  units text[];
  first_in_paragraph boolean;
  separator text;
  last_index integer;
begin
  if source is null or min_chars < 1 or max_chars < min_chars then
    return;
  end if;

  for paragraph in
    select btrim(regexp_replace(p, '\s+', ' ', 'g'))
      from regexp_split_to_table(
             replace(replace(replace(source, E'\r\n', E'\n'), E'\r', E'\n'), E'\f', E'\n\n'),
             '\n\s*\n'
           ) as p
  loop
    continue when paragraph = '';

    -- The paragraph's units: its sentences, each cut into word runs when longer than max_chars.
    units := '{}';
    for sentence in
      select s from regexp_split_to_table(paragraph, '(?<=[.!?…])\s+(?=[[:upper:][:digit:]"„“‚«»(\[–-])') as s
    loop
      if char_length(sentence) <= max_chars then
        units := units || sentence;
        continue;
      end if;
      piece := '';
      for word in select w from regexp_split_to_table(sentence, ' ') as w loop
        while char_length(word) > max_chars loop
          if piece <> '' then
            units := units || piece;
            piece := '';
          end if;
          units := units || left(word, max_chars);
          word := substr(word, max_chars + 1);
        end loop;
        continue when word = '';
        if piece = '' then
          piece := word;
        elsif char_length(piece) + 1 + char_length(word) <= max_chars then
          piece := piece || ' ' || word;
        else
          units := units || piece;
          piece := word;
        end if;
      end loop;
      if piece <> '' then
        units := units || piece;
      end if;
    end loop;

    first_in_paragraph := true;
    foreach unit in array units loop
      separator := case when first_in_paragraph then E'\n\n' else ' ' end;
      if current_passage = '' then
        current_passage := unit;
      elsif first_in_paragraph and char_length(current_passage) >= min_chars then
        passages := passages || current_passage;
        current_passage := unit;
      elsif char_length(current_passage) + char_length(separator) + char_length(unit) <= max_chars then
        current_passage := current_passage || separator || unit;
      else
        passages := passages || current_passage;
        current_passage := unit;
      end if;
      first_in_paragraph := false;
    end loop;
  end loop;

  if current_passage <> '' then
    -- A short tail joins the previous passage when that still fits.
    last_index := cardinality(passages);
    if last_index > 0
       and char_length(current_passage) < min_chars
       and char_length(passages[last_index]) + 2 + char_length(current_passage) <= max_chars then
      passages[last_index] := passages[last_index] || E'\n\n' || current_passage;
    else
      passages := passages || current_passage;
    end if;
  end if;

  return query
    select t.n::integer, t.passage
      from unnest(passages) with ordinality as t (passage, n);
end
$$;

comment on function private.split_text_into_passages(text, integer, integer) is
  'Splits text into ordered passages of about min_chars..max_chars characters on paragraph, sentence and word boundaries.';

-- ingest_document_text() runs as the caller, so signed-in callers need it; no API exposes it.
revoke execute on function private.split_text_into_passages(text, integer, integer) from public, anon;
grant execute on function private.split_text_into_passages(text, integer, integer) to authenticated, service_role;


-- Stores a document's extracted text and replaces its passages. Text without a single letter or
-- digit (an image-only or broken PDF) marks the document ERROR with a reason instead. Returns the
-- number of passages written. Runs as the caller, so row level security applies as well.
create or replace function public.ingest_document_text(document_id uuid, text text)
returns integer
language plpgsql
volatile
set search_path = ''
as $$
#variable_conflict use_column
declare
  target_id constant uuid := ingest_document_text.document_id;
  body constant text := ingest_document_text.text;
  written integer;
begin
  if not ((select public.is_admin()) or (select auth.role()) = 'service_role') then
    raise exception 'only admins may process documents' using errcode = '42501';
  end if;

  perform 1 from public.documents d where d.id = target_id for update;
  if not found then
    raise exception 'document % not found', target_id using errcode = 'P0002';
  end if;

  delete from public.document_chunks c where c.document_id = target_id;

  if body is null or body !~ '[[:alnum:]]' then
    update public.documents d
       set status = 'ERROR',
           error = 'Das Dokument enthält keinen lesbaren Text.',
           content = null
     where d.id = target_id;
    return 0;
  end if;

  insert into public.document_chunks (document_id, ordinal, content)
  select target_id, p.ordinal, p.content
    from private.split_text_into_passages(body) p;
  get diagnostics written = row_count;

  update public.documents d
     set status = 'COMPLETED',
         error = null,
         content = body
   where d.id = target_id;
  return written;
end
$$;

comment on function public.ingest_document_text(uuid, text) is
  'Admin only: stores the extracted text, rewrites the passages and sets COMPLETED (or ERROR when the text is empty).';

revoke execute on function public.ingest_document_text(uuid, text) from public, anon;
grant execute on function public.ingest_document_text(uuid, text) to authenticated, service_role;


-- Passages of COMPLETED documents that answer a German question, best first.
--
-- The question goes through the german text search configuration (stemming, stop words dropped);
-- its terms are OR-ed: a passage needs only one of them. Passages are ordered by
--   1. how many distinct question terms they contain,
--   2. ts_rank_cd (cover density, normalised by length),
--   3. document id and passage ordinal, so ties come out the same way every time;
-- except that among passages sharing a single term with the question, those sharing a rare term
-- (found in at most 200 passages) come first: sharing "Atemtechnik" with the question says more
-- than sharing "hilft". rank encodes exactly this order:
--   terms found + 0.5 * ts_rank_cd scaled into [0, 1) + 0.5 for a lone rare term.
--
-- Ranking every passage that shares one common word with the question is what makes a search
-- slow, and the order above lets it rank a narrower candidate set without changing the result:
-- the passages with all terms when there are enough of them, else those with at least two
-- terms, else those plus the passages with a rare term; only when even that is too few does it
-- rank every passage with any term.
--
-- Runs as the caller: admins and the service role see all COMPLETED passages; callers that row
-- level security hides the passages from get no rows.
create or replace function public.search_knowledge(query text, match_count integer default 5)
returns table (
  document_id uuid,
  document_title text,
  chunk_ordinal integer,
  content text,
  rank real
)
language plpgsql
stable
set search_path = ''
-- The candidate checks use LIMIT; without statistics for a term the planner may bet on a
-- sequential scan ending early, which reads the whole table when the term is rare.
set enable_seqscan = off
as $$
#variable_conflict use_column
declare
  wanted constant integer := greatest(1, least(coalesce(match_count, 5), 20));
  rare_limit constant integer := 200;
  terms text[];
  term_queries tsquery[];
  any_term tsquery;
  all_terms tsquery;
  two_terms tsquery;
  rare_terms tsquery;
  candidates tsquery;
  term_count integer;
  found_count integer;
begin
  -- Terms in the order they appear; a long pasted text is cut to its first 16 terms.
  select coalesce(array_agg(t.lexeme order by t.first_position), '{}'),
         -- Lexemes are quoted, so nothing in the question is read as tsquery syntax.
         coalesce(
           array_agg(
             format('''%s''', replace(replace(t.lexeme, '\', '\\'), '''', ''''''))::tsquery
             order by t.first_position
           ),
           '{}'
         )
    into terms, term_queries
    from (
      select v.lexeme, v.positions[1] as first_position
        from unnest(to_tsvector('german', left(coalesce(query, ''), 2000))) as v
       order by v.positions[1]
       limit 16
    ) t;

  term_count := cardinality(terms);
  if term_count = 0 then
    return;
  end if;

  select string_agg(q::text, ' | ')::tsquery, string_agg(q::text, ' & ')::tsquery
    into any_term, all_terms
    from unnest(term_queries) as q;
  candidates := any_term;

  if term_count >= 2 then
    select count(*) into found_count
      from (
        select 1
          from public.document_chunks c
          join public.documents d on d.id = c.document_id
         where c.fts @@ all_terms and d.status = 'COMPLETED'
         limit wanted
      ) enough;

    if found_count >= wanted then
      candidates := all_terms;
    elsif term_count <= 10 then
      select string_agg(format('(%s & %s)', a.q::text, b.q::text), ' | ')::tsquery
        into two_terms
        from unnest(term_queries) with ordinality as a (q, i)
        join unnest(term_queries) with ordinality as b (q, i) on b.i > a.i;

      if term_count > 2 then
        select count(*) into found_count
          from (
            select 1
              from public.document_chunks c
              join public.documents d on d.id = c.document_id
             where c.fts @@ two_terms and d.status = 'COMPLETED'
             limit wanted
          ) enough;
      end if;

      if found_count >= wanted then
        candidates := two_terms;
      else
        -- Counting stops after rare_limit + 1 passages, so a common term costs no more than that.
        select string_agg(t.q::text, ' | ')::tsquery
          into rare_terms
          from unnest(term_queries) as t (q)
         where (
           select count(*)
             from (select 1 from public.document_chunks c where c.fts @@ t.q limit rare_limit + 1) seen
         ) <= rare_limit;

        if rare_terms is not null then
          select count(*) into found_count
            from (
              select 1
                from public.document_chunks c
                join public.documents d on d.id = c.document_id
               where c.fts @@ (two_terms || rare_terms) and d.status = 'COMPLETED'
               limit wanted
            ) enough;
          if found_count >= wanted then
            candidates := two_terms || rare_terms;
          end if;
        end if;
      end if;
    else
      select string_agg(t.q::text, ' | ')::tsquery
        into rare_terms
        from unnest(term_queries) as t (q)
       where (
         select count(*)
           from (select 1 from public.document_chunks c where c.fts @@ t.q limit rare_limit + 1) seen
       ) <= rare_limit;
    end if;
  end if;

  return query
    select s.document_id, s.document_title, s.chunk_ordinal, s.content, s.score
      from (
        select r.*,
               (r.terms_found + 0.5 * r.density + case when r.terms_found = 1 and r.rare then 0.5 else 0 end)::real
                 as score
          from (
            select c.document_id,
                   d.title as document_title,
                   c.ordinal as chunk_ordinal,
                   c.content,
                   (select count(*) from unnest(term_queries) as q where c.fts @@ q) as terms_found,
                   ts_rank_cd(c.fts, any_term, 1 | 32) as density,
                   coalesce(c.fts @@ rare_terms, false) as rare
              from public.document_chunks c
              join public.documents d on d.id = c.document_id
             where c.fts @@ candidates
               and d.status = 'COMPLETED'
          ) r
      ) s
     order by s.score desc, s.document_id, s.chunk_ordinal
     limit wanted;
end
$$;

comment on function public.search_knowledge(text, integer) is
  'Ranked German full-text search over passages of COMPLETED documents; at most match_count (1..20, default 5) rows.';

-- Visitors reach the knowledge only through the coach function (service role); the admin search
-- box calls it signed in. anon may not call it at all.
revoke execute on function public.search_knowledge(text, integer) from public, anon;
grant execute on function public.search_knowledge(text, integer) to authenticated, service_role;
