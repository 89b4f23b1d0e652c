-- "Neu einlesen" for the admin's document list: a processed document's text, extracted again in
-- the browser from its stored PDF, replaces its passages (public.refresh_document_text()).

-- Reads a processed document again: its text, extracted anew from the stored PDF (a better
-- extraction reaches documents uploaded before it), replaces the passages in one step, so the coach
-- finds the old passages or the new ones, never none. Only for COMPLETED documents (409 otherwise:
-- ERROR and stuck ones are claimed with begin_document_reprocessing()). A text without a letter or
-- digit is refused (422) and the document keeps its passages. A passage whose text is unchanged
-- keeps its embedding (the embed function embeds the text alone), so only what changed waits for
-- one. Refuses a document that is gone (404) or being deleted (410). Returns the number of
-- passages. Runs as the caller, so row level security applies as well.
create or replace function public.refresh_document_text(document_id uuid, text text)
returns integer
language plpgsql
volatile
set search_path = ''
as $$
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

comment on function public.refresh_document_text(uuid, text) is
  'Admin only: replaces a COMPLETED document''s text and passages with a new extraction in one step; unchanged passages keep their embeddings.';

revoke execute on function public.refresh_document_text(uuid, text) from public, anon;
grant execute on function public.refresh_document_text(uuid, text) to authenticated, service_role;
