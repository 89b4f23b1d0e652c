-- What every area builds on: the schema `private` for internals, the extensions the knowledge
-- base uses, and the two helpers the tables and policies share (is_admin(), set_updated_at()).


-- Internals that functions call but the Data API must not expose (only `public` is exposed).
create schema private;
revoke all on schema private from public;
grant usage on schema private to authenticated, service_role;

-- fuzzystrmatch (Levenshtein distance: the search's typo repair) and pgvector (passage
-- embeddings: the hybrid search) are available on Supabase; the local stack loads PGlite's builds.
create extension if not exists fuzzystrmatch with schema extensions;
create extension if not exists vector with schema extensions;


-- Admin means app_metadata.role = 'admin' in the request's JWT. app_metadata is only writable with
-- the service key, so a visitor cannot grant it to themselves. Reads the request settings only, so
-- it needs no elevated rights; (select auth.jwt()) lets Postgres evaluate it once per statement.
create or replace function public.is_admin()
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(((select auth.jwt()) -> 'app_metadata' ->> 'role') = 'admin', false)
$$;

comment on function public.is_admin() is
  'True when the request''s JWT carries app_metadata.role = admin. Used by policies and admin-only functions.';

-- Policies evaluate is_admin() as the caller, so every API role must be able to execute it.
revoke execute on function public.is_admin() from public;
grant execute on function public.is_admin() to anon, authenticated, service_role;

create or replace function public.set_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;

comment on function public.set_updated_at() is 'Trigger: stamps updated_at on every update.';

revoke execute on function public.set_updated_at() from public, anon, authenticated, service_role;
