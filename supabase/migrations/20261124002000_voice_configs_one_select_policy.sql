-- One SELECT policy per role on voice_configs (splinter's multiple_permissive_policies): signed-in
-- users had two permissive SELECT policies ("Anyone reads the active voice" and "Admins read all
-- voices"), which Postgres evaluates both for every row. Same rights, one policy per role:
-- visitors read the active voice; signed-in users read the active voice, admins every voice.
drop policy if exists "Anyone reads the active voice" on public.voice_configs;
drop policy if exists "Admins read all voices" on public.voice_configs;

create policy "Visitors read the active voice"
  on public.voice_configs for select to anon
  using (is_active);
create policy "Signed-in users read the active voice, admins all voices"
  on public.voice_configs for select to authenticated
  using (is_active or (select public.is_admin()));
