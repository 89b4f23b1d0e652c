-- The coach's knowledge base: uploaded PDFs (documents), the passages their text is split into
-- (document_chunks), and how text becomes searchable words and passages. Admins manage both
-- tables; everyone else reaches the knowledge only through the coach function. The search that
-- ranks the passages is …_search.sql.
--
--   private.german_spelling(text)      ae/oe/ue written for ä/ö/ü, read the same on every Postgres
--   private.german_lexemes(text)       the searchable words (lexemes) of a text: the one definition
--                                      the passages, the titles and the questions all go through
--   private.detect_language(text)      de or other, from a text's function words
--   public.documents                   a PDF: storage key, processing status, text, language
--   public.document_chunks             its passages: heading, content, lexemes (fts), embedding
--   private.knowledge_terms            every lexeme with the number of passages holding it
--   private.knowledge_stats            how many passages there are, how long they are on average
--   private.document_passages(text)    a document's text as passages, each under its heading
--   public.ingest_document_text()      stores a document's text and its passages
--   public.store_passage_embeddings()  the passages' embeddings, for the hybrid search
--   public.begin_document_reprocessing(), public.begin_document_delete()
--                                      documents never hang: processing again, deleting in steps
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

-- 'de' when German function words outnumber English ones in the text's first 20,000 characters.
create or replace function private.detect_language(source text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when count(*) filter (where w in ('der', 'die', 'das', 'und', 'ist', 'nicht', 'ich', 'du', 'sie',
                                                'wir', 'mit', 'für', 'auf', 'ein', 'eine', 'den', 'dem', 'zu',
                                                'von', 'sich', 'auch', 'wenn', 'oder', 'bei', 'wie', 'dass'))
                >= count(*) filter (where w in ('the', 'and', 'is', 'of', 'to', 'that', 'it', 'for', 'with',
                                                'as', 'on', 'are', 'this', 'be', 'by', 'or', 'an', 'from',
                                                'if', 'each', 'at', 'which', 'its', 'not', 'was', 'you'))
              then 'de' else 'other' end
    from regexp_split_to_table(lower(left(coalesce(source, ''), 20000)), '[^[:alpha:]]+') as w
$$;

revoke execute on function private.detect_language(text) from public, anon;
grant execute on function private.detect_language(text) to authenticated, service_role;


-- Documents: one row per uploaded PDF. A document is PROCESSING from its upload until its text is
-- stored (COMPLETED) or found unreadable (ERROR, with the reason).
create type public.document_status as enum ('PROCESSING', 'COMPLETED', 'ERROR');

create table public.documents (
  id uuid primary key default gen_random_uuid(),
  title text not null check (char_length(title) between 1 and 500),
  type text not null default 'PDF' check (type = 'PDF'),
  url text not null,
  status public.document_status not null default 'PROCESSING',
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  content text,
  file_size bigint check (file_size >= 0),
  storage_path text unique,
  error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- German ('de') or any other language ('other'), decided at ingestion from the text itself.
  language text not null default 'de' constraint documents_language check (language in ('de', 'other')),
  processing_started_at timestamptz not null default now(),
  deleting_since timestamptz,
  -- The title as search context for the document's passages (file extension and separators dropped).
  title_fts tsvector
    generated always as (private.german_lexemes(regexp_replace(title, '\.pdf$|[_.]', ' ', 'gi'))) stored,
  -- A reason exactly when the status is ERROR, so the list can always say why.
  constraint documents_error_reason check ((status = 'ERROR') = (error is not null))
);

comment on table public.documents is
  'Knowledge-base files: an uploaded PDF, its URL and storage key, processing status, extracted text and language.';
comment on column public.documents.url is
  'URL of the file on the Storage API''s authenticated route (the bucket is private); the admin area opens it through a signed URL.';
comment on column public.documents.content is 'Extracted text (null until processed); searched through document_chunks.';
comment on column public.documents.file_size is 'Size of the uploaded file in bytes.';
comment on column public.documents.storage_path is 'Object key in the document-uploads bucket, used to delete the file.';
comment on column public.documents.error is 'Why processing failed; set exactly when status is ERROR.';
comment on column public.documents.language is
  'The language of the document''s text: de (German) or other; set by ingest_document_text().';
comment on column public.documents.processing_started_at is
  'When the current (or last) processing run began: set at upload and whenever the status becomes PROCESSING again.';
comment on column public.documents.deleting_since is
  'Set when a delete has begun (passages dropped, file being removed); the row itself goes last.';
comment on column public.documents.title_fts is 'The lexemes of the title (extension and separators dropped), context for its passages.';

create index documents_created_at_idx on public.documents (created_at desc);
create index documents_created_by_idx on public.documents (created_by);
create index documents_processing_idx
  on public.documents (processing_started_at) where status = 'PROCESSING';

create trigger documents_set_updated_at
  before update on public.documents
  for each row execute function public.set_updated_at();

-- Every way back into PROCESSING restarts the clock, whoever writes the row.
create or replace function private.stamp_processing_start()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.status = 'PROCESSING' and old.status is distinct from 'PROCESSING' then
    new.processing_started_at := now();
  end if;
  return new;
end
$$;

revoke execute on function private.stamp_processing_start() from public, anon, authenticated, service_role;

create trigger documents_stamp_processing_start
  before update on public.documents
  for each row execute function private.stamp_processing_start();


-- Passages carry the heading they stand under; heading and text are searched together. Each
-- passage can carry its embedding (the `embed` edge function, OpenAI's text-embedding-3-small,
-- 1536 dimensions) for the hybrid search; without embeddings the search is full-text only.
create table public.document_chunks (
  id bigint generated always as identity primary key,
  document_id uuid not null references public.documents (id) on delete cascade,
  ordinal integer not null check (ordinal >= 1),
  content text not null check (content <> ''),
  created_at timestamptz not null default now(),
  embedding extensions.vector(1536),
  heading text not null default '',
  fts tsvector
    generated always as (setweight(private.german_lexemes(heading), 'A') || private.german_lexemes(content)) stored,
  constraint document_chunks_document_ordinal_key unique (document_id, ordinal)
);

comment on table public.document_chunks is
  'Passages of a document''s text along its structure (under a heading, at most about 700 characters, whole list entries and table rows), searched by search_knowledge().';
comment on column public.document_chunks.ordinal is 'Position of the passage in its document, starting at 1.';
comment on column public.document_chunks.embedding is
  'The passage''s embedding (text-embedding-3-small), written by the embed function; null until embedded. New passages (a new or processed-again document) start without one.';
comment on column public.document_chunks.heading is
  'The heading the passage stands under (a numbered section''s parent first: "2 Optionen › 2.1 Beenden"); empty before the first heading.';
comment on column public.document_chunks.fts is 'The lexemes of heading (weight A) and content, from private.german_lexemes().';

create index document_chunks_fts_idx on public.document_chunks using gin (fts);
create index document_chunks_embedding_idx
  on public.document_chunks using hnsw (embedding extensions.vector_cosine_ops);


alter table public.documents enable row level security;
alter table public.document_chunks enable row level security;

create policy "Admins read documents"
  on public.documents for select to authenticated
  using ((select public.is_admin()));
create policy "Admins add documents"
  on public.documents for insert to authenticated
  with check ((select public.is_admin()));
create policy "Admins change documents"
  on public.documents for update to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));
