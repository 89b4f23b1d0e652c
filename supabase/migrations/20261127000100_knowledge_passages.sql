-- The knowledge base's text processing, in one place: how German text becomes searchable words,
-- and how a document's text becomes passages that follow its structure.
--
--   private.german_spelling(text)   ae/oe/ue written for ä/ö/ü, read the same on every Postgres
--   private.german_lexemes(text)    the searchable words (lexemes) of a text: the one definition
--                                   the passages, the titles and the questions all go through
--   private.document_passages(text) a document's text as passages, each under its heading
--   private.knowledge_terms         every lexeme with the number of passages holding it
--   private.knowledge_stats         how many passages there are and how long they are on average
--
-- The extraction in the admin's browser (src/lib/pdfTextLayout.ts) hands over text whose blank
-- lines separate blocks (paragraphs, lists, tables, headings) and whose lines inside a block are
-- its units: a paragraph of prose, a list entry, a table row (cells separated by tabs).


-- Snowball's German stemmer reads "ae", "oe" and "ue" as "ä", "ö" and "ü" from Postgres 18 on
-- (Postgres 15 to 17 do not: "Mueller" is `muell` there and `mull` on 18). Texts and questions are
-- rewritten by the rule Postgres 18 applies before they are stemmed, so every version stems them
-- the same and stored lexemes survive an upgrade: "ue" after a "q" stays, and so does a "u"
-- between two vowels ("neue", "Feuer", "bauen"), as in Snowball.
create or replace function private.german_spelling(source text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  -- chr(1) marks a u or y between two vowels for the moment, so it is not read as part of "ue".
  select replace(
           replace(replace(
             regexp_replace(
               regexp_replace(lower(coalesce(source, '')), '([aeiouyäöü])([uy])(?=[aeiouyäöü])', '\1\2' || chr(1), 'g'),
               '(?<!q)ue', 'ü', 'g'),
             'ae', 'ä'), 'oe', 'ö'),
           chr(1), '')
$$;

create or replace function private.german_lexemes(source text)
returns tsvector
language sql
immutable
parallel safe
set search_path = ''
as $$
  select to_tsvector('german'::regconfig, private.german_spelling(source))
$$;

comment on function private.german_spelling(text) is
  'Lower case with ae/oe/ue read as ä/ö/ü (not after q, not for a u between vowels), as Postgres 18''s German stemmer reads them.';
comment on function private.german_lexemes(text) is
  'The searchable words of a text: German spelling normalised, then the german text search configuration (stemming, stop words).';

-- The passages' generated search columns call these, and Postgres checks that whoever writes a
-- row may: row level security decides which rows anyone may write, not these pure functions.
revoke execute on function private.german_spelling(text), private.german_lexemes(text) from public;
grant execute on function private.german_spelling(text), private.german_lexemes(text) to anon, authenticated, service_role;


-- Passages carry the heading they stand under; heading and text are searched together.
alter table public.document_chunks add column if not exists heading text not null default '';
comment on column public.document_chunks.heading is
  'The heading the passage stands under (a numbered section''s parent first: "2 Optionen › 2.1 Beenden"); empty before the first heading.';

drop index if exists public.document_chunks_fts_idx;
alter table public.document_chunks drop column if exists fts;
alter table public.document_chunks
  add column fts tsvector
  generated always as (setweight(private.german_lexemes(heading), 'A') || private.german_lexemes(content)) stored;
create index document_chunks_fts_idx on public.document_chunks using gin (fts);
comment on column public.document_chunks.fts is 'The lexemes of heading (weight A) and content, from private.german_lexemes().';

alter table public.documents drop column if exists title_fts;
alter table public.documents
  add column title_fts tsvector
  generated always as (private.german_lexemes(regexp_replace(title, '\.pdf$|[_.]', ' ', 'gi'))) stored;
comment on column public.documents.title_fts is 'The lexemes of the title (extension and separators dropped), context for its passages.';

comment on table public.document_chunks is
  'Passages of a document''s text along its structure (under a heading, at most about 700 characters, whole list entries and table rows), searched by search_knowledge().';


-- How many passages hold each lexeme, and how many passages there are: what the search weighs a
-- word by (a word in few passages says more). Kept up to date by triggers as passages come and go.
alter table private.knowledge_terms add column if not exists passages integer not null default 0;
alter table private.knowledge_terms add column if not exists reversed text generated always as (reverse(lexeme)) stored;
create index if not exists knowledge_terms_reversed_idx on private.knowledge_terms (reversed text_pattern_ops);
comment on table private.knowledge_terms is
  'Every lexeme of the passages with the number of passages holding it; the search''s word weights, typo repair and compound matching read it.';
comment on column private.knowledge_terms.reversed is 'The lexeme backwards, so compounds ending in a word are found through an index.';

create table if not exists private.knowledge_stats (
  singleton boolean primary key default true check (singleton),
  passages bigint not null default 0,
  lexemes bigint not null default 0
);
comment on table private.knowledge_stats is
  'One row: the number of passages and the sum of their lexeme counts (for the average passage length).';
revoke all on private.knowledge_stats from public, anon, authenticated;
grant select on private.knowledge_stats to authenticated, service_role;

drop trigger if exists document_chunks_remember_terms on public.document_chunks;
drop function if exists private.remember_knowledge_terms();

-- Adds (sign 1) or removes (sign -1) passages' lexemes and lengths.
create or replace function private.count_knowledge_terms(vectors tsvector[], sign integer)
returns void
language plpgsql
security definer
set search_path = ''
as $$
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
revoke execute on function private.count_knowledge_terms(tsvector[], integer) from public, anon, authenticated;

create or replace function private.track_knowledge_terms()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
revoke execute on function private.track_knowledge_terms() from public, anon, authenticated;

create trigger document_chunks_count_inserted
  after insert on public.document_chunks
  referencing new table as new_rows
  for each statement execute function private.track_knowledge_terms();
create trigger document_chunks_count_deleted
  after delete on public.document_chunks
  referencing old table as old_rows
  for each statement execute function private.track_knowledge_terms();
create trigger document_chunks_count_updated
  after update on public.document_chunks
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.track_knowledge_terms();

truncate private.knowledge_terms;
delete from private.knowledge_stats;
select private.count_knowledge_terms(array(select c.fts from public.document_chunks c), 1);


-- A list entry (bullet, dash, "1.", "a)", an option like "-r" or "--rekursiv") or a table row.
create or replace function private.is_entry_line(line text)
returns boolean
language sql
immutable
parallel safe
set search_path = ''
as $$
  select position(E'\t' in line) > 0
      or line ~ '^\s*(?:[•·▪◦‣∙●○■□►▸*–—-]\s|\d{1,2}[.)]\s|[a-z][.)]\s|--?[[:alnum:]])'
$$;

-- A line that stands for a heading: short, with a letter, not a sentence, not a list entry or a
-- table row. Standing alone in its block, a numbered line ("2. Optionen") is a heading too, and so
-- is a question ("Wie sage ich einen Termin ab?"): an FAQ's question above its answer.
create or replace function private.is_heading_line(line text, alone boolean)
returns boolean
language sql
immutable
parallel safe
set search_path = ''
as $$
  select line ~ '[[:alpha:]]'
     and position(E'\t' in line) = 0
     and (alone or not private.is_entry_line(line))
     and line !~ '^\s*(?:[•·▪◦‣∙●○■□►▸*–—-]\s|--?[[:alnum:]])'
     and (
       (char_length(line) <= 90 and line !~ '[.,;:!?…)"“”»]\s*$')
       or (alone and char_length(line) <= 150 and line ~ '\?\s*$')
     )
$$;

-- How deep a numbered heading sits: "2 Optionen" 1, "2.1 Beenden" 2; 0 for an unnumbered one.
create or replace function private.heading_level(line text)
returns integer
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce(array_length(regexp_split_to_array(substring(line from '^(\d{1,2}(?:\.\d{1,2})*)\.?\s'), '\.'), 1), 0)
$$;

-- A unit longer than max_chars in pieces: sentences, a sentence longer than that between words,
-- a single "word" longer than that (a URL, a hash) inside itself.
create or replace function private.split_long_unit(unit text, max_chars integer)
returns setof text
language plpgsql
immutable
set search_path = ''
as $$
declare
  sentence text;
  word text;
  piece text := '';
begin
  if char_length(unit) <= max_chars then
    return next unit;
    return;
  end if;
  for sentence in
    select s from regexp_split_to_table(unit, '(?<=[.!?…])\s+(?=[[:upper:][:digit:]"„“‚«»(\[–-])') as s
  loop
    for word in select w from regexp_split_to_table(sentence, '\s+') as w loop
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

-- A document's text as passages along its structure:
--   * Blocks are separated by blank lines, units (prose paragraphs, list entries, table rows) by
--     line breaks; a block of one to three short lines that are no sentences is a heading.
--   * Each passage stands under one heading and holds whole units, up to max_chars characters; a
--     longer unit is cut at sentence ends. A new heading starts a new passage.
--   * A numbered sub-heading keeps its section's heading before it ("2 Optionen › 2.1 Beenden"),
--     an unnumbered heading below a numbered one likewise (an FAQ question in a numbered chapter).
--   * When a list or table goes on in the next passage, that passage starts again with the line
--     that introduced the list ("Sonderurlaub gibt es für:") or with the table's first row (its
--     column names), so every entry keeps what it means.
-- Whitespace inside a unit is collapsed; carriage returns and form feeds count as line breaks.
create or replace function private.document_passages(source text, max_chars integer default 700)
returns table (ordinal integer, heading text, content text)
language plpgsql
immutable
set search_path = ''
as $$
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
$$;

comment on function private.document_passages(text, integer) is
  'A document''s text as ordered passages under their headings: whole units (paragraphs, list entries, table rows) up to max_chars characters.';

revoke execute on function private.is_heading_line(text, boolean), private.is_entry_line(text), private.heading_level(text),
  private.split_long_unit(text, integer), private.document_passages(text, integer) from public, anon;
grant execute on function private.is_heading_line(text, boolean), private.is_entry_line(text), private.heading_level(text),
  private.split_long_unit(text, integer), private.document_passages(text, integer) to authenticated, service_role;

drop function if exists private.split_text_into_passages(text, integer, integer);


-- Stores a document's extracted text and replaces its passages (private.document_passages). Text
-- without a single letter or digit (an image-only or broken PDF) marks the document ERROR with a
-- reason instead. Refuses a document that is gone (404) or being deleted (410). Returns the number
-- of passages written. Runs as the caller, so row level security applies as well.
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

comment on function public.ingest_document_text(uuid, text) is
  'Admin only: stores the extracted text, rewrites the passages along the text''s structure and sets COMPLETED (or ERROR when the text is empty).';
