-- A conversation row only for a question that got an answer. The coach decides the conversation
-- id when a question arrives (the one the browser sent back when it names a stored conversation,
-- else a new one) and counts the question once the answer has been given, in one atomic
-- statement: one more message in that conversation, or the conversation starts with this answered
-- question. Refused, failed and unanswered requests leave no trace in the admin's counters.

drop function if exists public.count_conversation_message(uuid);

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
