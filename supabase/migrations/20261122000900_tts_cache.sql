-- The tts function's audio cache (the coach's greeting is the same sentence for every visitor, so
-- it is synthesised once per voice setting and then served from here). Private and without any
-- policy on purpose: only the service role (which bypasses row level security) reads, writes,
-- lists and clears it, from the `tts` and `system-settings` edge functions. Visitors and admins
-- never reach it directly; admins clear it through `system-settings`.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('tts-cache', 'tts-cache', false, 10485760, array['audio/mpeg'])
on conflict (id) do update
  set public = excluded.public,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;
