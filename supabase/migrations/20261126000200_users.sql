-- Operator profiles: one row per auth user, kept in step with auth.users by a trigger. Visitors
-- have no accounts, so every row is an operator (sign-ups are off; admins are created with the
-- service key). Counted by admin_stats() as totalUsers.

create table public.users (
  id uuid primary key references auth.users (id) on delete cascade,
  email text,
  role text,
  created_at timestamptz not null default now()
);

comment on table public.users is
  'Operator profiles mirrored from auth.users (email, app_metadata.role). Written only by the auth trigger.';
comment on column public.users.role is 'app_metadata.role of the auth user, e.g. admin; null for a plain account.';

alter table public.users enable row level security;

-- Nobody writes profiles through the API; the trigger below does (as its owner).
create policy "Admins read operator profiles"
  on public.users for select
  to authenticated
  using ((select public.is_admin()));

revoke truncate, trigger, references on public.users from anon, authenticated;

-- Runs inside the auth server's transaction (on Supabase as supabase_auth_admin, which may not
-- write to public), hence security definer with an empty search_path.
create or replace function public.handle_auth_user_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    delete from public.users where id = old.id;
    return old;
  end if;

  insert into public.users (id, email, role, created_at)
  values (new.id, new.email, new.raw_app_meta_data ->> 'role', coalesce(new.created_at, now()))
  on conflict (id) do update
    set email = excluded.email,
        role = excluded.role;
  return new;
end
$$;

comment on function public.handle_auth_user_change() is 'Trigger on auth.users: keeps public.users in step.';

revoke execute on function public.handle_auth_user_change() from public, anon, authenticated, service_role;

-- Only the columns the profile mirrors: sign-ins update last_sign_in_at on every login.
create trigger on_auth_user_change
  after insert or update of email, raw_app_meta_data or delete
  on auth.users
  for each row execute function public.handle_auth_user_change();

-- Accounts that existed before this migration get their profile too.
insert into public.users (id, email, role, created_at)
select u.id, u.email, u.raw_app_meta_data ->> 'role', coalesce(u.created_at, now())
  from auth.users u
on conflict (id) do nothing;
