-- The coach's voice: the ElevenLabs voice settings plus pitch (applied in the browser). Exactly one
-- row is active; visitors' browsers read it, admins tune it.

create table public.voice_configs (
  id uuid primary key default gen_random_uuid(),
  stability double precision not null default 0.25 check (stability between 0 and 1),
  similarity_boost double precision not null default 0.75 check (similarity_boost between 0 and 1),
  style double precision not null default 0.45 check (style between 0 and 1),
  use_speaker_boost boolean not null default true,
  pitch double precision not null default 1 check (pitch between 0.5 and 2),
  speed double precision not null default 1 check (speed between 0.5 and 2),
  is_active boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

comment on table public.voice_configs is
  'Voice settings of the coach (slider values). The row with is_active = true is the one in use.';

-- At most one active row ...
create unique index voice_configs_single_active_idx on public.voice_configs (is_active) where is_active;

create trigger voice_configs_set_updated_at
  before update on public.voice_configs
  for each row execute function public.set_updated_at();

-- ... and, once there is one, never none: deactivating or deleting the last active row fails at
-- commit, so an active row can still be swapped for another inside one transaction.
create or replace function public.ensure_active_voice_config()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if not exists (select from public.voice_configs where is_active) then
    raise exception 'exactly one voice configuration must stay active'
      using errcode = '23514', table = 'voice_configs';
  end if;
  return null;
end
$$;

comment on function public.ensure_active_voice_config() is 'Constraint trigger: keeps one active voice configuration.';

revoke execute on function public.ensure_active_voice_config() from public, anon, authenticated, service_role;

create constraint trigger voice_configs_keep_one_active
  after update of is_active or delete on public.voice_configs
  deferrable initially deferred
  for each row execute function public.ensure_active_voice_config();

alter table public.voice_configs enable row level security;

-- One SELECT policy per role (splinter's multiple_permissive_policies): visitors read the active
-- voice; signed-in users read the active voice, admins every voice.
create policy "Visitors read the active voice"
  on public.voice_configs for select to anon
  using (is_active);
create policy "Signed-in users read the active voice, admins all voices"
  on public.voice_configs for select to authenticated
  using (is_active or (select public.is_admin()));
create policy "Admins add voices"
  on public.voice_configs for insert to authenticated
  with check ((select public.is_admin()));
create policy "Admins change voices"
  on public.voice_configs for update to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));
create policy "Admins delete voices"
  on public.voice_configs for delete to authenticated
  using ((select public.is_admin()));

revoke truncate, trigger, references on public.voice_configs from anon, authenticated;

-- The seed's local defaults. `supabase db push` does not run seed.sql, so production gets its
-- active row here; seed.sql repeats it idempotently for databases reset without this row.
insert into public.voice_configs (stability, similarity_boost, style, use_speaker_boost, pitch, speed, is_active)
select 0.25, 0.75, 0.45, true, 1, 1, true
 where not exists (select from public.voice_configs where is_active);
