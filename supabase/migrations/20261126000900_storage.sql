-- The storage buckets and their policies. Type and size limits are enforced by the Storage API
-- from these bucket settings.

-- The knowledge base's PDFs, private: the coach quotes a document's title, and a public bucket
-- would then leave only the upload's millisecond timestamp between a visitor and the whole file.
-- Storage's public route refuses objects of a private bucket. Admins read them through the select
-- policy below: the Storage API's authenticated download and signed URLs that expire, which is how
-- the admin area opens a document. Only admins upload, replace or delete.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('document-uploads', 'document-uploads', false, 20971520, array['application/pdf']);

-- The select policy also serves the API's own lookups (listing, upsert and remove read the object
-- row first).
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

-- The tts function's audio cache (the coach's greeting is the same sentence for every visitor, so
-- it is synthesised once per voice setting and then served from here): MP3, and raw PCM, which
-- the live coach plays from its first bytes (the tts function's `format: 'pcm'`). Private and
-- without any policy on purpose: only the service role (which bypasses row level security) reads,
-- writes, lists and clears it, from the `tts` and `system-settings` edge functions. Visitors and
-- admins never reach it directly; admins clear it through `system-settings`.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('tts-cache', 'tts-cache', false, 10485760, array['audio/mpeg', 'audio/pcm']);
