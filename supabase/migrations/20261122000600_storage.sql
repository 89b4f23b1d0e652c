-- The bucket for knowledge-base PDFs. Public read, so the document's url (getPublicUrl) works
-- without a token; only admins upload, replace or delete. Type and size limits are enforced by the
-- Storage API from these bucket settings.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('document-uploads', 'document-uploads', true, 20971520, array['application/pdf'])
on conflict (id) do update
  set public = excluded.public,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;

-- Public buckets serve downloads without consulting policies; this read policy is for the API's
-- own lookups (listing, upsert and remove read the object row first).
create policy "Admins read document uploads"
  on storage.objects for select to authenticated
  using (bucket_id = 'document-uploads' and (select public.is_admin()));
create policy "Admins upload documents"
  on storage.objects for insert to authenticated
  with check (bucket_id = 'document-uploads' and (select public.is_admin()));
create policy "Admins replace document uploads"
  on storage.objects for update to authenticated
  using (bucket_id = 'document-uploads' and (select public.is_admin()))
  with check (bucket_id = 'document-uploads' and (select public.is_admin()));
create policy "Admins delete document uploads"
  on storage.objects for delete to authenticated
  using (bucket_id = 'document-uploads' and (select public.is_admin()));
