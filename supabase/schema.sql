-- The database schema after every migration in supabase/migrations/, generated: do not edit.
-- Written by `npm run schema:dump` (pg_dump of the local engine, keeping only what the migrations
-- add to a Supabase database); tests/db/schemaFile.test.ts fails while it is stale. The migrations
-- are the source: a change is a new migration, then this file is written again.

-- Name: private; Type: SCHEMA; Schema: -
CREATE SCHEMA private;

-- Name: fuzzystrmatch; Type: EXTENSION; Schema: -
CREATE EXTENSION IF NOT EXISTS fuzzystrmatch WITH SCHEMA extensions;

-- Name: EXTENSION fuzzystrmatch; Type: COMMENT; Schema: -
COMMENT ON EXTENSION fuzzystrmatch IS 'determine similarities and distance between strings';

-- Name: vector; Type: EXTENSION; Schema: -
CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA extensions;

-- Name: EXTENSION vector; Type: COMMENT; Schema: -
COMMENT ON EXTENSION vector IS 'vector data type and ivfflat and hnsw access methods';

-- Name: search_term; Type: TYPE; Schema: private
CREATE TYPE private.search_term AS (
	lexeme text,
	"position" integer,
	from_previous boolean,
	named boolean,
	query tsquery,
	passages integer,
	related tsquery,
	weight real
);

-- Name: document_status; Type: TYPE; Schema: public
CREATE TYPE public.document_status AS ENUM (
    'PROCESSING',
    'COMPLETED',
    'ERROR'
);

-- Name: client_lock(text); Type: FUNCTION; Schema: private
CREATE FUNCTION private.client_lock(p_client text) RETURNS void
    LANGUAGE sql
    SET search_path TO ''
    AS $$ select pg_advisory_xact_lock(hashtextextended('guard|' || p_client, 0)) $$;

-- Name: count_knowledge_terms(tsvector[], integer); Type: FUNCTION; Schema: private
CREATE FUNCTION private.count_knowledge_terms(vectors tsvector[], sign integer) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  if cardinality(vectors) = 0 then
    return;
  end if;
  insert into private.knowledge_terms as k (lexeme, passages)
  select w, sign * count(*)
    from unnest(vectors) as v, unnest(tsvector_to_array(v)) as w
   group by w
  on conflict (lexeme) do update set passages = k.passages + excluded.passages;
  delete from private.knowledge_terms k where k.passages <= 0;
  insert into private.knowledge_stats as s (singleton, passages, lexemes)
  values (true, sign * cardinality(vectors), sign * (select coalesce(sum(length(v)), 0) from unnest(vectors) as v))
  on conflict (singleton) do update set passages = s.passages + excluded.passages, lexemes = s.lexemes + excluded.lexemes;
end
$$;

-- Name: detect_language(text); Type: FUNCTION; Schema: private
CREATE FUNCTION private.detect_language(source text) RETURNS text
    LANGUAGE sql IMMUTABLE
    SET search_path TO ''
    AS $$
  select case when count(*) filter (where w in ('der', 'die', 'das', 'und', 'ist', 'nicht', 'ich', 'du', 'sie',
                                                'wir', 'mit', 'für', 'auf', 'ein', 'eine', 'den', 'dem', 'zu',
                                                'von', 'sich', 'auch', 'wenn', 'oder', 'bei', 'wie', 'dass'))
                >= count(*) filter (where w in ('the', 'and', 'is', 'of', 'to', 'that', 'it', 'for', 'with',
                                                'as', 'on', 'are', 'this', 'be', 'by', 'or', 'an', 'from',
                                                'if', 'each', 'at', 'which', 'its', 'not', 'was', 'you'))
              then 'de' else 'other' end
    from regexp_split_to_table(lower(left(coalesce(source, ''), 20000)), '[^[:alpha:]]+') as w
$$;

-- Name: document_passages(text, integer); Type: FUNCTION; Schema: private
CREATE FUNCTION private.document_passages(source text, max_chars integer DEFAULT 700) RETURNS TABLE(ordinal integer, heading text, content text)
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO ''
    AS $_$
declare
  blocks text[];
  lines text[];
  line text;
  piece text;
  block_index integer;
  line_index integer;
  is_heading_block boolean;
  starts_section boolean;
  level integer;
  top_heading text := '';
  top_numbered boolean := false;
  sub_heading text := '';
  lead_in text := null;
  table_head text := null;
  context text[] := '{}';
  -- The passage being filled: its lines, their length, how many are its own (not context).
  units text[] := '{}';
  used integer := 0;
  own integer := 0;
  headings text[] := '{}';
  passages text[] := '{}';
