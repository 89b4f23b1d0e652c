-- The coach's conversation counter in one atomic statement: a user message adds one to its
-- conversation (and moves its last activity forward), or starts a new conversation when the id is
-- missing or unknown (an old tab, a wiped database). Replaces read-then-write with retries in the
-- coach function: concurrent messages of one session can no longer go uncounted.

create or replace function public.count_conversation_message(conversation_id uuid default null)
returns uuid
language plpgsql
volatile
set search_path = ''
as $$
declare
  counted uuid;
begin
  if (select auth.role()) is distinct from 'service_role' then
    raise exception 'only the coach function counts messages' using errcode = '42501';
  end if;
  if conversation_id is not null then
    update public.conversations c
       set message_count = c.message_count + 1,
           last_message_at = greatest(now(), c.last_message_at)
     where c.id = count_conversation_message.conversation_id
    returning c.id into counted;
    if counted is not null then
      return counted;
    end if;
  end if;
  insert into public.conversations (message_count) values (1) returning id into counted;
  return counted;
end
$$;

comment on function public.count_conversation_message(uuid) is
  'Counts a user message in the conversation (one more message, last activity now) or starts one when the id is null or unknown; returns the conversation id. Service role only (the coach function).';

revoke execute on function public.count_conversation_message(uuid) from public, anon, authenticated;
grant execute on function public.count_conversation_message(uuid) to service_role;
