-- Documents never hang. The text of an upload is extracted in the admin's browser, so a closed
-- tab leaves its document in PROCESSING: such a document counts as stuck once it has been
-- PROCESSING for longer than private.document_stuck_after() (5 minutes), and an admin can process
-- it again from the stored PDF (begin_document_reprocessing(), also for ERROR). A delete goes in
-- three steps that each leave a state the admin sees and can finish: begin_document_delete() marks
-- the row (deleting_since) and drops its passages, the Storage API removes the file, then the row
-- goes. A row with deleting_since set may point to a file that is already gone; the list says so.

alter table public.documents
  add column if not exists processing_started_at timestamptz not null default now(),
  add column if not exists deleting_since timestamptz;

-- Rows from before this migration: their last change is the best guess for when processing began
-- (without stamping updated_at anew).
alter table public.documents disable trigger documents_set_updated_at;
update public.documents set processing_started_at = updated_at;
alter table public.documents enable trigger documents_set_updated_at;

comment on column public.documents.processing_started_at is
  'When the current (or last) processing run began: set at upload and whenever the status becomes PROCESSING again.';
comment on column public.documents.deleting_since is
  'Set when a delete has begun (passages dropped, file being removed); the row itself goes last.';

create index if not exists documents_processing_idx
  on public.documents (processing_started_at) where status = 'PROCESSING';

-- After this long in PROCESSING a document counts as stuck (the browser that processed it is gone).
-- The admin's list uses the same value (src/features/admin/knowledge/documentPhase.ts).
create or replace function private.document_stuck_after()
returns interval
language sql
immutable
set search_path = ''
as $$ select interval '5 minutes' $$;

revoke execute on function private.document_stuck_after() from public, anon;
grant execute on function private.document_stuck_after() to authenticated, service_role;

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

drop trigger if exists documents_stamp_processing_start on public.documents;
create trigger documents_stamp_processing_start
  before update on public.documents
  for each row execute function private.stamp_processing_start();


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


-- As before (…_knowledge_relevance.sql), but a document that is gone (an upload undone or deleted
-- while its text was being extracted) answers 404 instead of a server error, and one being deleted
-- 410 and gets no passages back.
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

  insert into public.document_chunks (document_id, ordinal, content)
  select target_id, p.ordinal, p.content
    from private.split_text_into_passages(body) p;
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