begin
  if source is null or max_chars < 100 then
    return;
  end if;

  blocks := regexp_split_to_array(
    replace(replace(replace(source, E'\r\n', E'\n'), E'\r', E'\n'), E'\f', E'\n\n'),
    '\n[ \t]*\n'
  );

  for block_index in 1 .. coalesce(cardinality(blocks), 0) loop
    select coalesce(array_agg(s.l order by s.n), '{}')
      into lines
      from (
        select btrim(regexp_replace(t.l0, '[ ]+', ' ', 'g'), E' \t') as l, t.n
          from unnest(string_to_array(blocks[block_index], E'\n')) with ordinality as t (l0, n)
      ) s
     where s.l ~ '[[:alnum:]]';
    continue when cardinality(lines) = 0;

    is_heading_block := cardinality(lines) <= 3
      and (select bool_and(private.is_heading_line(l, cardinality(lines) = 1)) from unnest(lines) as l);

    for line_index in 1 .. cardinality(lines) loop
      line := lines[line_index];
      -- A heading: its own block, or the first line of a block of entries below it.
      starts_section := is_heading_block
        or (line_index = 1 and cardinality(lines) > 1
            and private.is_heading_line(line, false) and private.is_entry_line(lines[2]));

      if starts_section then
        if own > 0 then
          headings := headings || case when sub_heading = '' then top_heading
                                       when top_heading = '' then sub_heading
                                       else top_heading || ' › ' || sub_heading end;
          passages := passages || array_to_string(units, E'\n');
        end if;
        units := '{}';
        used := 0;
        own := 0;
        lead_in := null;
        table_head := null;
        level := private.heading_level(line);
        if is_heading_block and line_index > 1 then
          -- The further lines of a heading block (a subtitle) belong to the heading.
          if sub_heading <> '' then
            sub_heading := sub_heading || ' – ' || line;
          else
            top_heading := top_heading || ' – ' || line;
          end if;
        elsif level = 1 or (level = 0 and not top_numbered) then
          top_heading := line;
          top_numbered := level > 0;
          sub_heading := '';
        else
          sub_heading := line;
        end if;
        continue;
      end if;

      -- What a list or table that goes on in the next passage repeats at its top: the line that
      -- introduced the list, the table's first row.
      if position(E'\t' in line) > 0 then
        -- A table's first row names its columns when its cells are short names: no numbers, no
        -- sentence end, no list marker (an option list's first entry is no header).
        if line_index = 1 or position(E'\t' in lines[line_index - 1]) = 0 then
          table_head := case
            when line !~ '^\s*(?:[•·▪◦‣∙●○■□►▸*–—-]\s|\d{1,2}[.)]\s|[a-z][.)]\s|--?[[:alnum:]])'
             and (select bool_and(char_length(btrim(c)) between 1 and 30 and c !~ '[[:digit:]]' and btrim(c) !~ '[.!?:]$')
                    from unnest(string_to_array(line, E'\t')) as c) then line
          end;
        end if;
      elsif private.is_entry_line(line) then
        table_head := null;
      else
        table_head := null;
        lead_in := case when line ~ ':\s*$' and char_length(line) <= 150 then line end;
      end if;
      context := array_remove(array[lead_in, table_head], null);

      for piece in select p from private.split_long_unit(line, max_chars) as p loop
        if own > 0 and used + 1 + char_length(piece) > max_chars then
          headings := headings || case when sub_heading = '' then top_heading
                                       when top_heading = '' then sub_heading
                                       else top_heading || ' › ' || sub_heading end;
          passages := passages || array_to_string(units, E'\n');
          units := array(select c from unnest(context) as c where c <> piece);
          used := coalesce((select sum(char_length(u) + 1) from unnest(units) as u), 0)::integer;
          own := 0;
        end if;
        units := units || piece;
        used := used + 1 + char_length(piece);
        -- A lead-in on its own does not make a passage.
        if piece is distinct from lead_in or line_index < cardinality(lines) then
          own := own + 1;
        end if;
      end loop;
    end loop;

    -- A lead-in ending its block stays context for the entries of the next block, no longer.
    if not (lines[cardinality(lines)] ~ ':\s*$') then
      lead_in := null;
    end if;
  end loop;

  if own > 0 then
    headings := headings || case when sub_heading = '' then top_heading
                                 when top_heading = '' then sub_heading
                                 else top_heading || ' › ' || sub_heading end;
    passages := passages || array_to_string(units, E'\n');
  end if;

  return query
    select t.n::integer, t.h, t.p
      from unnest(headings, passages) with ordinality as t (h, p, n);
end
$_$;

-- Name: FUNCTION document_passages(source text, max_chars integer); Type: COMMENT; Schema: private
COMMENT ON FUNCTION private.document_passages(source text, max_chars integer) IS 'A document''s text as ordered passages under their headings: whole units (paragraphs, list entries, table rows) up to max_chars characters.';

-- Name: document_stuck_after(); Type: FUNCTION; Schema: private
CREATE FUNCTION private.document_stuck_after() RETURNS interval
    LANGUAGE sql IMMUTABLE
    SET search_path TO ''
    AS $$ select interval '5 minutes' $$;

-- Name: foreign_nouns(tsvector, uuid, text, private.search_term[]); Type: FUNCTION; Schema: private
CREATE FUNCTION private.foreign_nouns(fts tsvector, document_id uuid, language text, terms private.search_term[]) RETURNS jsonb
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS $$
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

-- Name: forget_lost_answer(); Type: FUNCTION; Schema: private
CREATE FUNCTION private.forget_lost_answer() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  if new.answered_by is null then
    new.answered_title := null;
    new.answered_at := null;
  end if;
  return new;
end
$$;

-- Name: fused_candidates(private.search_term[], extensions.vector, integer, real); Type: FUNCTION; Schema: private
CREATE FUNCTION private.fused_candidates(terms private.search_term[], query_embedding extensions.vector, wanted integer, floor_score real DEFAULT 0.3) RETURNS TABLE(chunk_id bigint, language text, score real, density real, matched text[], fusion double precision)
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $$
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

-- Name: german_lexemes(text); Type: FUNCTION; Schema: private
CREATE FUNCTION private.german_lexemes(source text) RETURNS tsvector
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO ''
    AS $$
  select to_tsvector('german'::regconfig, private.german_spelling(source))
$$;

-- Name: FUNCTION german_lexemes(source text); Type: COMMENT; Schema: private
COMMENT ON FUNCTION private.german_lexemes(source text) IS 'The searchable words of a text: German spelling normalised, then the german text search configuration (stemming, stop words).';

-- Name: german_spelling(text); Type: FUNCTION; Schema: private
CREATE FUNCTION private.german_spelling(source text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO ''
    AS $$
  -- chr(1) marks a u or y between two vowels for the moment, so it is not read as part of "ue".
  select replace(
           replace(replace(
             regexp_replace(
               regexp_replace(lower(coalesce(source, '')), '([aeiouyäöü])([uy])(?=[aeiouyäöü])', '\1\2' || chr(1), 'g'),
               '(?<!q)ue', 'ü', 'g'),
             'ae', 'ä'), 'oe', 'ö'),
           chr(1), '')
$$;

-- Name: FUNCTION german_spelling(source text); Type: COMMENT; Schema: private
COMMENT ON FUNCTION private.german_spelling(source text) IS 'Lower case with ae/oe/ue read as ä/ö/ü (not after q, not for a u between vowels), as Postgres 18''s German stemmer reads them.';

-- Name: heading_level(text); Type: FUNCTION; Schema: private
CREATE FUNCTION private.heading_level(line text) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO ''
    AS $$
  select coalesce(array_length(regexp_split_to_array(substring(line from '^(\d{1,2}(?:\.\d{1,2})*)\.?\s'), '\.'), 1), 0)
$$;

-- Name: is_entry_line(text); Type: FUNCTION; Schema: private
CREATE FUNCTION private.is_entry_line(line text) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO ''
    AS $$
  select position(E'\t' in line) > 0
      or line ~ '^\s*(?:[•·▪◦‣∙●○■□►▸*–—-]\s|\d{1,2}[.)]\s|[a-z][.)]\s|--?[[:alnum:]])'
$$;

-- Name: is_heading_line(text, boolean); Type: FUNCTION; Schema: private
CREATE FUNCTION private.is_heading_line(line text, alone boolean) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO ''
    AS $_$
  select line ~ '[[:alpha:]]'
     and position(E'\t' in line) = 0
     and (alone or not private.is_entry_line(line))
     and line !~ '^\s*(?:[•·▪◦‣∙●○■□►▸*–—-]\s|--?[[:alnum:]])'
     and (
       (char_length(line) <= 90 and line !~ '[.,;:!?…)"“”»]\s*$')
       or (alone and char_length(line) <= 150 and line ~ '\?\s*$')
     )
$_$;

-- Name: joined_codes(text); Type: FUNCTION; Schema: private
CREATE FUNCTION private.joined_codes(question text) RETURNS TABLE(lexeme text, parts text[])
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS $$
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

-- Name: keep_first_rating(); Type: FUNCTION; Schema: private
CREATE FUNCTION private.keep_first_rating() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  if old.rating is not null and new.rating is distinct from old.rating then
    raise exception 'conversation % is already rated', old.id using errcode = '23514';
  end if;
  return new;
end
$$;

-- Name: lexical_candidates(private.search_term[], integer, real); Type: FUNCTION; Schema: private
CREATE FUNCTION private.lexical_candidates(terms private.search_term[], wanted integer, floor_score real) RETURNS TABLE(chunk_id bigint, language text, score real, standalone real, density real, matched text[])
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $$
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

-- Name: mark_answered_open_questions(); Type: FUNCTION; Schema: private
CREATE FUNCTION private.mark_answered_open_questions() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  update public.open_questions q
     set answered_by = new.id,
         answered_title = new.title,
         answered_at = now()
   where q.answered_by is null
     and exists (select from public.search_knowledge(q.question, 5) s where s.document_id = new.id);
  return null;
end
$$;

-- Name: minute_retry_after(integer, integer, double precision, integer); Type: FUNCTION; Schema: private
CREATE FUNCTION private.minute_retry_after(p_count integer, p_previous integer, p_elapsed double precision, p_limit integer) RETURNS integer
    LANGUAGE sql IMMUTABLE
    SET search_path TO ''
    AS $$
  select greatest(1, ceil(
    case
      when p_count + 1 <= p_limit and p_previous > 0
        then 60 * (1 - (p_limit - p_count - 1)::double precision / p_previous) - p_elapsed
      else (60 - p_elapsed) + 60 * greatest(0, 1 - (p_limit - 1)::double precision / greatest(p_count, 1))
    end
  )::integer)
$$;

-- Name: number_digits(text); Type: FUNCTION; Schema: private
CREATE FUNCTION private.number_digits(word text) RETURNS text
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    SET search_path TO ''
    AS $_$
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
$_$;

-- Name: open_question_key(text); Type: FUNCTION; Schema: private
CREATE FUNCTION private.open_question_key(question text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO ''
    AS $$
  select array_to_string(pg_catalog.tsvector_to_array(private.german_lexemes(question)), ' ')
$$;

-- Name: FUNCTION open_question_key(question text); Type: COMMENT; Schema: private
COMMENT ON FUNCTION private.open_question_key(question text) IS 'The lexemes of a question (private.german_lexemes), sorted and space-separated: what makes two questions the same open question.';

-- Name: open_question_retention(); Type: FUNCTION; Schema: private
CREATE FUNCTION private.open_question_retention() RETURNS interval
    LANGUAGE sql IMMUTABLE
    SET search_path TO ''
    AS $$ select interval '30 days' $$;

-- Name: FUNCTION open_question_retention(); Type: COMMENT; Schema: private
COMMENT ON FUNCTION private.open_question_retention() IS 'How long an open question is kept after it was last asked.';

-- Name: passage_evidence(tsvector, private.search_term[]); Type: FUNCTION; Schema: private
CREATE FUNCTION private.passage_evidence(fts tsvector, terms private.search_term[]) RETURNS jsonb
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO ''
    AS $$
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

-- Name: release_expired_spend(text); Type: FUNCTION; Schema: private
CREATE FUNCTION private.release_expired_spend(p_kind text) RETURNS integer
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  expired uuid[];
begin
  select array_agg(o.id order by o.id) into expired
    from (select r.id from public.spend_reservations r
           where r.kind = p_kind and r.created_at < now() - private.reservation_lifetime()
             for update skip locked) o;
  if expired is null then
    return 0;
  end if;
  perform 1 from public.daily_spend s
   where s.kind = p_kind and s.day in (select r.day from public.spend_reservations r where r.id = any (expired))
   order by s.day for update;
  update public.daily_spend s set amount = greatest(0, s.amount - e.total)
    from (select r.day, sum(r.amount) as total from public.spend_reservations r where r.id = any (expired) group by r.day) e
   where s.day = e.day and s.kind = p_kind;
  perform 1 from public.client_spend c
    join (select r.day, unnest(r.scopes) as key from public.spend_reservations r where r.id = any (expired)) k
      on c.day = k.day and c.client = k.key
   where c.kind = p_kind
   order by c.day, c.client for update of c;
  update public.client_spend c set amount = greatest(0, c.amount - e.total)
    from (select r.day, key, sum(r.amount) as total
            from public.spend_reservations r, unnest(r.scopes) as key
           where r.id = any (expired) group by r.day, key) e
   where c.day = e.day and c.client = e.key and c.kind = p_kind;
  delete from public.spend_reservations r where r.id = any (expired);
  return cardinality(expired);
end
$$;

-- Name: require_document_admin(text); Type: FUNCTION; Schema: private
CREATE FUNCTION private.require_document_admin(action text) RETURNS void
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $$
begin
  if not ((select public.is_admin()) or (select auth.role()) = 'service_role') then
    raise exception 'only admins may % documents', action using errcode = '42501';
  end if;
end
$$;

-- Name: reservation_lifetime(); Type: FUNCTION; Schema: private
CREATE FUNCTION private.reservation_lifetime() RETURNS interval
    LANGUAGE sql IMMUTABLE
    SET search_path TO ''
    AS $$ select interval '10 minutes' $$;

-- Name: search_terms(text, text); Type: FUNCTION; Schema: private
CREATE FUNCTION private.search_terms(question text, previous text DEFAULT NULL::text) RETURNS SETOF private.search_term
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS $$
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

-- Name: spend_alert(date, text, bigint, bigint, boolean); Type: FUNCTION; Schema: private
CREATE FUNCTION private.spend_alert(p_day date, p_kind text, p_amount bigint, p_cap bigint, p_refused boolean DEFAULT false) RETURNS json
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  reached smallint[] := case
    when p_refused or p_amount >= p_cap then array[80, 100]::smallint[]
    when p_amount * 100 >= p_cap * 80 then array[80]::smallint[]
    else array[]::smallint[]
  end;
  clients integer;
  raised smallint[];
begin
  if cardinality(reached) = 0 or not exists (
    select 1 from unnest(reached) t
     where not exists (select 1 from public.spend_alerts a where a.day = p_day and a.kind = p_kind and a.threshold = t)
  ) then
    return null;
  end if;
  select count(*) into clients
    from public.client_spend c
   where c.day = p_day and c.kind = p_kind and c.scope = 'client' and c.amount > 0;
  with inserted as (
    insert into public.spend_alerts (day, kind, threshold, amount, cap, clients)
    select p_day, p_kind, t, p_amount, p_cap, clients from unnest(reached) t
    on conflict (day, kind, threshold) do nothing
    returning threshold
  )
  select array_agg(i.threshold order by i.threshold) into raised from inserted i;
  if raised is null then
    return null;
  end if;
  return json_build_object('kind', p_kind, 'thresholds', raised, 'amount', p_amount, 'cap', p_cap, 'clients', clients);
end
$$;

-- Name: spend_budgets(jsonb); Type: FUNCTION; Schema: private
CREATE FUNCTION private.spend_budgets(p_budgets jsonb) RETURNS TABLE(scope text, key text, budget bigint)
    LANGUAGE sql IMMUTABLE
    SET search_path TO ''
    AS $$
  select b.scope, b.key, b.budget
    from jsonb_to_recordset(coalesce(p_budgets, '[]'::jsonb)) as b(scope text, key text, budget bigint)
   where b.key is not null and b.budget is not null
   order by b.key
$$;

-- Name: split_long_unit(text, integer); Type: FUNCTION; Schema: private
CREATE FUNCTION private.split_long_unit(unit text, max_chars integer) RETURNS SETOF text
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO ''
    AS $$
declare
  sentence text;
  word text;
  piece text := '';
begin
  if char_length(unit) <= max_chars then
    return next unit;
    return;
  end if;
  for sentence in select s from private.unit_sentences(unit) as s loop
    -- A sentence that does not fit beside the piece starts the next piece.
    if piece <> '' and char_length(piece) + 1 + char_length(sentence) > max_chars then
      return next piece;
      piece := '';
    end if;
    if char_length(sentence) <= max_chars then
      piece := case when piece = '' then sentence else piece || ' ' || sentence end;
    else
      -- Longer than a passage: between words, a word longer than that inside itself.
      for word in select w from regexp_split_to_table(sentence, ' ') as w loop
        while char_length(word) > max_chars loop
          if piece <> '' then
            return next piece;
            piece := '';
          end if;
          return next left(word, max_chars);
          word := substr(word, max_chars + 1);
        end loop;
        continue when word = '';
        if piece = '' then
          piece := word;
        elsif char_length(piece) + 1 + char_length(word) <= max_chars then
          piece := piece || ' ' || word;
        else
          return next piece;
          piece := word;
        end if;
      end loop;
    end if;
    -- A sentence ends the piece once the piece is half full; short sentences share one.
    if char_length(piece) >= max_chars / 2 then
      return next piece;
      piece := '';
    end if;
  end loop;
  if piece <> '' then
    return next piece;
  end if;
end
$$;

-- Name: stamp_processing_start(); Type: FUNCTION; Schema: private
CREATE FUNCTION private.stamp_processing_start() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  if new.status = 'PROCESSING' and old.status is distinct from 'PROCESSING' then
    new.processing_started_at := now();
  end if;
  return new;
end
$$;

-- Name: stand_ins(text); Type: FUNCTION; Schema: private
CREATE FUNCTION private.stand_ins(word text) RETURNS text[]
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $$
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

-- Name: sweep_open_questions(timestamp with time zone); Type: FUNCTION; Schema: private
CREATE FUNCTION private.sweep_open_questions(swept_at timestamp with time zone DEFAULT now()) RETURNS integer
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  removed integer;
begin
  delete from public.open_questions q
   where q.last_asked_at < sweep_open_questions.swept_at - private.open_question_retention();
  get diagnostics removed = row_count;
  return removed;
end
$$;

-- Name: FUNCTION sweep_open_questions(swept_at timestamp with time zone); Type: COMMENT; Schema: private
COMMENT ON FUNCTION private.sweep_open_questions(swept_at timestamp with time zone) IS 'Deletes open questions last asked more than private.open_question_retention() before swept_at (default now); returns how many.';

-- Name: term_query(text); Type: FUNCTION; Schema: private
CREATE FUNCTION private.term_query(word text, OUT query tsquery, OUT passages integer, OUT related tsquery, OUT related_passages integer) RETURNS record
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS $_$
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
$_$;

-- Name: thesaurus_share(); Type: FUNCTION; Schema: private
CREATE FUNCTION private.thesaurus_share() RETURNS real
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO ''
    AS $$ select 0.6::real $$;

-- Name: track_knowledge_terms(); Type: FUNCTION; Schema: private
CREATE FUNCTION private.track_knowledge_terms() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  if tg_op = 'INSERT' then
    perform private.count_knowledge_terms(array(select n.fts from new_rows n), 1);
  elsif tg_op = 'DELETE' then
    perform private.count_knowledge_terms(array(select o.fts from old_rows o), -1);
  else
    -- Only rows whose words changed (storing an embedding changes none).
    perform private.count_knowledge_terms(
      array(select o.fts from old_rows o join new_rows n on n.id = o.id where n.fts is distinct from o.fts), -1);
    perform private.count_knowledge_terms(
      array(select n.fts from old_rows o join new_rows n on n.id = o.id where n.fts is distinct from o.fts), 1);
  end if;
  return null;
end
$$;

-- Name: unit_sentences(text); Type: FUNCTION; Schema: private
CREATE FUNCTION private.unit_sentences(unit text) RETURNS SETOF text
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    SET search_path TO ''
    AS $_$
declare
  part text;
  sentence text := '';
begin
  for part in
    select s from regexp_split_to_table(btrim(regexp_replace(unit, '\s+', ' ', 'g')), '(?<=[.!?…]|[.!?…]["“”»)])\s+(?=[[:upper:][:digit:]"„“‚«»(\[–-])') as s
  loop
    sentence := case when sentence = '' then part else sentence || ' ' || part end;
    -- The '.' of "z.", "ca.", "Dr.", "3." goes on into the next part: no sentence ends there.
    continue when lower(sentence) ~ '(^|[^[:alnum:]])([[:alpha:]]|abs|allg|bspw|bzgl|bzw|ca|dr|evtl|ggf|ggü|hr|fr|inkl|jh|max|mind|mio|mrd|nr|prof|sog|str|tel|vgl|zzgl|[[:digit:]]{1,2})\.$';
    return next sentence;
    sentence := '';
  end loop;
  if sentence <> '' then
    return next sentence;
  end if;
end
$_$;

-- Name: vector_candidates(extensions.vector, integer); Type: FUNCTION; Schema: private
CREATE FUNCTION private.vector_candidates(query_embedding extensions.vector, nearest integer) RETURNS TABLE(chunk_id bigint, language text, similarity real)
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $$
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

-- Name: admin_stats(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.admin_stats() RETURNS json
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $$
declare
  -- Calendar months as the operators in Germany see them.
  this_month constant timestamptz := date_trunc('month', now(), 'Europe/Berlin');
  last_month constant timestamptz := date_trunc('month', this_month - interval '1 day', 'Europe/Berlin');
  started_this_month bigint;
  started_last_month bigint;
begin
  if not ((select public.is_admin()) or (select auth.role()) = 'service_role') then
    raise exception 'only admins may read the statistics' using errcode = '42501';
  end if;

  select count(*) filter (where c.started_at >= this_month),
         count(*) filter (where c.started_at >= last_month and c.started_at < this_month)
    into started_this_month, started_last_month
    from public.conversations c
   where c.started_at >= last_month;

  return json_build_object(
    'totalUsers', (select count(*) from public.users),
    'activeConversations',
      (select count(*) from public.conversations c where c.last_message_at >= now() - interval '24 hours'),
    'documentsProcessed', (select count(*) from public.documents d where d.status = 'COMPLETED'),
    'averageRating',
      (select round(avg(c.rating)::numeric, 1) from public.conversations c where c.rating is not null),
    'conversationGrowth',
      case
        when started_last_month = 0 then null
        else round((started_this_month - started_last_month) * 100.0 / started_last_month, 1)
      end
  );
end
$$;

-- Name: FUNCTION admin_stats(); Type: COMMENT; Schema: public
COMMENT ON FUNCTION public.admin_stats() IS 'Admin only: {totalUsers, activeConversations (24 h), documentsProcessed, averageRating, conversationGrowth (% vs last month)}.';

-- Name: admit_request(text, text, integer, integer, integer, integer, text, bigint, bigint, jsonb); Type: FUNCTION; Schema: public
CREATE FUNCTION public.admit_request(p_fn text, p_client text, p_per_minute integer, p_per_day integer, p_max_concurrent integer DEFAULT 0, p_lease_seconds integer DEFAULT 120, p_kind text DEFAULT NULL::text, p_amount bigint DEFAULT 0, p_cap bigint DEFAULT NULL::bigint, p_budgets jsonb DEFAULT NULL::jsonb) RETURNS json
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  now_ts constant timestamptz := now();
  today constant date := (select public.spend_day());
  minute_start constant timestamptz := date_trunc('minute', now_ts);
  day_start constant timestamptz := date_trunc('day', now_ts, 'Europe/Berlin');
  seconds_to_tomorrow constant integer :=
    greatest(1, ceil(extract(epoch from (day_start + interval '1 day') - now_ts))::integer);
  minute_elapsed constant double precision := extract(epoch from now_ts - minute_start);
  day_total bigint;
  spent_scope text;
  minute_count integer;
  previous_count integer;
  carried double precision;
  day_count integer;
  streams integer;
  reserved json;
  lease uuid;
begin
  if (select auth.role()) is distinct from 'service_role' then
    raise exception 'only the functions may admit requests' using errcode = '42501';
  end if;

  -- Requests of one client are admitted one after the other, whichever instance serves them.
  perform private.client_lock(p_client);

  if p_kind is not null then
    -- What an instance that died left reserved is given back before anything is judged by it.
    perform private.release_expired_spend(p_kind);
    day_total := coalesce((select s.amount from public.daily_spend s where s.day = today and s.kind = p_kind), 0);
    if day_total >= p_cap then
      return json_build_object('allowed', false, 'reason', 'spend_cap', 'kind', p_kind, 'retryAfter', seconds_to_tomorrow,
        'alert', private.spend_alert(today, p_kind, day_total, p_cap, true));
    end if;
    select b.scope into spent_scope
      from private.spend_budgets(p_budgets) b
      join public.client_spend c on c.day = today and c.client = b.key and c.kind = p_kind
     where c.amount >= b.budget
     limit 1;
    if spent_scope is not null then
      return json_build_object('allowed', false, 'reason', 'budget', 'scope', spent_scope, 'kind', p_kind,
        'retryAfter', seconds_to_tomorrow);
    end if;
  end if;

  insert into public.request_counts as r (fn, client, window_kind, window_start, count)
  values (p_fn, p_client, 'minute', minute_start, 1)
  on conflict (fn, client, window_kind, window_start) do update set count = r.count + 1
  returning r.count into minute_count;
  previous_count := coalesce((select r.count from public.request_counts r
    where r.fn = p_fn and r.client = p_client and r.window_kind = 'minute'
      and r.window_start = minute_start - interval '1 minute'), 0);
  carried := previous_count * (1 - minute_elapsed / 60);
  if minute_count + carried > p_per_minute then
    return json_build_object('allowed', false, 'reason', 'rate_minute',
      'retryAfter', private.minute_retry_after(minute_count, previous_count, minute_elapsed, p_per_minute));
  end if;

  insert into public.request_counts as r (fn, client, window_kind, window_start, count)
  values (p_fn, p_client, 'day', day_start, 1)
  on conflict (fn, client, window_kind, window_start) do update set count = r.count + 1
  returning r.count into day_count;
  if day_count > p_per_day then
    return json_build_object('allowed', false, 'reason', 'rate_day', 'retryAfter', seconds_to_tomorrow);
  end if;

  if p_max_concurrent > 0 then
    delete from public.active_streams a where a.fn = p_fn and a.client = p_client and a.expires_at <= now_ts;
    select count(*) into streams from public.active_streams a where a.fn = p_fn and a.client = p_client;
    if streams >= p_max_concurrent then
      return json_build_object('allowed', false, 'reason', 'concurrency', 'retryAfter', 5);
    end if;
  end if;

  if p_kind is not null and p_amount > 0 then
    reserved := public.reserve_spend(p_kind, p_amount, p_cap, p_budgets);
    if (reserved ->> 'allowed')::boolean is not true then
      return reserved;
    end if;
  end if;

  if p_max_concurrent > 0 then
    insert into public.active_streams (fn, client, expires_at)
    values (p_fn, p_client, now_ts + make_interval(secs => p_lease_seconds))
    returning id into lease;
  end if;

  -- Old rows go now and then; the tables stay small without a scheduled job.
  if random() < 0.01 then
    delete from public.request_counts r where r.window_start < now_ts - interval '2 days';
    delete from public.client_spend c where c.day < today - 2;
    delete from public.spend_reservations s where s.day < today - 2;
    delete from public.spend_alerts a where a.day < today - 30;
  end if;

  return json_build_object('allowed', true, 'lease', lease, 'reservation', reserved ->> 'reservation',
    'alert', reserved -> 'alert');
end
$$;

-- Name: documents; Type: TABLE; Schema: public
CREATE TABLE public.documents (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    title text NOT NULL,
    type text DEFAULT 'PDF'::text NOT NULL,
    url text NOT NULL,
    status public.document_status DEFAULT 'PROCESSING'::public.document_status NOT NULL,
    created_by uuid DEFAULT auth.uid(),
    content text,
    file_size bigint,
    storage_path text,
    error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    language text DEFAULT 'de'::text NOT NULL,
    processing_started_at timestamp with time zone DEFAULT now() NOT NULL,
    deleting_since timestamp with time zone,
    title_fts tsvector GENERATED ALWAYS AS (private.german_lexemes(regexp_replace(title, '\.pdf$|[_.]'::text, ' '::text, 'gi'::text))) STORED,
    CONSTRAINT documents_error_reason CHECK (((status = 'ERROR'::public.document_status) = (error IS NOT NULL))),
    CONSTRAINT documents_file_size_check CHECK ((file_size >= 0)),
    CONSTRAINT documents_language CHECK ((language = ANY (ARRAY['de'::text, 'other'::text]))),
    CONSTRAINT documents_title_check CHECK (((char_length(title) >= 1) AND (char_length(title) <= 500))),
    CONSTRAINT documents_type_check CHECK ((type = 'PDF'::text))
);

-- Name: TABLE documents; Type: COMMENT; Schema: public
COMMENT ON TABLE public.documents IS 'Knowledge-base files: an uploaded PDF, its URL and storage key, processing status, extracted text and language.';

-- Name: COLUMN documents.url; Type: COMMENT; Schema: public
COMMENT ON COLUMN public.documents.url IS 'URL of the file on the Storage API''s authenticated route (the bucket is private); the admin area opens it through a signed URL.';

-- Name: COLUMN documents.content; Type: COMMENT; Schema: public
COMMENT ON COLUMN public.documents.content IS 'Extracted text (null until processed); searched through document_chunks.';

-- Name: COLUMN documents.file_size; Type: COMMENT; Schema: public
COMMENT ON COLUMN public.documents.file_size IS 'Size of the uploaded file in bytes.';

-- Name: COLUMN documents.storage_path; Type: COMMENT; Schema: public
COMMENT ON COLUMN public.documents.storage_path IS 'Object key in the document-uploads bucket, used to delete the file.';

-- Name: COLUMN documents.error; Type: COMMENT; Schema: public
COMMENT ON COLUMN public.documents.error IS 'Why processing failed; set exactly when status is ERROR.';

-- Name: COLUMN documents.language; Type: COMMENT; Schema: public
COMMENT ON COLUMN public.documents.language IS 'The language of the document''s text: de (German) or other; set by ingest_document_text().';

-- Name: COLUMN documents.processing_started_at; Type: COMMENT; Schema: public
COMMENT ON COLUMN public.documents.processing_started_at IS 'When the current (or last) processing run began: set at upload and whenever the status becomes PROCESSING again.';

-- Name: COLUMN documents.deleting_since; Type: COMMENT; Schema: public
COMMENT ON COLUMN public.documents.deleting_since IS 'Set when a delete has begun (passages dropped, file being removed); the row itself goes last.';

-- Name: COLUMN documents.title_fts; Type: COMMENT; Schema: public
COMMENT ON COLUMN public.documents.title_fts IS 'The lexemes of the title (extension and separators dropped), context for its passages.';

-- Name: begin_document_delete(uuid); Type: FUNCTION; Schema: public
CREATE FUNCTION public.begin_document_delete(document_id uuid) RETURNS public.documents
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
#variable_conflict use_column
declare
  target_id constant uuid := begin_document_delete.document_id;
  doc public.documents;
begin
  perform private.require_document_admin('delete');

  perform 1 from public.documents d where d.id = target_id for update;
  if not found then
    raise exception 'document % not found', target_id using errcode = 'PT404';
  end if;

  delete from public.document_chunks c where c.document_id = target_id;
  update public.documents d
     set deleting_since = coalesce(d.deleting_since, now())
   where d.id = target_id
  returning * into doc;
  return doc;
end
$$;

-- Name: FUNCTION begin_document_delete(document_id uuid); Type: COMMENT; Schema: public
COMMENT ON FUNCTION public.begin_document_delete(document_id uuid) IS 'Admin only: first step of a delete (row marked deleting_since, passages dropped); file and row follow.';

-- Name: begin_document_reprocessing(uuid); Type: FUNCTION; Schema: public
CREATE FUNCTION public.begin_document_reprocessing(document_id uuid) RETURNS public.documents
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
#variable_conflict use_column
declare
  target_id constant uuid := begin_document_reprocessing.document_id;
  doc public.documents;
begin
  perform private.require_document_admin('process');

  select * into doc from public.documents d where d.id = target_id for update;
  if not found then
    raise exception 'document % not found', target_id using errcode = 'PT404';
  end if;
  if doc.deleting_since is not null then
    raise exception 'document % is being deleted', target_id using errcode = 'PT410';
  end if;
  if doc.status = 'COMPLETED' then
    raise exception 'document % is already processed', target_id using errcode = 'PT409';
  end if;
  if doc.status = 'PROCESSING' and doc.processing_started_at > now() - private.document_stuck_after() then
    raise exception 'document % is still being processed', target_id using errcode = 'PT409';
  end if;

  delete from public.document_chunks c where c.document_id = target_id;
  update public.documents d
     set status = 'PROCESSING',
         error = null,
         content = null,
         processing_started_at = now()
   where d.id = target_id
  returning * into doc;
  return doc;
end
$$;

-- Name: FUNCTION begin_document_reprocessing(document_id uuid); Type: COMMENT; Schema: public
COMMENT ON FUNCTION public.begin_document_reprocessing(document_id uuid) IS 'Admin only: claims an ERROR or stuck PROCESSING document for processing again (PROCESSING, passages dropped).';

-- Name: clear_open_questions(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.clear_open_questions() RETURNS integer
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  removed integer;
begin
  if not ((select public.is_admin()) or (select auth.role()) = 'service_role') then
    raise exception 'only admins may delete the open questions' using errcode = '42501';
  end if;
  -- A condition that is always true: Supabase's sessions refuse a DELETE without any (pg-safeupdate).
  delete from public.open_questions q where true;
  get diagnostics removed = row_count;
  return removed;
end
$$;

-- Name: FUNCTION clear_open_questions(); Type: COMMENT; Schema: public
COMMENT ON FUNCTION public.clear_open_questions() IS 'Admin only: deletes every open question ("Alle löschen"); returns how many.';

-- Name: count_answered_question(uuid); Type: FUNCTION; Schema: public
CREATE FUNCTION public.count_answered_question(conversation_id uuid) RETURNS uuid
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  if (select auth.role()) is distinct from 'service_role' then
    raise exception 'only the coach function counts messages' using errcode = '42501';
  end if;
  insert into public.conversations as c (id, message_count)
  values (count_answered_question.conversation_id, 1)
  on conflict (id) do update
    set message_count = c.message_count + 1,
        last_message_at = greatest(now(), c.last_message_at);
  return count_answered_question.conversation_id;
end
$$;

-- Name: FUNCTION count_answered_question(conversation_id uuid); Type: COMMENT; Schema: public
COMMENT ON FUNCTION public.count_answered_question(conversation_id uuid) IS 'Counts an answered question in the conversation (one more message, last activity now), starting the conversation with this id when there is none yet. Service role only (the coach function).';

-- Name: ensure_active_voice_config(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.ensure_active_voice_config() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  if not exists (select from public.voice_configs where is_active) then
    raise exception 'exactly one voice configuration must stay active'
      using errcode = '23514', table = 'voice_configs';
  end if;
  return null;
end
$$;

-- Name: FUNCTION ensure_active_voice_config(); Type: COMMENT; Schema: public
COMMENT ON FUNCTION public.ensure_active_voice_config() IS 'Constraint trigger: keeps one active voice configuration.';

-- Name: handle_auth_user_change(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.handle_auth_user_change() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
begin
  if tg_op = 'DELETE' then
    delete from public.users where id = old.id;
    return old;
  end if;
  if new.is_anonymous then
    return new;
  end if;

  insert into public.users (id, email, role, created_at)
  values (new.id, new.email, new.raw_app_meta_data ->> 'role', coalesce(new.created_at, now()))
  on conflict (id) do update
    set email = excluded.email,
        role = excluded.role;
  return new;
end
$$;

-- Name: FUNCTION handle_auth_user_change(); Type: COMMENT; Schema: public
COMMENT ON FUNCTION public.handle_auth_user_change() IS 'Trigger on auth.users: keeps public.users in step.';

-- Name: ingest_document_text(uuid, text); Type: FUNCTION; Schema: public
CREATE FUNCTION public.ingest_document_text(document_id uuid, text text) RETURNS integer
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
#variable_conflict use_column
declare
  target_id constant uuid := ingest_document_text.document_id;
  body constant text := ingest_document_text.text;
  marked timestamptz;
  written integer;
begin
  perform private.require_document_admin('process');

  select d.deleting_since into marked from public.documents d where d.id = target_id for update;
  if not found then
    raise exception 'document % not found', target_id using errcode = 'PT404';
  end if;
  if marked is not null then
    raise exception 'document % is being deleted', target_id using errcode = 'PT410';
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

  insert into public.document_chunks (document_id, ordinal, heading, content)
  select target_id, p.ordinal, p.heading, p.content
    from private.document_passages(body) p;
  get diagnostics written = row_count;

  update public.documents d
     set status = 'COMPLETED',
         error = null,
         content = body,
         language = private.detect_language(body)
   where d.id = target_id;
  return written;
end
$$;

-- Name: FUNCTION ingest_document_text(document_id uuid, text text); Type: COMMENT; Schema: public
COMMENT ON FUNCTION public.ingest_document_text(document_id uuid, text text) IS 'Admin only: stores the extracted text, rewrites the passages along the text''s structure and sets COMPLETED (or ERROR when the text is empty).';

-- Name: is_admin(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.is_admin() RETURNS boolean
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS $$
  select coalesce(((select auth.jwt()) -> 'app_metadata' ->> 'role') = 'admin', false)
$$;

-- Name: FUNCTION is_admin(); Type: COMMENT; Schema: public
COMMENT ON FUNCTION public.is_admin() IS 'True when the request''s JWT carries app_metadata.role = admin. Used by policies and admin-only functions.';

-- Name: only_anonymous_sign_ups(jsonb); Type: FUNCTION; Schema: public
CREATE FUNCTION public.only_anonymous_sign_ups(event jsonb) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $$
begin
  if coalesce((event -> 'user' ->> 'is_anonymous')::boolean, false) then
    return '{}'::jsonb;
  end if;
  return jsonb_build_object('error', jsonb_build_object(
    'http_code', 403,
    'message', 'Sign-ups are closed: operators are created by the site''s owner.'));
end
$$;

-- Name: FUNCTION only_anonymous_sign_ups(event jsonb); Type: COMMENT; Schema: public
COMMENT ON FUNCTION public.only_anonymous_sign_ups(event jsonb) IS 'Before-user-created auth hook: lets anonymous sign-ins through and refuses every other sign-up.';

-- Name: rate_conversation(uuid, smallint); Type: FUNCTION; Schema: public
CREATE FUNCTION public.rate_conversation(p_conversation uuid, p_rating smallint) RETURNS text
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  if (select auth.role()) is distinct from 'service_role' then
    raise exception 'only the coach function rates conversations' using errcode = '42501';
  end if;
  update public.conversations c set rating = p_rating where c.id = p_conversation and c.rating is null;
  if found then
    return 'rated';
  end if;
  if exists (select 1 from public.conversations c where c.id = p_conversation) then
    return 'already_rated';
  end if;
  return 'not_found';
end
$$;

-- Name: FUNCTION rate_conversation(p_conversation uuid, p_rating smallint); Type: COMMENT; Schema: public
COMMENT ON FUNCTION public.rate_conversation(p_conversation uuid, p_rating smallint) IS 'Stores the visitor''s 1-5 rating once: rated, already_rated or not_found. Service role only (the coach function).';

-- Name: record_open_question(text, text, integer); Type: FUNCTION; Schema: public
CREATE FUNCTION public.record_open_question(question text, client text, per_day integer) RETURNS text
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  asked constant text := left(btrim(record_open_question.question), 300);
  admitted json;
begin
  if (select auth.role()) is distinct from 'service_role' then
    raise exception 'only the coach function records open questions' using errcode = '42501';
  end if;
  if not coalesce((select s.record_open_questions from public.system_settings s), true) then
    return 'off';
  end if;
  if not exists (
    select from pg_catalog.unnest(pg_catalog.tsvector_to_array(private.german_lexemes(asked))) as l(lexeme)
     where not exists (select from private.question_words w where w.lexeme = l.lexeme)
  ) then
    return 'no_topic';
  end if;

  admitted := public.admit_request(
    p_fn => 'open_questions',
    p_client => record_open_question.client,
    p_per_minute => greatest(record_open_question.per_day, 1),
    p_per_day => greatest(record_open_question.per_day, 1)
  );
  if (admitted ->> 'allowed')::boolean is not true then
    return 'limited';
  end if;

  insert into public.open_questions as o (question)
  values (asked)
  on conflict (lexemes) do update
    set ask_count = o.ask_count + 1,
        last_asked_at = greatest(now(), o.last_asked_at),
        answered_by = null,
        answered_title = null,
        answered_at = null;
  return 'kept';
end
$$;

-- Name: FUNCTION record_open_question(question text, client text, per_day integer); Type: COMMENT; Schema: public
COMMENT ON FUNCTION public.record_open_question(question text, client text, per_day integer) IS 'Service role only (the coach function): keeps or counts a question the knowledge base could not answer; returns kept, off, no_topic or limited.';

-- Name: record_spend(text, bigint); Type: FUNCTION; Schema: public
CREATE FUNCTION public.record_spend(p_kind text, p_amount bigint) RETURNS bigint
    LANGUAGE sql
    SET search_path TO ''
    AS $$
  insert into public.daily_spend as s (day, kind, amount)
  values ((select public.spend_day()), p_kind, greatest(p_amount, 0))
  on conflict (day, kind) do update set amount = s.amount + greatest(excluded.amount, 0)
  returning s.amount
$$;

-- Name: refresh_document_text(uuid, text); Type: FUNCTION; Schema: public
CREATE FUNCTION public.refresh_document_text(document_id uuid, text text) RETURNS integer
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
#variable_conflict use_column
declare
  target_id constant uuid := refresh_document_text.document_id;
  body constant text := refresh_document_text.text;
  doc public.documents;
  kept jsonb;
  written integer;
begin
  perform private.require_document_admin('process');

  select * into doc from public.documents d where d.id = target_id for update;
  if not found then
    raise exception 'document % not found', target_id using errcode = 'PT404';
  end if;
  if doc.deleting_since is not null then
    raise exception 'document % is being deleted', target_id using errcode = 'PT410';
  end if;
  if doc.status <> 'COMPLETED' then
    raise exception 'document % is not processed', target_id using errcode = 'PT409';
  end if;
  if body is null or body !~ '[[:alnum:]]' then
    raise exception 'the new text of document % has nothing readable', target_id using errcode = 'PT422';
  end if;

  -- The embeddings of the passages so far, by their text.
  select coalesce(jsonb_object_agg(e.content, e.embedding), '{}'::jsonb) into kept
    from (select distinct on (c.content) c.content, c.embedding::text as embedding
            from public.document_chunks c
           where c.document_id = target_id and c.embedding is not null) e;

  delete from public.document_chunks c where c.document_id = target_id;
  insert into public.document_chunks (document_id, ordinal, heading, content, embedding)
  select target_id, p.ordinal, p.heading, p.content, (kept ->> p.content)::extensions.vector
    from private.document_passages(body) p;
  get diagnostics written = row_count;

  update public.documents d
     set content = body,
         language = private.detect_language(body)
   where d.id = target_id;
  return written;
end
$$;

-- Name: FUNCTION refresh_document_text(document_id uuid, text text); Type: COMMENT; Schema: public
COMMENT ON FUNCTION public.refresh_document_text(document_id uuid, text text) IS 'Admin only: replaces a COMPLETED document''s text and passages with a new extraction in one step; unchanged passages keep their embeddings.';

-- Name: release_stream(uuid); Type: FUNCTION; Schema: public
CREATE FUNCTION public.release_stream(p_lease uuid) RETURNS void
    LANGUAGE sql
    SET search_path TO ''
    AS $$ delete from public.active_streams a where a.id = p_lease $$;

-- Name: reserve_spend(text, bigint, bigint, jsonb); Type: FUNCTION; Schema: public
CREATE FUNCTION public.reserve_spend(p_kind text, p_amount bigint, p_cap bigint, p_budgets jsonb) RETURNS json
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  today constant date := (select public.spend_day());
  seconds_to_tomorrow constant integer := greatest(1, ceil(extract(epoch from
    (date_trunc('day', now(), 'Europe/Berlin') + interval '1 day') - now()))::integer);
  wanted constant bigint := greatest(coalesce(p_amount, 0), 0);
  day_total bigint;
  entry record;
  counted text[] := '{}';
  owner text;
  reserved uuid;
begin
  if (select auth.role()) is distinct from 'service_role' then
    raise exception 'only the functions may reserve spend' using errcode = '42501';
  end if;
  perform private.release_expired_spend(p_kind);

  -- The day's cap first, so that a request over both is told the cap (everyone waits for tomorrow).
  insert into public.daily_spend as s (day, kind, amount)
  select today, p_kind, wanted where wanted <= p_cap
  on conflict (day, kind) do update set amount = s.amount + excluded.amount
    where s.amount + excluded.amount <= p_cap
  returning s.amount into day_total;
  if not found then
    day_total := coalesce((select s.amount from public.daily_spend s where s.day = today and s.kind = p_kind), 0);
    return json_build_object('allowed', false, 'reason', 'spend_cap', 'kind', p_kind, 'retryAfter', seconds_to_tomorrow,
      'alert', private.spend_alert(today, p_kind, day_total, p_cap, true));
  end if;

  for entry in select * from private.spend_budgets(p_budgets) loop
    insert into public.client_spend as c (day, client, kind, amount, scope)
    select today, entry.key, p_kind, wanted, entry.scope where wanted <= entry.budget
    on conflict (day, client, kind) do update set amount = c.amount + excluded.amount
      where c.amount + excluded.amount <= entry.budget;
    if not found then
      -- Given back within the same transaction: no other request ever saw it.
      update public.client_spend c set amount = c.amount - wanted
       where c.day = today and c.kind = p_kind and c.client = any (counted);
      update public.daily_spend s set amount = s.amount - wanted where s.day = today and s.kind = p_kind;
      return json_build_object('allowed', false, 'reason', 'budget', 'scope', entry.scope, 'kind', p_kind,
        'retryAfter', seconds_to_tomorrow);
    end if;
    counted := counted || entry.key;
    if entry.scope = 'client' then
      owner := entry.key;
    end if;
  end loop;

  insert into public.spend_reservations (day, client, kind, amount, scopes)
  values (today, coalesce(owner, counted[1], ''), p_kind, wanted, counted)
  returning id into reserved;
  return json_build_object('allowed', true, 'reservation', reserved, 'alert', private.spend_alert(today, p_kind, day_total, p_cap));
end
$$;

-- Name: search_knowledge(text, integer, text, extensions.vector); Type: FUNCTION; Schema: public
CREATE FUNCTION public.search_knowledge(query text, match_count integer DEFAULT 5, previous text DEFAULT NULL::text, query_embedding extensions.vector DEFAULT NULL::extensions.vector) RETURNS TABLE(document_id uuid, document_title text, chunk_ordinal integer, heading text, content text, rank real, matched_terms text[], language text, evidence jsonb)
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $$
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

-- Name: FUNCTION search_knowledge(query text, match_count integer, previous text, query_embedding extensions.vector); Type: COMMENT; Schema: public
COMMENT ON FUNCTION public.search_knowledge(query text, match_count integer, previous text, query_embedding extensions.vector) IS 'Passages of COMPLETED documents that answer a German question (weighted share of its terms at or above 0.3; slips, compounds and synonyms matched; fused with the passages nearest to query_embedding when given), best first; at most match_count (1..5, default 5). previous: the previous user turn for follow-ups.';

-- Name: set_updated_at(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.set_updated_at() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  new.updated_at := now();
  return new;
end
$$;

-- Name: FUNCTION set_updated_at(); Type: COMMENT; Schema: public
COMMENT ON FUNCTION public.set_updated_at() IS 'Trigger: stamps updated_at on every update.';

-- Name: settle_spend(uuid, bigint); Type: FUNCTION; Schema: public
CREATE FUNCTION public.settle_spend(p_reservation uuid, p_amount bigint) RETURNS bigint
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  reservation public.spend_reservations;
  actual constant bigint := greatest(coalesce(p_amount, 0), 0);
begin
  if (select auth.role()) is distinct from 'service_role' then
    raise exception 'only the functions may settle spend' using errcode = '42501';
  end if;
  delete from public.spend_reservations r where r.id = p_reservation returning r.* into reservation;
  if reservation.id is null then
    return null;
  end if;
  update public.daily_spend s set amount = greatest(0, s.amount + actual - reservation.amount)
   where s.day = reservation.day and s.kind = reservation.kind;
  perform 1 from public.client_spend c
   where c.day = reservation.day and c.kind = reservation.kind and c.client = any (reservation.scopes)
   order by c.client for update;
  update public.client_spend c set amount = greatest(0, c.amount + actual - reservation.amount)
   where c.day = reservation.day and c.kind = reservation.kind and c.client = any (reservation.scopes);
  return actual;
end
$$;

-- Name: spend_day(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.spend_day() RETURNS date
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS $$ select (now() at time zone 'Europe/Berlin')::date $$;

-- Name: store_passage_embeddings(jsonb); Type: FUNCTION; Schema: public
CREATE FUNCTION public.store_passage_embeddings(items jsonb) RETURNS integer
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
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

-- Name: FUNCTION store_passage_embeddings(items jsonb); Type: COMMENT; Schema: public
COMMENT ON FUNCTION public.store_passage_embeddings(items jsonb) IS 'Stores passage embeddings [{document_id, ordinal, embedding}] (embed function, service role); returns the number of passages written.';

-- Name: usage_today(); Type: FUNCTION; Schema: public
CREATE FUNCTION public.usage_today() RETURNS json
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $$
declare
  today constant date := (select public.spend_day());
begin
  if (select auth.role()) is distinct from 'service_role' then
    raise exception 'only the functions may read the usage' using errcode = '42501';
  end if;
  return json_build_object(
    'modelTokens', coalesce((select s.amount from public.daily_spend s where s.day = today and s.kind = 'model_tokens'), 0),
    'ttsCharacters', coalesce((select s.amount from public.daily_spend s where s.day = today and s.kind = 'tts_characters'), 0),
    'sttSeconds', coalesce((select s.amount from public.daily_spend s where s.day = today and s.kind = 'stt_seconds'), 0),
    'embeddingTokens', coalesce((select s.amount from public.daily_spend s where s.day = today and s.kind = 'embedding_tokens'), 0),
    'clients', json_build_object(
      'modelTokens', (select count(*) from public.client_spend c where c.day = today and c.kind = 'model_tokens' and c.scope = 'client' and c.amount > 0),
      'ttsCharacters', (select count(*) from public.client_spend c where c.day = today and c.kind = 'tts_characters' and c.scope = 'client' and c.amount > 0),
      'sttSeconds', (select count(*) from public.client_spend c where c.day = today and c.kind = 'stt_seconds' and c.scope = 'client' and c.amount > 0)
    ),
    'alerts', coalesce((
      select json_agg(json_build_object('kind', a.kind, 'threshold', a.threshold, 'amount', a.amount, 'cap', a.cap,
                                        'clients', a.clients, 'raisedAt', a.raised_at) order by a.kind, a.threshold)
        from public.spend_alerts a where a.day = today), '[]'::json)
  );
end
$$;

-- Name: context_words; Type: TABLE; Schema: private
CREATE TABLE private.context_words (
    lexeme text NOT NULL
);

-- Name: TABLE context_words; Type: COMMENT; Schema: private
COMMENT ON TABLE private.context_words IS 'Lexemes of words that set the scene (times, seasons, people close to the visitor); an unknown one is not taken for the question''s topic.';

-- Name: knowledge_stats; Type: TABLE; Schema: private
CREATE TABLE private.knowledge_stats (
    singleton boolean DEFAULT true NOT NULL,
    passages bigint DEFAULT 0 NOT NULL,
    lexemes bigint DEFAULT 0 NOT NULL,
    CONSTRAINT knowledge_stats_singleton_check CHECK (singleton)
);

-- Name: TABLE knowledge_stats; Type: COMMENT; Schema: private
COMMENT ON TABLE private.knowledge_stats IS 'One row: the number of passages and the sum of their lexeme counts (for the average passage length).';

-- Name: knowledge_terms; Type: TABLE; Schema: private
CREATE TABLE private.knowledge_terms (
    lexeme text NOT NULL,
    passages integer DEFAULT 0 NOT NULL,
    reversed text GENERATED ALWAYS AS (reverse(lexeme)) STORED
);

-- Name: TABLE knowledge_terms; Type: COMMENT; Schema: private
COMMENT ON TABLE private.knowledge_terms IS 'Every lexeme of the passages with the number of passages holding it; the search''s word weights, typo repair and compound matching read it.';

-- Name: COLUMN knowledge_terms.reversed; Type: COMMENT; Schema: private
COMMENT ON COLUMN private.knowledge_terms.reversed IS 'The lexeme backwards, so compounds ending in a word are found through an index.';

-- Name: noun_words; Type: TABLE; Schema: private
CREATE TABLE private.noun_words (
    word text NOT NULL
);

-- Name: TABLE noun_words; Type: COMMENT; Schema: private
COMMENT ON TABLE private.noun_words IS 'German words that are only ever nouns, in lower case (wngerman, GPL-2.0-or-later; scripts/nounWords.ts): the nouns of a question written in lower case.';

-- Name: question_words; Type: TABLE; Schema: private
CREATE TABLE private.question_words (
    lexeme text NOT NULL
);

-- Name: TABLE question_words; Type: COMMENT; Schema: private
COMMENT ON TABLE private.question_words IS 'Lexemes of words that ask rather than name a topic; the search gives them no weight.';

-- Name: synonyms; Type: TABLE; Schema: private
CREATE TABLE private.synonyms (
    grp integer NOT NULL,
    lexeme text NOT NULL,
    evidence_only boolean DEFAULT false NOT NULL
);

-- Name: TABLE synonyms; Type: COMMENT; Schema: private
COMMENT ON TABLE private.synonyms IS 'German synonym groups as lexemes; a word finds the other words of its groups (evidence words only in that direction).';

-- Name: thesaurus; Type: TABLE; Schema: private
CREATE TABLE private.thesaurus (
    grp integer NOT NULL,
    lexeme text NOT NULL
);

-- Name: TABLE thesaurus; Type: COMMENT; Schema: private
COMMENT ON TABLE private.thesaurus IS 'German synonym sets as lexemes (OpenThesaurus, LGPL 2.1; scripts/thesaurus.ts); a word finds the other lexemes of its sets at a lower weight.';

-- Name: active_streams; Type: TABLE; Schema: public
CREATE TABLE public.active_streams (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    fn text NOT NULL,
    client text NOT NULL,
    expires_at timestamp with time zone NOT NULL
);

-- Name: client_spend; Type: TABLE; Schema: public
CREATE TABLE public.client_spend (
    day date NOT NULL,
    client text NOT NULL,
    kind text NOT NULL,
    amount bigint DEFAULT 0 NOT NULL,
    scope text DEFAULT 'client'::text NOT NULL,
    CONSTRAINT client_spend_amount_check CHECK ((amount >= 0)),
    CONSTRAINT client_spend_kind_check CHECK ((kind = ANY (ARRAY['model_tokens'::text, 'tts_characters'::text, 'stt_seconds'::text, 'embedding_tokens'::text]))),
    CONSTRAINT client_spend_scope_check CHECK ((scope = ANY (ARRAY['client'::text, 'network'::text, 'session'::text])))
);

-- Name: TABLE client_spend; Type: COMMENT; Schema: public
COMMENT ON TABLE public.client_spend IS 'Spend per day (Europe/Berlin), kind and budget (a client, its network or a visitor session), reservations included; each budget is checked against its row.';

-- Name: COLUMN client_spend.scope; Type: COMMENT; Schema: public
COMMENT ON COLUMN public.client_spend.scope IS 'Whose budget the row is: client (an address, IPv6 by /64), network (IPv4 /24, IPv6 /48) or session (session:<user id>).';

-- Name: conversations; Type: TABLE; Schema: public
CREATE TABLE public.conversations (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    started_at timestamp with time zone DEFAULT now() NOT NULL,
    last_message_at timestamp with time zone DEFAULT now() NOT NULL,
    message_count integer DEFAULT 0 NOT NULL,
    rating smallint,
    CONSTRAINT conversations_last_message_after_start CHECK ((last_message_at >= started_at)),
    CONSTRAINT conversations_message_count_check CHECK ((message_count >= 0)),
    CONSTRAINT conversations_rating_check CHECK (((rating >= 1) AND (rating <= 5)))
);

-- Name: TABLE conversations; Type: COMMENT; Schema: public
COMMENT ON TABLE public.conversations IS 'Anonymous coach sessions: start, last activity, message count and an optional 1-5 rating. No personal data.';

-- Name: COLUMN conversations.rating; Type: COMMENT; Schema: public
COMMENT ON COLUMN public.conversations.rating IS 'Visitor''s rating of the conversation, 1 to 5; null when not rated.';

-- Name: daily_spend; Type: TABLE; Schema: public
CREATE TABLE public.daily_spend (
    day date NOT NULL,
    kind text NOT NULL,
    amount bigint DEFAULT 0 NOT NULL,
    CONSTRAINT daily_spend_kind_check CHECK ((kind = ANY (ARRAY['model_tokens'::text, 'tts_characters'::text, 'stt_seconds'::text, 'embedding_tokens'::text])))
);

-- Name: document_chunks; Type: TABLE; Schema: public
CREATE TABLE public.document_chunks (
    id bigint NOT NULL,
    document_id uuid NOT NULL,
    ordinal integer NOT NULL,
    content text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    embedding extensions.vector(1536),
    heading text DEFAULT ''::text NOT NULL,
    fts tsvector GENERATED ALWAYS AS ((setweight(private.german_lexemes(heading), 'A'::"char") || private.german_lexemes(content))) STORED,
    CONSTRAINT document_chunks_content_check CHECK ((content <> ''::text)),
    CONSTRAINT document_chunks_ordinal_check CHECK ((ordinal >= 1))
);

-- Name: TABLE document_chunks; Type: COMMENT; Schema: public
COMMENT ON TABLE public.document_chunks IS 'Passages of a document''s text along its structure (under a heading, at most about 700 characters, whole list entries and table rows), searched by search_knowledge().';

-- Name: COLUMN document_chunks.ordinal; Type: COMMENT; Schema: public
COMMENT ON COLUMN public.document_chunks.ordinal IS 'Position of the passage in its document, starting at 1.';

-- Name: COLUMN document_chunks.embedding; Type: COMMENT; Schema: public
COMMENT ON COLUMN public.document_chunks.embedding IS 'The passage''s embedding (text-embedding-3-small), written by the embed function; null until embedded. New passages (a new or processed-again document) start without one.';

-- Name: COLUMN document_chunks.heading; Type: COMMENT; Schema: public
COMMENT ON COLUMN public.document_chunks.heading IS 'The heading the passage stands under (a numbered section''s parent first: "2 Optionen › 2.1 Beenden"); empty before the first heading.';

-- Name: COLUMN document_chunks.fts; Type: COMMENT; Schema: public
COMMENT ON COLUMN public.document_chunks.fts IS 'The lexemes of heading (weight A) and content, from private.german_lexemes().';

-- Name: document_chunks_id_seq; Type: SEQUENCE; Schema: public
ALTER TABLE public.document_chunks ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.document_chunks_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

-- Name: open_questions; Type: TABLE; Schema: public
CREATE TABLE public.open_questions (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    question text NOT NULL,
    lexemes text GENERATED ALWAYS AS (private.open_question_key(question)) STORED NOT NULL,
    ask_count integer DEFAULT 1 NOT NULL,
    first_asked_at timestamp with time zone DEFAULT now() NOT NULL,
    last_asked_at timestamp with time zone DEFAULT now() NOT NULL,
    answered_by uuid,
    answered_title text,
    answered_at timestamp with time zone,
    CONSTRAINT open_questions_answer_whole CHECK ((((answered_by IS NULL) AND (answered_title IS NULL) AND (answered_at IS NULL)) OR ((answered_by IS NOT NULL) AND (answered_title IS NOT NULL) AND (answered_at IS NOT NULL)))),
    CONSTRAINT open_questions_ask_count_check CHECK ((ask_count >= 1)),
    CONSTRAINT open_questions_last_after_first CHECK ((last_asked_at >= first_asked_at)),
    CONSTRAINT open_questions_question_check CHECK (((char_length(question) >= 1) AND (char_length(question) <= 300)))
);

-- Name: TABLE open_questions; Type: COMMENT; Schema: public
COMMENT ON TABLE public.open_questions IS 'Questions the coach could not answer from its knowledge: scrubbed text only, counted by lexemes, no link to a visitor or conversation; deleted 30 days after last asked.';

-- Name: COLUMN open_questions.question; Type: COMMENT; Schema: public
COMMENT ON COLUMN public.open_questions.question IS 'The question as first asked, scrubbed of e-mail addresses, phone numbers, links, long numbers and names; at most 300 characters.';

-- Name: COLUMN open_questions.answered_by; Type: COMMENT; Schema: public
COMMENT ON COLUMN public.open_questions.answered_by IS 'A document processed after the question was asked that the search now finds for it; null when none (or when it was deleted).';

-- Name: request_counts; Type: TABLE; Schema: public
CREATE TABLE public.request_counts (
    fn text NOT NULL,
    client text NOT NULL,
    window_kind text NOT NULL,
    window_start timestamp with time zone NOT NULL,
    count integer DEFAULT 0 NOT NULL,
    CONSTRAINT request_counts_window_kind_check CHECK ((window_kind = ANY (ARRAY['minute'::text, 'day'::text])))
);

-- Name: spend_alerts; Type: TABLE; Schema: public
CREATE TABLE public.spend_alerts (
    day date NOT NULL,
    kind text NOT NULL,
    threshold smallint NOT NULL,
    amount bigint NOT NULL,
    cap bigint NOT NULL,
    clients integer NOT NULL,
    raised_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT spend_alerts_kind_check CHECK ((kind = ANY (ARRAY['model_tokens'::text, 'tts_characters'::text, 'stt_seconds'::text, 'embedding_tokens'::text]))),
    CONSTRAINT spend_alerts_threshold_check CHECK ((threshold = ANY (ARRAY[80, 100])))
);

-- Name: TABLE spend_alerts; Type: COMMENT; Schema: public
COMMENT ON TABLE public.spend_alerts IS 'A daily cap reached 80 % or 100 % (a request refused for the cap): what had been spent then and by how many clients; once per day, kind and threshold.';

-- Name: spend_reservations; Type: TABLE; Schema: public
CREATE TABLE public.spend_reservations (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    day date NOT NULL,
    client text NOT NULL,
    kind text NOT NULL,
    amount bigint NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    scopes text[] DEFAULT '{}'::text[] NOT NULL,
    CONSTRAINT spend_reservations_amount_check CHECK ((amount >= 0)),
    CONSTRAINT spend_reservations_kind_check CHECK ((kind = ANY (ARRAY['model_tokens'::text, 'tts_characters'::text, 'stt_seconds'::text, 'embedding_tokens'::text])))
);

-- Name: TABLE spend_reservations; Type: COMMENT; Schema: public
COMMENT ON TABLE public.spend_reservations IS 'Open reservations: the largest cost of a request under way, counted in client_spend and daily_spend until settled, or released after ten minutes.';

-- Name: COLUMN spend_reservations.scopes; Type: COMMENT; Schema: public
COMMENT ON COLUMN public.spend_reservations.scopes IS 'The keys of the budget rows (public.client_spend) the reservation is counted in.';

-- Name: system_settings; Type: TABLE; Schema: public
CREATE TABLE public.system_settings (
    id boolean DEFAULT true NOT NULL,
    record_open_questions boolean DEFAULT true NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    voice_input_via_provider boolean DEFAULT false NOT NULL,
    CONSTRAINT system_settings_id_check CHECK (id)
);

-- Name: TABLE system_settings; Type: COMMENT; Schema: public
COMMENT ON TABLE public.system_settings IS 'The operator''s switches, exactly one row. record_open_questions: whether unanswered questions are kept (off deletes nothing).';

-- Name: COLUMN system_settings.voice_input_via_provider; Type: COMMENT; Schema: public
COMMENT ON COLUMN public.system_settings.voice_input_via_provider IS 'Every browser streams the visitor''s voice to the speech-to-text provider (stt-stream) instead of using its own speech recognition.';

-- Name: users; Type: TABLE; Schema: public
CREATE TABLE public.users (
    id uuid NOT NULL,
    email text,
    role text,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

-- Name: TABLE users; Type: COMMENT; Schema: public
COMMENT ON TABLE public.users IS 'Operator profiles mirrored from auth.users (email, app_metadata.role). Written only by the auth trigger.';

-- Name: COLUMN users.role; Type: COMMENT; Schema: public
COMMENT ON COLUMN public.users.role IS 'app_metadata.role of the auth user, e.g. admin; null for a plain account.';

-- Name: voice_configs; Type: TABLE; Schema: public
CREATE TABLE public.voice_configs (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    stability double precision DEFAULT 0.25 NOT NULL,
    similarity_boost double precision DEFAULT 0.75 NOT NULL,
    style double precision DEFAULT 0.45 NOT NULL,
    use_speaker_boost boolean DEFAULT true NOT NULL,
    pitch double precision DEFAULT 1 NOT NULL,
    speed double precision DEFAULT 1 NOT NULL,
    is_active boolean DEFAULT false NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT voice_configs_pitch_check CHECK (((pitch >= (0.5)::double precision) AND (pitch <= (2)::double precision))),
    CONSTRAINT voice_configs_similarity_boost_check CHECK (((similarity_boost >= (0)::double precision) AND (similarity_boost <= (1)::double precision))),
    CONSTRAINT voice_configs_speed_check CHECK (((speed >= (0.5)::double precision) AND (speed <= (2)::double precision))),
    CONSTRAINT voice_configs_stability_check CHECK (((stability >= (0)::double precision) AND (stability <= (1)::double precision))),
    CONSTRAINT voice_configs_style_check CHECK (((style >= (0)::double precision) AND (style <= (1)::double precision)))
);

-- Name: TABLE voice_configs; Type: COMMENT; Schema: public
COMMENT ON TABLE public.voice_configs IS 'Voice settings of the coach (slider values). The row with is_active = true is the one in use.';

-- Name: context_words context_words_pkey; Type: CONSTRAINT; Schema: private
ALTER TABLE ONLY private.context_words
    ADD CONSTRAINT context_words_pkey PRIMARY KEY (lexeme);

-- Name: knowledge_stats knowledge_stats_pkey; Type: CONSTRAINT; Schema: private
ALTER TABLE ONLY private.knowledge_stats
    ADD CONSTRAINT knowledge_stats_pkey PRIMARY KEY (singleton);

-- Name: knowledge_terms knowledge_terms_pkey; Type: CONSTRAINT; Schema: private
ALTER TABLE ONLY private.knowledge_terms
    ADD CONSTRAINT knowledge_terms_pkey PRIMARY KEY (lexeme);

-- Name: noun_words noun_words_pkey; Type: CONSTRAINT; Schema: private
ALTER TABLE ONLY private.noun_words
    ADD CONSTRAINT noun_words_pkey PRIMARY KEY (word);

-- Name: question_words question_words_pkey; Type: CONSTRAINT; Schema: private
ALTER TABLE ONLY private.question_words
    ADD CONSTRAINT question_words_pkey PRIMARY KEY (lexeme);

-- Name: synonyms synonyms_pkey; Type: CONSTRAINT; Schema: private
ALTER TABLE ONLY private.synonyms
    ADD CONSTRAINT synonyms_pkey PRIMARY KEY (grp, lexeme);

-- Name: thesaurus thesaurus_pkey; Type: CONSTRAINT; Schema: private
ALTER TABLE ONLY private.thesaurus
    ADD CONSTRAINT thesaurus_pkey PRIMARY KEY (grp, lexeme);

-- Name: active_streams active_streams_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.active_streams
    ADD CONSTRAINT active_streams_pkey PRIMARY KEY (id);

-- Name: client_spend client_spend_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.client_spend
    ADD CONSTRAINT client_spend_pkey PRIMARY KEY (day, client, kind);

-- Name: conversations conversations_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.conversations
    ADD CONSTRAINT conversations_pkey PRIMARY KEY (id);

-- Name: daily_spend daily_spend_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.daily_spend
    ADD CONSTRAINT daily_spend_pkey PRIMARY KEY (day, kind);

-- Name: document_chunks document_chunks_document_ordinal_key; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.document_chunks
    ADD CONSTRAINT document_chunks_document_ordinal_key UNIQUE (document_id, ordinal);

-- Name: document_chunks document_chunks_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.document_chunks
    ADD CONSTRAINT document_chunks_pkey PRIMARY KEY (id);

-- Name: documents documents_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.documents
    ADD CONSTRAINT documents_pkey PRIMARY KEY (id);

-- Name: documents documents_storage_path_key; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.documents
    ADD CONSTRAINT documents_storage_path_key UNIQUE (storage_path);

-- Name: open_questions open_questions_lexemes_key; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.open_questions
    ADD CONSTRAINT open_questions_lexemes_key UNIQUE (lexemes);

-- Name: open_questions open_questions_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.open_questions
    ADD CONSTRAINT open_questions_pkey PRIMARY KEY (id);

-- Name: request_counts request_counts_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.request_counts
    ADD CONSTRAINT request_counts_pkey PRIMARY KEY (fn, client, window_kind, window_start);

-- Name: spend_alerts spend_alerts_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.spend_alerts
    ADD CONSTRAINT spend_alerts_pkey PRIMARY KEY (day, kind, threshold);

-- Name: spend_reservations spend_reservations_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.spend_reservations
    ADD CONSTRAINT spend_reservations_pkey PRIMARY KEY (id);

-- Name: system_settings system_settings_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.system_settings
    ADD CONSTRAINT system_settings_pkey PRIMARY KEY (id);

-- Name: users users_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (id);

-- Name: voice_configs voice_configs_pkey; Type: CONSTRAINT; Schema: public
ALTER TABLE ONLY public.voice_configs
    ADD CONSTRAINT voice_configs_pkey PRIMARY KEY (id);

-- Name: knowledge_terms_prefix_idx; Type: INDEX; Schema: private
CREATE INDEX knowledge_terms_prefix_idx ON private.knowledge_terms USING btree (lexeme text_pattern_ops);

-- Name: knowledge_terms_reversed_idx; Type: INDEX; Schema: private
CREATE INDEX knowledge_terms_reversed_idx ON private.knowledge_terms USING btree (reversed text_pattern_ops);

-- Name: synonyms_lexeme_idx; Type: INDEX; Schema: private
CREATE INDEX synonyms_lexeme_idx ON private.synonyms USING btree (lexeme);

-- Name: thesaurus_lexeme_idx; Type: INDEX; Schema: private
CREATE INDEX thesaurus_lexeme_idx ON private.thesaurus USING btree (lexeme);

-- Name: active_streams_client; Type: INDEX; Schema: public
CREATE INDEX active_streams_client ON public.active_streams USING btree (fn, client);

-- Name: conversations_last_message_at_idx; Type: INDEX; Schema: public
CREATE INDEX conversations_last_message_at_idx ON public.conversations USING btree (last_message_at);

-- Name: conversations_started_at_idx; Type: INDEX; Schema: public
CREATE INDEX conversations_started_at_idx ON public.conversations USING btree (started_at);

-- Name: document_chunks_embedding_idx; Type: INDEX; Schema: public
CREATE INDEX document_chunks_embedding_idx ON public.document_chunks USING hnsw (embedding extensions.vector_cosine_ops);

-- Name: document_chunks_fts_idx; Type: INDEX; Schema: public
CREATE INDEX document_chunks_fts_idx ON public.document_chunks USING gin (fts);

-- Name: documents_created_at_idx; Type: INDEX; Schema: public
CREATE INDEX documents_created_at_idx ON public.documents USING btree (created_at DESC);

-- Name: documents_created_by_idx; Type: INDEX; Schema: public
CREATE INDEX documents_created_by_idx ON public.documents USING btree (created_by);

-- Name: documents_processing_idx; Type: INDEX; Schema: public
CREATE INDEX documents_processing_idx ON public.documents USING btree (processing_started_at) WHERE (status = 'PROCESSING'::public.document_status);

-- Name: open_questions_answered_by_idx; Type: INDEX; Schema: public
CREATE INDEX open_questions_answered_by_idx ON public.open_questions USING btree (answered_by);

-- Name: open_questions_last_asked_at_idx; Type: INDEX; Schema: public
CREATE INDEX open_questions_last_asked_at_idx ON public.open_questions USING btree (last_asked_at);

-- Name: spend_reservations_open_since; Type: INDEX; Schema: public
CREATE INDEX spend_reservations_open_since ON public.spend_reservations USING btree (kind, created_at);

-- Name: voice_configs_single_active_idx; Type: INDEX; Schema: public
CREATE UNIQUE INDEX voice_configs_single_active_idx ON public.voice_configs USING btree (is_active) WHERE is_active;

-- Name: users on_auth_user_change; Type: TRIGGER; Schema: auth
CREATE TRIGGER on_auth_user_change AFTER INSERT OR DELETE OR UPDATE OF email, raw_app_meta_data ON auth.users FOR EACH ROW EXECUTE FUNCTION public.handle_auth_user_change();

-- Name: conversations conversations_rated_once; Type: TRIGGER; Schema: public
CREATE TRIGGER conversations_rated_once BEFORE UPDATE OF rating ON public.conversations FOR EACH ROW EXECUTE FUNCTION private.keep_first_rating();

-- Name: document_chunks document_chunks_count_deleted; Type: TRIGGER; Schema: public
CREATE TRIGGER document_chunks_count_deleted AFTER DELETE ON public.document_chunks REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION private.track_knowledge_terms();

-- Name: document_chunks document_chunks_count_inserted; Type: TRIGGER; Schema: public
CREATE TRIGGER document_chunks_count_inserted AFTER INSERT ON public.document_chunks REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION private.track_knowledge_terms();

-- Name: document_chunks document_chunks_count_updated; Type: TRIGGER; Schema: public
CREATE TRIGGER document_chunks_count_updated AFTER UPDATE ON public.document_chunks REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION private.track_knowledge_terms();

-- Name: documents documents_mark_answered_open_questions; Type: TRIGGER; Schema: public
CREATE TRIGGER documents_mark_answered_open_questions AFTER UPDATE OF status ON public.documents FOR EACH ROW WHEN (((new.status = 'COMPLETED'::public.document_status) AND (old.status IS DISTINCT FROM 'COMPLETED'::public.document_status) AND (new.deleting_since IS NULL))) EXECUTE FUNCTION private.mark_answered_open_questions();

-- Name: documents documents_set_updated_at; Type: TRIGGER; Schema: public
CREATE TRIGGER documents_set_updated_at BEFORE UPDATE ON public.documents FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

-- Name: documents documents_stamp_processing_start; Type: TRIGGER; Schema: public
CREATE TRIGGER documents_stamp_processing_start BEFORE UPDATE ON public.documents FOR EACH ROW EXECUTE FUNCTION private.stamp_processing_start();

-- Name: open_questions open_questions_forget_lost_answer; Type: TRIGGER; Schema: public
CREATE TRIGGER open_questions_forget_lost_answer BEFORE UPDATE OF answered_by ON public.open_questions FOR EACH ROW EXECUTE FUNCTION private.forget_lost_answer();

-- Name: system_settings system_settings_set_updated_at; Type: TRIGGER; Schema: public
CREATE TRIGGER system_settings_set_updated_at BEFORE UPDATE ON public.system_settings FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

-- Name: voice_configs voice_configs_keep_one_active; Type: TRIGGER; Schema: public
CREATE CONSTRAINT TRIGGER voice_configs_keep_one_active AFTER DELETE OR UPDATE OF is_active ON public.voice_configs DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION public.ensure_active_voice_config();

-- Name: voice_configs voice_configs_set_updated_at; Type: TRIGGER; Schema: public
CREATE TRIGGER voice_configs_set_updated_at BEFORE UPDATE ON public.voice_configs FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

-- Name: document_chunks document_chunks_document_id_fkey; Type: FK CONSTRAINT; Schema: public
ALTER TABLE ONLY public.document_chunks
    ADD CONSTRAINT document_chunks_document_id_fkey FOREIGN KEY (document_id) REFERENCES public.documents(id) ON DELETE CASCADE;

-- Name: documents documents_created_by_fkey; Type: FK CONSTRAINT; Schema: public
ALTER TABLE ONLY public.documents
    ADD CONSTRAINT documents_created_by_fkey FOREIGN KEY (created_by) REFERENCES auth.users(id) ON DELETE SET NULL;

-- Name: open_questions open_questions_answered_by_fkey; Type: FK CONSTRAINT; Schema: public
ALTER TABLE ONLY public.open_questions
    ADD CONSTRAINT open_questions_answered_by_fkey FOREIGN KEY (answered_by) REFERENCES public.documents(id) ON DELETE SET NULL;

-- Name: users users_id_fkey; Type: FK CONSTRAINT; Schema: public
ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_id_fkey FOREIGN KEY (id) REFERENCES auth.users(id) ON DELETE CASCADE;

-- Name: documents Admins add documents; Type: POLICY; Schema: public
CREATE POLICY "Admins add documents" ON public.documents FOR INSERT TO authenticated WITH CHECK (( SELECT public.is_admin() AS is_admin));

-- Name: document_chunks Admins add passages; Type: POLICY; Schema: public
CREATE POLICY "Admins add passages" ON public.document_chunks FOR INSERT TO authenticated WITH CHECK (( SELECT public.is_admin() AS is_admin));

-- Name: voice_configs Admins add voices; Type: POLICY; Schema: public
CREATE POLICY "Admins add voices" ON public.voice_configs FOR INSERT TO authenticated WITH CHECK (( SELECT public.is_admin() AS is_admin));

-- Name: documents Admins change documents; Type: POLICY; Schema: public
CREATE POLICY "Admins change documents" ON public.documents FOR UPDATE TO authenticated USING (( SELECT public.is_admin() AS is_admin)) WITH CHECK (( SELECT public.is_admin() AS is_admin));

-- Name: document_chunks Admins change passages; Type: POLICY; Schema: public
CREATE POLICY "Admins change passages" ON public.document_chunks FOR UPDATE TO authenticated USING (( SELECT public.is_admin() AS is_admin)) WITH CHECK (( SELECT public.is_admin() AS is_admin));

-- Name: system_settings Admins change the settings; Type: POLICY; Schema: public
CREATE POLICY "Admins change the settings" ON public.system_settings FOR UPDATE TO authenticated USING (( SELECT public.is_admin() AS is_admin)) WITH CHECK (( SELECT public.is_admin() AS is_admin));

-- Name: voice_configs Admins change voices; Type: POLICY; Schema: public
CREATE POLICY "Admins change voices" ON public.voice_configs FOR UPDATE TO authenticated USING (( SELECT public.is_admin() AS is_admin)) WITH CHECK (( SELECT public.is_admin() AS is_admin));

-- Name: documents Admins delete documents; Type: POLICY; Schema: public
CREATE POLICY "Admins delete documents" ON public.documents FOR DELETE TO authenticated USING (( SELECT public.is_admin() AS is_admin));

-- Name: document_chunks Admins delete passages; Type: POLICY; Schema: public
CREATE POLICY "Admins delete passages" ON public.document_chunks FOR DELETE TO authenticated USING (( SELECT public.is_admin() AS is_admin));

-- Name: voice_configs Admins delete voices; Type: POLICY; Schema: public
CREATE POLICY "Admins delete voices" ON public.voice_configs FOR DELETE TO authenticated USING (( SELECT public.is_admin() AS is_admin));

-- Name: open_questions Admins dismiss open questions; Type: POLICY; Schema: public
CREATE POLICY "Admins dismiss open questions" ON public.open_questions FOR DELETE TO authenticated USING (( SELECT public.is_admin() AS is_admin));

-- Name: open_questions Admins mark open questions answered; Type: POLICY; Schema: public
CREATE POLICY "Admins mark open questions answered" ON public.open_questions FOR UPDATE TO authenticated USING (( SELECT public.is_admin() AS is_admin)) WITH CHECK (( SELECT public.is_admin() AS is_admin));

-- Name: conversations Admins read conversations; Type: POLICY; Schema: public
CREATE POLICY "Admins read conversations" ON public.conversations FOR SELECT TO authenticated USING (( SELECT public.is_admin() AS is_admin));

-- Name: documents Admins read documents; Type: POLICY; Schema: public
CREATE POLICY "Admins read documents" ON public.documents FOR SELECT TO authenticated USING (( SELECT public.is_admin() AS is_admin));

-- Name: open_questions Admins read open questions; Type: POLICY; Schema: public
CREATE POLICY "Admins read open questions" ON public.open_questions FOR SELECT TO authenticated USING (( SELECT public.is_admin() AS is_admin));

-- Name: users Admins read operator profiles; Type: POLICY; Schema: public
CREATE POLICY "Admins read operator profiles" ON public.users FOR SELECT TO authenticated USING (( SELECT public.is_admin() AS is_admin));

-- Name: document_chunks Admins read passages; Type: POLICY; Schema: public
CREATE POLICY "Admins read passages" ON public.document_chunks FOR SELECT TO authenticated USING (( SELECT public.is_admin() AS is_admin));

-- Name: system_settings Admins read the settings; Type: POLICY; Schema: public
CREATE POLICY "Admins read the settings" ON public.system_settings FOR SELECT TO authenticated USING (( SELECT public.is_admin() AS is_admin));

-- Name: voice_configs Signed-in users read the active voice, admins all voices; Type: POLICY; Schema: public
CREATE POLICY "Signed-in users read the active voice, admins all voices" ON public.voice_configs FOR SELECT TO authenticated USING ((is_active OR ( SELECT public.is_admin() AS is_admin)));

-- Name: voice_configs Visitors read the active voice; Type: POLICY; Schema: public
CREATE POLICY "Visitors read the active voice" ON public.voice_configs FOR SELECT TO anon USING (is_active);

-- Name: active_streams; Type: ROW SECURITY; Schema: public
ALTER TABLE public.active_streams ENABLE ROW LEVEL SECURITY;

-- Name: client_spend; Type: ROW SECURITY; Schema: public
ALTER TABLE public.client_spend ENABLE ROW LEVEL SECURITY;

-- Name: conversations; Type: ROW SECURITY; Schema: public
ALTER TABLE public.conversations ENABLE ROW LEVEL SECURITY;

-- Name: daily_spend; Type: ROW SECURITY; Schema: public
ALTER TABLE public.daily_spend ENABLE ROW LEVEL SECURITY;

-- Name: document_chunks; Type: ROW SECURITY; Schema: public
ALTER TABLE public.document_chunks ENABLE ROW LEVEL SECURITY;

-- Name: documents; Type: ROW SECURITY; Schema: public
ALTER TABLE public.documents ENABLE ROW LEVEL SECURITY;

-- Name: open_questions; Type: ROW SECURITY; Schema: public
ALTER TABLE public.open_questions ENABLE ROW LEVEL SECURITY;

-- Name: request_counts; Type: ROW SECURITY; Schema: public
ALTER TABLE public.request_counts ENABLE ROW LEVEL SECURITY;

-- Name: spend_alerts; Type: ROW SECURITY; Schema: public
ALTER TABLE public.spend_alerts ENABLE ROW LEVEL SECURITY;

-- Name: spend_reservations; Type: ROW SECURITY; Schema: public
ALTER TABLE public.spend_reservations ENABLE ROW LEVEL SECURITY;

-- Name: system_settings; Type: ROW SECURITY; Schema: public
ALTER TABLE public.system_settings ENABLE ROW LEVEL SECURITY;

-- Name: users; Type: ROW SECURITY; Schema: public
ALTER TABLE public.users ENABLE ROW LEVEL SECURITY;

-- Name: voice_configs; Type: ROW SECURITY; Schema: public
ALTER TABLE public.voice_configs ENABLE ROW LEVEL SECURITY;

-- Name: objects Admins delete document uploads; Type: POLICY; Schema: storage
CREATE POLICY "Admins delete document uploads" ON storage.objects FOR DELETE TO authenticated USING (((bucket_id = 'document-uploads'::text) AND ( SELECT public.is_admin() AS is_admin)));

-- Name: objects Admins read document uploads; Type: POLICY; Schema: storage
CREATE POLICY "Admins read document uploads" ON storage.objects FOR SELECT TO authenticated USING (((bucket_id = 'document-uploads'::text) AND ( SELECT public.is_admin() AS is_admin)));

-- Name: objects Admins replace document uploads; Type: POLICY; Schema: storage
CREATE POLICY "Admins replace document uploads" ON storage.objects FOR UPDATE TO authenticated USING (((bucket_id = 'document-uploads'::text) AND ( SELECT public.is_admin() AS is_admin))) WITH CHECK (((bucket_id = 'document-uploads'::text) AND ( SELECT public.is_admin() AS is_admin)));

-- Name: objects Admins upload documents; Type: POLICY; Schema: storage
CREATE POLICY "Admins upload documents" ON storage.objects FOR INSERT TO authenticated WITH CHECK (((bucket_id = 'document-uploads'::text) AND ( SELECT public.is_admin() AS is_admin)));

-- Name: supabase_realtime documents; Type: PUBLICATION TABLE; Schema: public
ALTER PUBLICATION supabase_realtime ADD TABLE ONLY public.documents;

-- Name: supabase_realtime open_questions; Type: PUBLICATION TABLE; Schema: public
ALTER PUBLICATION supabase_realtime ADD TABLE ONLY public.open_questions;

-- Name: SCHEMA private; Type: ACL; Schema: -
GRANT USAGE ON SCHEMA private TO authenticated;
GRANT USAGE ON SCHEMA private TO service_role;

-- Name: FUNCTION client_lock(p_client text); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.client_lock(p_client text) FROM PUBLIC;
GRANT ALL ON FUNCTION private.client_lock(p_client text) TO service_role;

-- Name: FUNCTION count_knowledge_terms(vectors tsvector[], sign integer); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.count_knowledge_terms(vectors tsvector[], sign integer) FROM PUBLIC;

-- Name: FUNCTION detect_language(source text); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.detect_language(source text) FROM PUBLIC;
GRANT ALL ON FUNCTION private.detect_language(source text) TO authenticated;
GRANT ALL ON FUNCTION private.detect_language(source text) TO service_role;

-- Name: FUNCTION document_passages(source text, max_chars integer); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.document_passages(source text, max_chars integer) FROM PUBLIC;
GRANT ALL ON FUNCTION private.document_passages(source text, max_chars integer) TO authenticated;
GRANT ALL ON FUNCTION private.document_passages(source text, max_chars integer) TO service_role;

-- Name: FUNCTION document_stuck_after(); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.document_stuck_after() FROM PUBLIC;
GRANT ALL ON FUNCTION private.document_stuck_after() TO authenticated;
GRANT ALL ON FUNCTION private.document_stuck_after() TO service_role;

-- Name: FUNCTION foreign_nouns(fts tsvector, document_id uuid, language text, terms private.search_term[]); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.foreign_nouns(fts tsvector, document_id uuid, language text, terms private.search_term[]) FROM PUBLIC;
GRANT ALL ON FUNCTION private.foreign_nouns(fts tsvector, document_id uuid, language text, terms private.search_term[]) TO authenticated;
GRANT ALL ON FUNCTION private.foreign_nouns(fts tsvector, document_id uuid, language text, terms private.search_term[]) TO service_role;

-- Name: FUNCTION forget_lost_answer(); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.forget_lost_answer() FROM PUBLIC;

-- Name: FUNCTION fused_candidates(terms private.search_term[], query_embedding extensions.vector, wanted integer, floor_score real); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.fused_candidates(terms private.search_term[], query_embedding extensions.vector, wanted integer, floor_score real) FROM PUBLIC;
GRANT ALL ON FUNCTION private.fused_candidates(terms private.search_term[], query_embedding extensions.vector, wanted integer, floor_score real) TO authenticated;
GRANT ALL ON FUNCTION private.fused_candidates(terms private.search_term[], query_embedding extensions.vector, wanted integer, floor_score real) TO service_role;

-- Name: FUNCTION german_lexemes(source text); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.german_lexemes(source text) FROM PUBLIC;
GRANT ALL ON FUNCTION private.german_lexemes(source text) TO anon;
GRANT ALL ON FUNCTION private.german_lexemes(source text) TO authenticated;
GRANT ALL ON FUNCTION private.german_lexemes(source text) TO service_role;

-- Name: FUNCTION german_spelling(source text); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.german_spelling(source text) FROM PUBLIC;
GRANT ALL ON FUNCTION private.german_spelling(source text) TO anon;
GRANT ALL ON FUNCTION private.german_spelling(source text) TO authenticated;
GRANT ALL ON FUNCTION private.german_spelling(source text) TO service_role;

-- Name: FUNCTION heading_level(line text); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.heading_level(line text) FROM PUBLIC;
GRANT ALL ON FUNCTION private.heading_level(line text) TO authenticated;
GRANT ALL ON FUNCTION private.heading_level(line text) TO service_role;

-- Name: FUNCTION is_entry_line(line text); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.is_entry_line(line text) FROM PUBLIC;
GRANT ALL ON FUNCTION private.is_entry_line(line text) TO authenticated;
GRANT ALL ON FUNCTION private.is_entry_line(line text) TO service_role;

-- Name: FUNCTION is_heading_line(line text, alone boolean); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.is_heading_line(line text, alone boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION private.is_heading_line(line text, alone boolean) TO authenticated;
GRANT ALL ON FUNCTION private.is_heading_line(line text, alone boolean) TO service_role;

-- Name: FUNCTION joined_codes(question text); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.joined_codes(question text) FROM PUBLIC;
GRANT ALL ON FUNCTION private.joined_codes(question text) TO authenticated;
GRANT ALL ON FUNCTION private.joined_codes(question text) TO service_role;

-- Name: FUNCTION keep_first_rating(); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.keep_first_rating() FROM PUBLIC;

-- Name: FUNCTION lexical_candidates(terms private.search_term[], wanted integer, floor_score real); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.lexical_candidates(terms private.search_term[], wanted integer, floor_score real) FROM PUBLIC;
GRANT ALL ON FUNCTION private.lexical_candidates(terms private.search_term[], wanted integer, floor_score real) TO authenticated;
GRANT ALL ON FUNCTION private.lexical_candidates(terms private.search_term[], wanted integer, floor_score real) TO service_role;

-- Name: FUNCTION mark_answered_open_questions(); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.mark_answered_open_questions() FROM PUBLIC;

-- Name: FUNCTION minute_retry_after(p_count integer, p_previous integer, p_elapsed double precision, p_limit integer); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.minute_retry_after(p_count integer, p_previous integer, p_elapsed double precision, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION private.minute_retry_after(p_count integer, p_previous integer, p_elapsed double precision, p_limit integer) TO service_role;

-- Name: FUNCTION number_digits(word text); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.number_digits(word text) FROM PUBLIC;
GRANT ALL ON FUNCTION private.number_digits(word text) TO authenticated;
GRANT ALL ON FUNCTION private.number_digits(word text) TO service_role;

-- Name: FUNCTION open_question_key(question text); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.open_question_key(question text) FROM PUBLIC;
GRANT ALL ON FUNCTION private.open_question_key(question text) TO authenticated;
GRANT ALL ON FUNCTION private.open_question_key(question text) TO service_role;

-- Name: FUNCTION open_question_retention(); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.open_question_retention() FROM PUBLIC;
GRANT ALL ON FUNCTION private.open_question_retention() TO service_role;

-- Name: FUNCTION passage_evidence(fts tsvector, terms private.search_term[]); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.passage_evidence(fts tsvector, terms private.search_term[]) FROM PUBLIC;
GRANT ALL ON FUNCTION private.passage_evidence(fts tsvector, terms private.search_term[]) TO authenticated;
GRANT ALL ON FUNCTION private.passage_evidence(fts tsvector, terms private.search_term[]) TO service_role;

-- Name: FUNCTION release_expired_spend(p_kind text); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.release_expired_spend(p_kind text) FROM PUBLIC;
GRANT ALL ON FUNCTION private.release_expired_spend(p_kind text) TO service_role;

-- Name: FUNCTION require_document_admin(action text); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.require_document_admin(action text) FROM PUBLIC;
GRANT ALL ON FUNCTION private.require_document_admin(action text) TO authenticated;
GRANT ALL ON FUNCTION private.require_document_admin(action text) TO service_role;

-- Name: FUNCTION reservation_lifetime(); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.reservation_lifetime() FROM PUBLIC;
GRANT ALL ON FUNCTION private.reservation_lifetime() TO service_role;

-- Name: FUNCTION search_terms(question text, previous text); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.search_terms(question text, previous text) FROM PUBLIC;
GRANT ALL ON FUNCTION private.search_terms(question text, previous text) TO authenticated;
GRANT ALL ON FUNCTION private.search_terms(question text, previous text) TO service_role;

-- Name: FUNCTION spend_alert(p_day date, p_kind text, p_amount bigint, p_cap bigint, p_refused boolean); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.spend_alert(p_day date, p_kind text, p_amount bigint, p_cap bigint, p_refused boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION private.spend_alert(p_day date, p_kind text, p_amount bigint, p_cap bigint, p_refused boolean) TO service_role;

-- Name: FUNCTION spend_budgets(p_budgets jsonb); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.spend_budgets(p_budgets jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION private.spend_budgets(p_budgets jsonb) TO service_role;

-- Name: FUNCTION split_long_unit(unit text, max_chars integer); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.split_long_unit(unit text, max_chars integer) FROM PUBLIC;
GRANT ALL ON FUNCTION private.split_long_unit(unit text, max_chars integer) TO authenticated;
GRANT ALL ON FUNCTION private.split_long_unit(unit text, max_chars integer) TO service_role;

-- Name: FUNCTION stamp_processing_start(); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.stamp_processing_start() FROM PUBLIC;

-- Name: FUNCTION stand_ins(word text); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.stand_ins(word text) FROM PUBLIC;
GRANT ALL ON FUNCTION private.stand_ins(word text) TO authenticated;
GRANT ALL ON FUNCTION private.stand_ins(word text) TO service_role;

-- Name: FUNCTION sweep_open_questions(swept_at timestamp with time zone); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.sweep_open_questions(swept_at timestamp with time zone) FROM PUBLIC;

-- Name: FUNCTION term_query(word text, OUT query tsquery, OUT passages integer, OUT related tsquery, OUT related_passages integer); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.term_query(word text, OUT query tsquery, OUT passages integer, OUT related tsquery, OUT related_passages integer) FROM PUBLIC;
GRANT ALL ON FUNCTION private.term_query(word text, OUT query tsquery, OUT passages integer, OUT related tsquery, OUT related_passages integer) TO authenticated;
GRANT ALL ON FUNCTION private.term_query(word text, OUT query tsquery, OUT passages integer, OUT related tsquery, OUT related_passages integer) TO service_role;

-- Name: FUNCTION thesaurus_share(); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.thesaurus_share() FROM PUBLIC;
GRANT ALL ON FUNCTION private.thesaurus_share() TO authenticated;
GRANT ALL ON FUNCTION private.thesaurus_share() TO service_role;

-- Name: FUNCTION track_knowledge_terms(); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.track_knowledge_terms() FROM PUBLIC;

-- Name: FUNCTION unit_sentences(unit text); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.unit_sentences(unit text) FROM PUBLIC;
GRANT ALL ON FUNCTION private.unit_sentences(unit text) TO authenticated;
GRANT ALL ON FUNCTION private.unit_sentences(unit text) TO service_role;

-- Name: FUNCTION vector_candidates(query_embedding extensions.vector, nearest integer); Type: ACL; Schema: private
REVOKE ALL ON FUNCTION private.vector_candidates(query_embedding extensions.vector, nearest integer) FROM PUBLIC;
GRANT ALL ON FUNCTION private.vector_candidates(query_embedding extensions.vector, nearest integer) TO authenticated;
GRANT ALL ON FUNCTION private.vector_candidates(query_embedding extensions.vector, nearest integer) TO service_role;

-- Name: FUNCTION admin_stats(); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.admin_stats() FROM PUBLIC;
GRANT ALL ON FUNCTION public.admin_stats() TO authenticated;
GRANT ALL ON FUNCTION public.admin_stats() TO service_role;

-- Name: FUNCTION admit_request(p_fn text, p_client text, p_per_minute integer, p_per_day integer, p_max_concurrent integer, p_lease_seconds integer, p_kind text, p_amount bigint, p_cap bigint, p_budgets jsonb); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.admit_request(p_fn text, p_client text, p_per_minute integer, p_per_day integer, p_max_concurrent integer, p_lease_seconds integer, p_kind text, p_amount bigint, p_cap bigint, p_budgets jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION public.admit_request(p_fn text, p_client text, p_per_minute integer, p_per_day integer, p_max_concurrent integer, p_lease_seconds integer, p_kind text, p_amount bigint, p_cap bigint, p_budgets jsonb) TO service_role;

-- Name: TABLE documents; Type: ACL; Schema: public
GRANT SELECT,INSERT,DELETE,MAINTAIN,UPDATE ON TABLE public.documents TO anon;
GRANT SELECT,INSERT,DELETE,MAINTAIN,UPDATE ON TABLE public.documents TO authenticated;
GRANT ALL ON TABLE public.documents TO service_role;

-- Name: FUNCTION begin_document_delete(document_id uuid); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.begin_document_delete(document_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION public.begin_document_delete(document_id uuid) TO authenticated;
GRANT ALL ON FUNCTION public.begin_document_delete(document_id uuid) TO service_role;

-- Name: FUNCTION begin_document_reprocessing(document_id uuid); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.begin_document_reprocessing(document_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION public.begin_document_reprocessing(document_id uuid) TO authenticated;
GRANT ALL ON FUNCTION public.begin_document_reprocessing(document_id uuid) TO service_role;

-- Name: FUNCTION clear_open_questions(); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.clear_open_questions() FROM PUBLIC;
GRANT ALL ON FUNCTION public.clear_open_questions() TO authenticated;
GRANT ALL ON FUNCTION public.clear_open_questions() TO service_role;

-- Name: FUNCTION count_answered_question(conversation_id uuid); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.count_answered_question(conversation_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION public.count_answered_question(conversation_id uuid) TO service_role;

-- Name: FUNCTION ensure_active_voice_config(); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.ensure_active_voice_config() FROM PUBLIC;

-- Name: FUNCTION handle_auth_user_change(); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.handle_auth_user_change() FROM PUBLIC;

-- Name: FUNCTION ingest_document_text(document_id uuid, text text); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.ingest_document_text(document_id uuid, text text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.ingest_document_text(document_id uuid, text text) TO authenticated;
GRANT ALL ON FUNCTION public.ingest_document_text(document_id uuid, text text) TO service_role;

-- Name: FUNCTION is_admin(); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.is_admin() FROM PUBLIC;
GRANT ALL ON FUNCTION public.is_admin() TO anon;
GRANT ALL ON FUNCTION public.is_admin() TO authenticated;
GRANT ALL ON FUNCTION public.is_admin() TO service_role;

-- Name: FUNCTION only_anonymous_sign_ups(event jsonb); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.only_anonymous_sign_ups(event jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION public.only_anonymous_sign_ups(event jsonb) TO supabase_auth_admin;

-- Name: FUNCTION rate_conversation(p_conversation uuid, p_rating smallint); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.rate_conversation(p_conversation uuid, p_rating smallint) FROM PUBLIC;
GRANT ALL ON FUNCTION public.rate_conversation(p_conversation uuid, p_rating smallint) TO service_role;

-- Name: FUNCTION record_open_question(question text, client text, per_day integer); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.record_open_question(question text, client text, per_day integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.record_open_question(question text, client text, per_day integer) TO service_role;

-- Name: FUNCTION record_spend(p_kind text, p_amount bigint); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.record_spend(p_kind text, p_amount bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION public.record_spend(p_kind text, p_amount bigint) TO service_role;

-- Name: FUNCTION refresh_document_text(document_id uuid, text text); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.refresh_document_text(document_id uuid, text text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.refresh_document_text(document_id uuid, text text) TO authenticated;
GRANT ALL ON FUNCTION public.refresh_document_text(document_id uuid, text text) TO service_role;

-- Name: FUNCTION release_stream(p_lease uuid); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.release_stream(p_lease uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION public.release_stream(p_lease uuid) TO service_role;

-- Name: FUNCTION reserve_spend(p_kind text, p_amount bigint, p_cap bigint, p_budgets jsonb); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.reserve_spend(p_kind text, p_amount bigint, p_cap bigint, p_budgets jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION public.reserve_spend(p_kind text, p_amount bigint, p_cap bigint, p_budgets jsonb) TO service_role;

-- Name: FUNCTION search_knowledge(query text, match_count integer, previous text, query_embedding extensions.vector); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.search_knowledge(query text, match_count integer, previous text, query_embedding extensions.vector) FROM PUBLIC;
GRANT ALL ON FUNCTION public.search_knowledge(query text, match_count integer, previous text, query_embedding extensions.vector) TO authenticated;
GRANT ALL ON FUNCTION public.search_knowledge(query text, match_count integer, previous text, query_embedding extensions.vector) TO service_role;

-- Name: FUNCTION set_updated_at(); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.set_updated_at() FROM PUBLIC;

-- Name: FUNCTION settle_spend(p_reservation uuid, p_amount bigint); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.settle_spend(p_reservation uuid, p_amount bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION public.settle_spend(p_reservation uuid, p_amount bigint) TO service_role;

-- Name: FUNCTION spend_day(); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.spend_day() FROM PUBLIC;
GRANT ALL ON FUNCTION public.spend_day() TO service_role;

-- Name: FUNCTION store_passage_embeddings(items jsonb); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.store_passage_embeddings(items jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION public.store_passage_embeddings(items jsonb) TO authenticated;
GRANT ALL ON FUNCTION public.store_passage_embeddings(items jsonb) TO service_role;

-- Name: FUNCTION usage_today(); Type: ACL; Schema: public
REVOKE ALL ON FUNCTION public.usage_today() FROM PUBLIC;
GRANT ALL ON FUNCTION public.usage_today() TO service_role;

-- Name: TABLE context_words; Type: ACL; Schema: private
GRANT SELECT ON TABLE private.context_words TO authenticated;
GRANT SELECT ON TABLE private.context_words TO service_role;

-- Name: TABLE knowledge_stats; Type: ACL; Schema: private
GRANT SELECT ON TABLE private.knowledge_stats TO authenticated;
GRANT SELECT ON TABLE private.knowledge_stats TO service_role;

-- Name: TABLE knowledge_terms; Type: ACL; Schema: private
GRANT SELECT ON TABLE private.knowledge_terms TO authenticated;
GRANT SELECT ON TABLE private.knowledge_terms TO service_role;

-- Name: TABLE noun_words; Type: ACL; Schema: private
GRANT SELECT ON TABLE private.noun_words TO authenticated;
GRANT SELECT ON TABLE private.noun_words TO service_role;

-- Name: TABLE question_words; Type: ACL; Schema: private
GRANT SELECT ON TABLE private.question_words TO authenticated;
GRANT SELECT ON TABLE private.question_words TO service_role;

-- Name: TABLE synonyms; Type: ACL; Schema: private
GRANT SELECT ON TABLE private.synonyms TO authenticated;
GRANT SELECT ON TABLE private.synonyms TO service_role;

-- Name: TABLE thesaurus; Type: ACL; Schema: private
GRANT SELECT ON TABLE private.thesaurus TO authenticated;
GRANT SELECT ON TABLE private.thesaurus TO service_role;

-- Name: TABLE active_streams; Type: ACL; Schema: public
GRANT ALL ON TABLE public.active_streams TO service_role;

-- Name: TABLE client_spend; Type: ACL; Schema: public
GRANT ALL ON TABLE public.client_spend TO service_role;

-- Name: TABLE conversations; Type: ACL; Schema: public
GRANT SELECT,INSERT,DELETE,MAINTAIN,UPDATE ON TABLE public.conversations TO anon;
GRANT SELECT,INSERT,DELETE,MAINTAIN,UPDATE ON TABLE public.conversations TO authenticated;
GRANT ALL ON TABLE public.conversations TO service_role;

-- Name: TABLE daily_spend; Type: ACL; Schema: public
GRANT ALL ON TABLE public.daily_spend TO service_role;

-- Name: TABLE document_chunks; Type: ACL; Schema: public
GRANT SELECT,INSERT,DELETE,MAINTAIN,UPDATE ON TABLE public.document_chunks TO anon;
GRANT SELECT,INSERT,DELETE,MAINTAIN,UPDATE ON TABLE public.document_chunks TO authenticated;
GRANT ALL ON TABLE public.document_chunks TO service_role;

-- Name: SEQUENCE document_chunks_id_seq; Type: ACL; Schema: public
GRANT ALL ON SEQUENCE public.document_chunks_id_seq TO anon;
GRANT ALL ON SEQUENCE public.document_chunks_id_seq TO authenticated;
GRANT ALL ON SEQUENCE public.document_chunks_id_seq TO service_role;

-- Name: TABLE open_questions; Type: ACL; Schema: public
GRANT SELECT,DELETE,MAINTAIN ON TABLE public.open_questions TO authenticated;
GRANT ALL ON TABLE public.open_questions TO service_role;

-- Name: COLUMN open_questions.answered_by; Type: ACL; Schema: public
GRANT UPDATE(answered_by) ON TABLE public.open_questions TO authenticated;

-- Name: COLUMN open_questions.answered_title; Type: ACL; Schema: public
GRANT UPDATE(answered_title) ON TABLE public.open_questions TO authenticated;

-- Name: COLUMN open_questions.answered_at; Type: ACL; Schema: public
GRANT UPDATE(answered_at) ON TABLE public.open_questions TO authenticated;

-- Name: TABLE request_counts; Type: ACL; Schema: public
GRANT ALL ON TABLE public.request_counts TO service_role;

-- Name: TABLE spend_alerts; Type: ACL; Schema: public
GRANT ALL ON TABLE public.spend_alerts TO service_role;

-- Name: TABLE spend_reservations; Type: ACL; Schema: public
GRANT ALL ON TABLE public.spend_reservations TO service_role;

-- Name: TABLE system_settings; Type: ACL; Schema: public
GRANT SELECT,MAINTAIN ON TABLE public.system_settings TO authenticated;
GRANT ALL ON TABLE public.system_settings TO service_role;

-- Name: COLUMN system_settings.record_open_questions; Type: ACL; Schema: public
GRANT UPDATE(record_open_questions) ON TABLE public.system_settings TO authenticated;

-- Name: COLUMN system_settings.voice_input_via_provider; Type: ACL; Schema: public
GRANT UPDATE(voice_input_via_provider) ON TABLE public.system_settings TO authenticated;

-- Name: TABLE users; Type: ACL; Schema: public
GRANT SELECT,INSERT,DELETE,MAINTAIN,UPDATE ON TABLE public.users TO anon;
GRANT SELECT,INSERT,DELETE,MAINTAIN,UPDATE ON TABLE public.users TO authenticated;
GRANT ALL ON TABLE public.users TO service_role;

-- Name: TABLE voice_configs; Type: ACL; Schema: public
GRANT SELECT,INSERT,DELETE,MAINTAIN,UPDATE ON TABLE public.voice_configs TO anon;
GRANT SELECT,INSERT,DELETE,MAINTAIN,UPDATE ON TABLE public.voice_configs TO authenticated;
GRANT ALL ON TABLE public.voice_configs TO service_role;
