-- Anonymous coach sessions, counted on the admin dashboard. Deliberately nothing personal: no
-- message text, no IP address, no user agent, no account. Only the coach edge function writes
-- here, with the service role (which bypasses row level security).

create table public.conversations (
  id uuid primary key default gen_random_uuid(),
  started_at timestamptz not null default now(),
  last_message_at timestamptz not null default now(),
  message_count integer not null default 0 check (message_count >= 0),
  rating smallint check (rating between 1 and 5),
  constraint conversations_last_message_after_start check (last_message_at >= started_at)
);

comment on table public.conversations is
  'Anonymous coach sessions: start, last activity, message count and an optional 1-5 rating. No personal data.';
comment on column public.conversations.rating is 'Visitor''s rating of the conversation, 1 to 5; null when not rated.';

create index conversations_last_message_at_idx on public.conversations (last_message_at);
create index conversations_started_at_idx on public.conversations (started_at);

alter table public.conversations enable row level security;

create policy "Admins read conversations"
  on public.conversations for select to authenticated
  using ((select public.is_admin()));

revoke truncate, trigger, references on public.conversations from anon, authenticated;
