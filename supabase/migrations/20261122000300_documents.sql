-- The coach's knowledge base: uploaded PDFs (documents) and the passages their text is split into
-- (document_chunks), which search_knowledge() ranks. Admins manage both; everyone else reaches the
-- knowledge only through the coach function.

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
  -- A reason exactly when the status is ERROR, so the list can always say why.
  constraint documents_error_reason check ((status = 'ERROR') = (error is not null))
);

comment on table public.documents is
  'Knowledge-base files: an uploaded PDF, its public URL and storage key, processing status and extracted text.';
comment on column public.documents.url is 'Public URL of the file in the document-uploads bucket.';
comment on column public.documents.content is 'Extracted text (null until processed); searched through document_chunks.';
comment on column public.documents.file_size is 'Size of the uploaded file in bytes.';
comment on column public.documents.storage_path is 'Object key in the document-uploads bucket, used to delete the file.';
comment on column public.documents.error is 'Why processing failed; set exactly when status is ERROR.';

create index documents_created_at_idx on public.documents (created_at desc);
create index documents_created_by_idx on public.documents (created_by);

create trigger documents_set_updated_at
  before update on public.documents
  for each row execute function public.set_updated_at();

create table public.document_chunks (
  id bigint generated always as identity primary key,
  document_id uuid not null references public.documents (id) on delete cascade,
  ordinal integer not null check (ordinal >= 1),
  content text not null check (content <> ''),
  fts tsvector generated always as (to_tsvector('german', content)) stored,
  created_at timestamptz not null default now(),
  constraint document_chunks_document_ordinal_key unique (document_id, ordinal)
);

comment on table public.document_chunks is
  'Passages (about 500 to 1,200 characters) of a document''s text, with a German full-text vector for search.';
comment on column public.document_chunks.ordinal is 'Position of the passage in its document, starting at 1.';

create index document_chunks_fts_idx on public.document_chunks using gin (fts);

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
