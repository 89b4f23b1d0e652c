-- Anonymous coach sessions, counted on the admin dashboard. Deliberately nothing personal: no
-- message text, no IP address, no user agent, no account. Only the coach edge function writes
-- here, with the service role (which bypasses row level security), through
-- count_answered_question().

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


-- A conversation row only for a question that got an answer. The coach decides the conversation
-- id when a question arrives (the one the browser sent back when it names a stored conversation,
-- else a new one) and counts the question once the answer has been given, in one atomic
-- statement: one more message in that conversation, or the conversation starts with this answered
-- question. Refused, failed and unanswered requests leave no trace in the admin's counters.
create or replace function public.count_answered_question(conversation_id uuid)
returns uuid
language plpgsql
volatile
set search_path = ''
as $$
begin
  if (select auth.role()) is distinct from 'service_role' then
    raise exception 'only the coach function counts messages' using errcode = '42501';
  end if;
  insert into public.conversations as c (id, message_count)
  values (count_answered_question.conversation_id, 1)
  on conflict (id) do update
    set message_count = c.message_count + 1,
        last_message_at = greatest(now(), c.last_message_at);
  return count_answered_question.conversation_id;
end
$$;

comment on function public.count_answered_question(uuid) is
  'Counts an answered question in the conversation (one more message, last activity now), starting the conversation with this id when there is none yet. Service role only (the coach function).';

revoke execute on function public.count_answered_question(uuid) from public, anon, authenticated;
grant execute on function public.count_answered_question(uuid) to service_role;
