-- Which service hears a visitor's voice: the operator's switch "every browser through the
-- speech-to-text provider". Off (the default), a browser with its own speech recognition uses it
-- (Chrome sends the audio to Google's service, Safari to Apple's) and only the others stream the
-- microphone through the stt-stream function to the operator's provider; on, every browser does, so
-- no browser vendor's service hears the voice.
--
-- The operator's switches share one row, public.system_settings; this migration creates its table
-- (and the row) where none exists yet, and adds the column, so it holds with or without other
-- switches in the same row. Only admins read and change it; visitors learn the value from the
-- stt-stream function (GET), which reads it with the service role.

create table if not exists public.system_settings (
  id boolean primary key default true check (id),
  updated_at timestamptz not null default now()
);

comment on table public.system_settings is
  'The operator''s switches, exactly one row (its primary key can only be true).';

alter table public.system_settings
  add column if not exists voice_input_via_provider boolean not null default false;

comment on column public.system_settings.voice_input_via_provider is
  'Every browser streams the visitor''s voice to the speech-to-text provider (stt-stream) instead of using its own speech recognition.';

insert into public.system_settings (id) values (true) on conflict (id) do nothing;

create or replace trigger system_settings_set_updated_at
  before update on public.system_settings
  for each row execute function public.set_updated_at();

alter table public.system_settings enable row level security;

do $$
begin
  if not exists (select from pg_policies where schemaname = 'public' and tablename = 'system_settings' and cmd = 'SELECT') then
    create policy "Admins read the settings"
      on public.system_settings for select to authenticated
      using ((select public.is_admin()));
  end if;
  if not exists (select from pg_policies where schemaname = 'public' and tablename = 'system_settings' and cmd = 'UPDATE') then
    create policy "Admins change the settings"
      on public.system_settings for update to authenticated
      using ((select public.is_admin()))
      with check ((select public.is_admin()));
  end if;
end
$$;

-- The row is never inserted or deleted through the API; admins change the switches, each by its
-- own column grant. A table-wide UPDATE (a new table's default grant) would let them write any
-- column, so it goes; revoking it where it is absent would also take the other switches' grants.
revoke all on public.system_settings from anon;
revoke insert, delete, truncate, trigger, references on public.system_settings from authenticated;
do $$
begin
  if has_table_privilege('authenticated', 'public.system_settings', 'UPDATE') then
    revoke update on public.system_settings from authenticated;
  end if;
end
$$;
grant select on public.system_settings to authenticated;
grant update (voice_input_via_provider) on public.system_settings to authenticated;