create policy "Admins delete documents"
  on public.documents for delete to authenticated
  using ((select public.is_admin()));

create policy "Admins read passages"
  on public.document_chunks for select to authenticated
  using ((select public.is_admin()));
create policy "Admins add passages"
  on public.document_chunks for insert to authenticated
  with check ((select public.is_admin()));
create policy "Admins change passages"
  on public.document_chunks for update to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));
create policy "Admins delete passages"
  on public.document_chunks for delete to authenticated
  using ((select public.is_admin()));

-- TRUNCATE ignores row level security; the API never needs it.
revoke truncate, trigger, references on public.documents, public.document_chunks from anon, authenticated;

-- The admin's document list follows inserts, updates and deletes live.
alter publication supabase_realtime add table public.documents;


-- How many passages hold each lexeme, and how many passages there are: what the search weighs a
-- word by (a word in few passages says more), and where its typo repair and compound matching
-- look words up. Kept up to date by triggers as passages come and go.
create table private.knowledge_terms (
  lexeme text primary key,
  passages integer not null default 0,
  reversed text generated always as (reverse(lexeme)) stored
);
create index knowledge_terms_prefix_idx on private.knowledge_terms (lexeme text_pattern_ops);
create index knowledge_terms_reversed_idx on private.knowledge_terms (reversed text_pattern_ops);
comment on table private.knowledge_terms is
  'Every lexeme of the passages with the number of passages holding it; the search''s word weights, typo repair and compound matching read it.';
