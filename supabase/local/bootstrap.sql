-- What a fresh Supabase database already has before any project migration runs: the API roles,
-- the auth and storage schemas with the tables and functions our migrations and the local stack
-- touch, default privileges as Supabase grants them, and the realtime publication.
-- Applied exactly once per local database (PGlite), before supabase/migrations/*.sql.
-- Never run this against a real Supabase project: it already has all of this.

-- ---------------------------------------------------------------------------------------------
-- Roles. The API runs every request as one of anon, authenticated or service_role (PostgREST
-- switches to the JWT's role); service_role bypasses row level security.
-- ---------------------------------------------------------------------------------------------
do $$
begin
  if not exists (select from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
  if not exists (select from pg_roles where rolname = 'authenticator') then
    create role authenticator noinherit login;
  end if;
  -- Owners of the auth and storage services on Supabase; created so migrations that grant to
  -- them (auth hooks, storage helpers) apply unchanged.
  if not exists (select from pg_roles where rolname = 'supabase_auth_admin') then
    create role supabase_auth_admin noinherit nologin;
  end if;
  if not exists (select from pg_roles where rolname = 'supabase_storage_admin') then
    create role supabase_storage_admin noinherit nologin;
  end if;
end
$$;

grant anon, authenticated, service_role to authenticator;
grant anon, authenticated, service_role to postgres;

-- ---------------------------------------------------------------------------------------------
-- Schemas and default privileges. Supabase grants the API roles everything on objects created in
-- public; row level security then decides. Policies, not grants, are the guard.
-- ---------------------------------------------------------------------------------------------
create schema if not exists extensions;
create schema if not exists auth;
create schema if not exists storage;

grant usage on schema public to anon, authenticated, service_role;
grant usage on schema extensions to anon, authenticated, service_role;
grant usage on schema auth to anon, authenticated, service_role;
grant usage on schema storage to anon, authenticated, service_role;

alter default privileges for role postgres in schema public
  grant all on tables to anon, authenticated, service_role;
alter default privileges for role postgres in schema public
  grant all on functions to anon, authenticated, service_role;
alter default privileges for role postgres in schema public
  grant all on sequences to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- auth: the GoTrue tables the local auth server and our triggers use, with GoTrue's column names.
-- ---------------------------------------------------------------------------------------------
create table if not exists auth.users (
  instance_id uuid,
  id uuid primary key,
  aud varchar(255),
  role varchar(255),
  email varchar(255),
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  invited_at timestamptz,
  confirmation_token varchar(255),
  confirmation_sent_at timestamptz,
  recovery_token varchar(255),
  recovery_sent_at timestamptz,
  email_change_token_new varchar(255),
  email_change varchar(255),
  email_change_sent_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb,
  raw_user_meta_data jsonb,
  is_super_admin boolean,
  created_at timestamptz,
  updated_at timestamptz,
  phone text unique default null,
  phone_confirmed_at timestamptz,
  confirmed_at timestamptz generated always as (least(email_confirmed_at, phone_confirmed_at)) stored,
  banned_until timestamptz,
  is_sso_user boolean not null default false,
  deleted_at timestamptz,
  is_anonymous boolean not null default false
);
comment on table auth.users is 'Auth: user accounts (GoTrue layout).';
create unique index if not exists users_email_partial_key on auth.users (email) where (is_sso_user = false);
create index if not exists users_instance_id_email_idx on auth.users (instance_id, lower(email));

create table if not exists auth.sessions (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz,
  updated_at timestamptz,
  not_after timestamptz,
  refreshed_at timestamp,
  user_agent text,
  ip inet
);
comment on table auth.sessions is 'Auth: one row per signed-in session; deleting it signs the session out.';
create index if not exists sessions_user_id_idx on auth.sessions (user_id);

create table if not exists auth.refresh_tokens (
  instance_id uuid,
  id bigserial primary key,
  token varchar(255) unique,
  -- GoTrue stores user_id as varchar; uuid with a foreign key keeps the local data consistent.
  user_id uuid references auth.users (id) on delete cascade,
  revoked boolean,
  created_at timestamptz,
  updated_at timestamptz,
  parent varchar(255),
  session_id uuid references auth.sessions (id) on delete cascade
);
comment on table auth.refresh_tokens is 'Auth: refresh tokens; rotation links a token to its parent.';
create index if not exists refresh_tokens_parent_idx on auth.refresh_tokens (parent);
create index if not exists refresh_tokens_session_id_revoked_idx on auth.refresh_tokens (session_id, revoked);

-- The request's JWT claims, read exactly as Supabase does: PostgREST sets request.jwt.claims for
-- the transaction; the older per-claim settings are honoured for compatibility. nullif matters:
-- once a transaction has set the setting, later transactions see '' rather than null.
create or replace function auth.uid()
returns uuid
language sql
stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;

create or replace function auth.role()
returns text
language sql
stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
  )::text
$$;

create or replace function auth.email()
returns text
language sql
stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.email', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
  )::text
$$;

create or replace function auth.jwt()
returns jsonb
language sql
stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;

grant execute on function auth.uid(), auth.role(), auth.email(), auth.jwt()
  to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- storage: buckets and object metadata as the Storage API keeps them. The bytes live outside the
-- database. Row level security is on, as on Supabase, so migrations only add policies.
-- ---------------------------------------------------------------------------------------------
create table if not exists storage.buckets (
  id text primary key,
  name text not null unique,
  owner uuid,
  owner_id text,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  public boolean default false,
  avif_autodetection boolean default false,
  file_size_limit bigint,
  allowed_mime_types text[]
);
comment on table storage.buckets is 'Storage: buckets with their public flag and upload limits.';

create table if not exists storage.objects (
  id uuid primary key default gen_random_uuid(),
  bucket_id text references storage.buckets (id),
  name text,
  owner uuid,
  owner_id text,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now(),
  metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  version text,
  user_metadata jsonb
);
comment on table storage.objects is 'Storage: one row per stored file (metadata holds size, mimetype, cacheControl, eTag).';
create unique index if not exists bucketid_objname on storage.objects (bucket_id, name);
create index if not exists name_prefix_search on storage.objects (name text_pattern_ops);

alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;

grant all on storage.buckets, storage.objects to anon, authenticated, service_role;

create or replace function storage.foldername(name text)
returns text[]
language sql
immutable
as $$
  select (string_to_array(name, '/'))[1:cardinality(string_to_array(name, '/')) - 1]
$$;

create or replace function storage.filename(name text)
returns text
language sql
immutable
as $$
  select (string_to_array(name, '/'))[cardinality(string_to_array(name, '/'))]
$$;

-- As Supabase's: the last extension exactly as written ('c.PDF' gives 'PDF').
create or replace function storage.extension(name text)
returns text
language sql
immutable
as $$
  select case
    when storage.filename(name) like '%.%'
      then substring(storage.filename(name) from '\.([^.]*)$')
    else ''
  end
$$;

grant execute on function storage.foldername(text), storage.filename(text), storage.extension(text)
  to anon, authenticated, service_role;

-- As on Supabase, only the Storage API deletes objects and buckets (it sets
-- storage.allow_delete_query for its own statements): a direct SQL delete would leave the stored
-- bytes behind.
create or replace function storage.protect_delete()
returns trigger
language plpgsql
as $$
begin
  if coalesce(current_setting('storage.allow_delete_query', true), 'false') <> 'true' then
    raise exception 'Direct deletion from storage tables is not allowed. Use the Storage API instead.'
      using hint = 'This prevents accidental data loss from orphaned objects.',
            errcode = '42501';
  end if;
  return null;
end
$$;

drop trigger if exists protect_buckets_delete on storage.buckets;
create trigger protect_buckets_delete before delete on storage.buckets
  for each statement execute function storage.protect_delete();
drop trigger if exists protect_objects_delete on storage.objects;
create trigger protect_objects_delete before delete on storage.objects
  for each statement execute function storage.protect_delete();

-- ---------------------------------------------------------------------------------------------
-- Realtime: Supabase creates this publication empty; migrations add tables to it.
-- ---------------------------------------------------------------------------------------------
do $$
begin
  if not exists (select from pg_publication where pubname = 'supabase_realtime') then
    create publication supabase_realtime;
  end if;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- supabase_local: bookkeeping of the local stand-in only (no Supabase counterpart, no API access).
-- ---------------------------------------------------------------------------------------------
create schema if not exists supabase_local;
revoke all on schema supabase_local from public;

create table if not exists supabase_local.setup_steps (
  step text primary key check (step in ('bootstrap', 'seed')),
  completed_at timestamptz not null default now()
);
comment on table supabase_local.setup_steps is 'Local stack: one-time setup steps already done on this data dir.';

create table if not exists supabase_local.applied_migrations (
  name text primary key,
  applied_at timestamptz not null default now()
);
comment on table supabase_local.applied_migrations is 'Local stack: migration files already applied, by file name.';

-- PGlite has no logical replication, so the local realtime server cannot read the WAL as Supabase
-- Realtime does. Instead every table in the supabase_realtime publication gets a trigger that
-- records the change here and notifies the channel supabase_local_changes with the change id.
-- Old records keep only the primary key unless the table has replica identity full, which is
-- what Supabase Realtime delivers too.
create table if not exists supabase_local.changes (
  id bigint generated always as identity primary key,
  schema_name text not null,
  table_name text not null,
  type text not null check (type in ('INSERT', 'UPDATE', 'DELETE')),
  record jsonb,
  old_record jsonb,
  committed_at timestamptz not null default clock_timestamp()
);
comment on table supabase_local.changes is 'Local stack: row changes of published tables, read by the local realtime server.';

create or replace function supabase_local.capture_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  old_row jsonb;
  change_id bigint;
begin
  if tg_op in ('UPDATE', 'DELETE') then
    old_row := to_jsonb(old);
    if (select c.relreplident from pg_catalog.pg_class c where c.oid = tg_relid) <> 'f' then
      select coalesce(jsonb_object_agg(a.attname, old_row -> a.attname::text), '{}'::jsonb)
        into old_row
        from pg_catalog.pg_index i
        join pg_catalog.pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
       where i.indrelid = tg_relid and i.indisprimary;
    end if;
  end if;

  insert into supabase_local.changes (schema_name, table_name, type, record, old_record)
  values (
    tg_table_schema,
    tg_table_name,
    tg_op,
    case when tg_op = 'DELETE' then null else to_jsonb(new) end,
    old_row
  )
  returning id into change_id;

  perform pg_catalog.pg_notify('supabase_local_changes', change_id::text);
  return null;
end
$$;

-- Attaches capture_change to every table currently in the publication and detaches it from tables
-- that left it. Called after migrations, since migrations decide what is published.
create or replace function supabase_local.sync_realtime_triggers()
returns void
language plpgsql
set search_path = ''
as $$
declare
  target record;
begin
  for target in
    select t.tgrelid::regclass as rel
      from pg_catalog.pg_trigger t
     where t.tgname = 'supabase_local_capture_change'
       and not exists (
         select from pg_catalog.pg_publication_rel pr
          join pg_catalog.pg_publication p on p.oid = pr.prpubid
         where p.pubname = 'supabase_realtime' and pr.prrelid = t.tgrelid
       )
  loop
    execute format('drop trigger supabase_local_capture_change on %s', target.rel);
  end loop;

  for target in
    select format('%I.%I', pt.schemaname, pt.tablename) as rel
      from pg_catalog.pg_publication_tables pt
     where pt.pubname = 'supabase_realtime'
       and not exists (
         select from pg_catalog.pg_trigger t
          where t.tgname = 'supabase_local_capture_change'
            and t.tgrelid = format('%I.%I', pt.schemaname, pt.tablename)::regclass
       )
  loop
    execute format(
      'create trigger supabase_local_capture_change after insert or update or delete on %s '
      'for each row execute function supabase_local.capture_change()',
      target.rel
    );
  end loop;
end
$$;

insert into supabase_local.setup_steps (step) values ('bootstrap') on conflict do nothing;