comment on column private.knowledge_terms.reversed is 'The lexeme backwards, so compounds ending in a word are found through an index.';
revoke all on private.knowledge_terms from public, anon, authenticated;
grant select on private.knowledge_terms to authenticated, service_role;

create table private.knowledge_stats (
  singleton boolean primary key default true check (singleton),
  passages bigint not null default 0,
  lexemes bigint not null default 0
);
comment on table private.knowledge_stats is
  'One row: the number of passages and the sum of their lexeme counts (for the average passage length).';
revoke all on private.knowledge_stats from public, anon, authenticated;
grant select on private.knowledge_stats to authenticated, service_role;

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


-- The guard of the document functions below: admins and the service role only (42501 otherwise).
create or replace function private.require_document_admin(action text)
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if not ((select public.is_admin()) or (select auth.role()) = 'service_role') then
    raise exception 'only admins may % documents', action using errcode = '42501';
  end if;
end
$$;

revoke execute on function private.require_document_admin(text) from public, anon;
grant execute on function private.require_document_admin(text) to authenticated, service_role;


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

revoke execute on function public.ingest_document_text(uuid, text) from public, anon;
grant execute on function public.ingest_document_text(uuid, text) to authenticated, service_role;


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


-- Documents never hang. The text of an upload is extracted in the admin's browser, so a closed
-- tab leaves its document in PROCESSING: such a document counts as stuck once it has been
-- PROCESSING for longer than private.document_stuck_after() (5 minutes), and an admin can process
-- it again from the stored PDF (begin_document_reprocessing(), also for ERROR). A delete goes in
-- three steps that each leave a state the admin sees and can finish: begin_document_delete() marks
-- the row (deleting_since) and drops its passages, the Storage API removes the file, then the row
-- goes. A row with deleting_since set may point to a file that is already gone; the list says so.

-- After this long in PROCESSING a document counts as stuck (the browser that processed it is gone).
-- The admin's list uses the same value (src/lib/documentProcessing.ts).
create or replace function private.document_stuck_after()
returns interval
language sql
immutable
set search_path = ''
as $$ select interval '5 minutes' $$;

revoke execute on function private.document_stuck_after() from public, anon;
grant execute on function private.document_stuck_after() to authenticated, service_role;

-- Claims a document for another processing run: ERROR, or PROCESSING for longer than
-- document_stuck_after(). Drops its passages and text, sets PROCESSING and restarts the clock, and
-- returns the row (with its storage_path, which the browser downloads the PDF from). Refuses with
-- HTTP statuses PostgREST passes on: 404 (no such document), 410 (being deleted), 409 (COMPLETED,
-- or still being processed by someone). Runs as the caller, so row level security applies too.
create or replace function public.begin_document_reprocessing(document_id uuid)
returns public.documents
language plpgsql
volatile
set search_path = ''
as $$
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

comment on function public.begin_document_reprocessing(uuid) is
  'Admin only: claims an ERROR or stuck PROCESSING document for processing again (PROCESSING, passages dropped).';

revoke execute on function public.begin_document_reprocessing(uuid) from public, anon;
grant execute on function public.begin_document_reprocessing(uuid) to authenticated, service_role;

-- First step of a delete: marks the row (deleting_since, kept from an earlier attempt) and drops
-- its passages, so the coach stops using the document at once. Returns the row (storage_path for
-- the next step). The file is removed through the Storage API, then the row is deleted; a failure
-- in between leaves the mark, which the list shows, and the same three steps finish the job.
create or replace function public.begin_document_delete(document_id uuid)
returns public.documents
language plpgsql
volatile
set search_path = ''
as $$
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

comment on function public.begin_document_delete(uuid) is
  'Admin only: first step of a delete (row marked deleting_since, passages dropped); file and row follow.';

revoke execute on function public.begin_document_delete(uuid) from public, anon;
grant execute on function public.begin_document_delete(uuid) to authenticated, service_role;
