-- Open questions: what visitors asked that the knowledge base could not answer, so the operator
-- knows what to add. Kept narrow on purpose (visitors talk about health and life topics): the
-- question's text only, scrubbed of identifiers by the coach function before it arrives here,
-- counted by its German lexemes instead of stored twice, with no conversation, address or browser
-- detail and nothing that links two questions to one visitor, deleted 30 days after it was last
-- asked. Only the coach function writes (service role); only admins read, dismiss and clear.
--
--   public.system_settings                  the operator's switches (one row): recording on or off
--   public.open_questions                   one row per question: text, lexemes, count, first and
--                                           last asked, the document that answers it now
--   private.open_question_key(text)         the lexemes two questions are the same by
--   private.open_question_retention()       30 days after the last ask
--   public.record_open_question()           the coach function's one call: switch, topic, the
--                                           client's daily limit, insert or count
--   public.clear_open_questions()           "Alle löschen"
--   private.sweep_open_questions()          deletes what is past retention: pg_cron hourly where
--                                           the extension exists, the local stack at start and hourly
--   private.mark_answered_open_questions()  a newly processed document that the search now finds
--                                           for a question marks it answered ("jetzt beantwortet")


-- The operator's switches, one row (the primary key can only be true).
create table public.system_settings (
  id boolean primary key default true check (id),
  record_open_questions boolean not null default true,
  updated_at timestamptz not null default now()
);

comment on table public.system_settings is
  'The operator''s switches, exactly one row. record_open_questions: whether unanswered questions are kept (off deletes nothing).';

insert into public.system_settings default values;

create trigger system_settings_set_updated_at
  before update on public.system_settings
  for each row execute function public.set_updated_at();

alter table public.system_settings enable row level security;

create policy "Admins read the settings"
  on public.system_settings for select to authenticated
  using ((select public.is_admin()));

create policy "Admins change the settings"
  on public.system_settings for update to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));

-- The row is created here and never by anyone else; admins change the switch and nothing more.
-- Visitors have no business here at all.
revoke all on public.system_settings from anon;
revoke insert, update, delete, truncate, trigger, references on public.system_settings from authenticated;
grant update (record_open_questions) on public.system_settings to authenticated;


-- Two questions are the same question when the database's German text processing makes the same
-- lexemes of them (stop words gone, words stemmed, umlauts folded): "Was kostet ein Coaching?" and
-- "Coaching – was kostet das" are one question. The lexemes in order, space-separated.
create or replace function private.open_question_key(question text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select array_to_string(pg_catalog.tsvector_to_array(private.german_lexemes(question)), ' ')
$$;

comment on function private.open_question_key(text) is
  'The lexemes of a question (private.german_lexemes), sorted and space-separated: what makes two questions the same open question.';

-- The generated column calls it, and Postgres checks that whoever writes a row may.
revoke execute on function private.open_question_key(text) from public;
grant execute on function private.open_question_key(text) to authenticated, service_role;

create or replace function private.open_question_retention()
returns interval
language sql
immutable
set search_path = ''
as $$ select interval '30 days' $$;

comment on function private.open_question_retention() is
  'How long an open question is kept after it was last asked.';

revoke execute on function private.open_question_retention() from public, anon, authenticated;
grant execute on function private.open_question_retention() to service_role;


create table public.open_questions (
  id uuid primary key default gen_random_uuid(),
  question text not null check (char_length(question) between 1 and 300),
  lexemes text not null generated always as (private.open_question_key(question)) stored,
  ask_count integer not null default 1 check (ask_count >= 1),
  first_asked_at timestamptz not null default now(),
  last_asked_at timestamptz not null default now(),
  answered_by uuid references public.documents (id) on delete set null,
  answered_title text,
  answered_at timestamptz,
  constraint open_questions_lexemes_key unique (lexemes),
  constraint open_questions_last_after_first check (last_asked_at >= first_asked_at),
  constraint open_questions_answer_whole check (
    (answered_by is null and answered_title is null and answered_at is null)
    or (answered_by is not null and answered_title is not null and answered_at is not null)
  )
);

comment on table public.open_questions is
  'Questions the coach could not answer from its knowledge: scrubbed text only, counted by lexemes, no link to a visitor or conversation; deleted 30 days after last asked.';
comment on column public.open_questions.question is 'The question as first asked, scrubbed of e-mail addresses, phone numbers, links, long numbers and names; at most 300 characters.';
comment on column public.open_questions.answered_by is 'A document processed after the question was asked that the search now finds for it; null when none (or when it was deleted).';

create index open_questions_last_asked_at_idx on public.open_questions (last_asked_at);
create index open_questions_answered_by_idx on public.open_questions (answered_by);

alter table public.open_questions enable row level security;

create policy "Admins read open questions"
  on public.open_questions for select to authenticated
  using ((select public.is_admin()));

-- What an admin's processing marks (mark_answered_open_questions runs as the admin who ingests).
create policy "Admins mark open questions answered"
  on public.open_questions for update to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));

create policy "Admins dismiss open questions"
  on public.open_questions for delete to authenticated
  using ((select public.is_admin()));

-- Visitors reach nothing (not even the ids a realtime delete carries); admins read, mark, dismiss.
revoke all on public.open_questions from anon;
revoke insert, update, truncate, trigger, references on public.open_questions from authenticated;
grant update (answered_by, answered_title, answered_at) on public.open_questions to authenticated;

-- An answering document that is deleted takes its mark along (the foreign key sets answered_by null).
create or replace function private.forget_lost_answer()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.answered_by is null then
    new.answered_title := null;
    new.answered_at := null;
  end if;
  return new;
end
$$;

revoke execute on function private.forget_lost_answer() from public, anon, authenticated, service_role;

create trigger open_questions_forget_lost_answer
  before update of answered_by on public.open_questions
  for each row execute function private.forget_lost_answer();

-- The admin's tab follows the list live.
alter publication supabase_realtime add table public.open_questions;


-- The coach function's one call for a question its knowledge could not answer. In this order:
-- recording switched off → 'off' (nothing counted); no word that names a topic (only words that ask,
-- greet or thank: private.question_words) → 'no_topic'; over the client's daily limit (the guard's
-- per-client request counts, as function 'open_questions') → 'limited'; else the question is
-- inserted, or, when a question with the same lexemes is kept, counted once more and asked now
-- (and no longer marked answered: it was asked again and not answered) → 'kept'. The client name
-- goes to the guard's counts only, never into open_questions.
create or replace function public.record_open_question(question text, client text, per_day integer)
returns text
language plpgsql
volatile
set search_path = ''
as $$
declare
  asked constant text := left(btrim(record_open_question.question), 300);
  admitted json;
begin
  if (select auth.role()) is distinct from 'service_role' then
    raise exception 'only the coach function records open questions' using errcode = '42501';
  end if;
  if not coalesce((select s.record_open_questions from public.system_settings s), true) then
    return 'off';
  end if;
  if not exists (
    select from pg_catalog.unnest(pg_catalog.tsvector_to_array(private.german_lexemes(asked))) as l(lexeme)
     where not exists (select from private.question_words w where w.lexeme = l.lexeme)
  ) then
    return 'no_topic';
  end if;

  admitted := public.admit_request(
    p_fn => 'open_questions',
    p_client => record_open_question.client,
    p_per_minute => greatest(record_open_question.per_day, 1),
    p_per_day => greatest(record_open_question.per_day, 1)
  );
  if (admitted ->> 'allowed')::boolean is not true then
    return 'limited';
  end if;

  insert into public.open_questions as o (question)
  values (asked)
  on conflict (lexemes) do update
    set ask_count = o.ask_count + 1,
        last_asked_at = greatest(now(), o.last_asked_at),
        answered_by = null,
        answered_title = null,
        answered_at = null;
  return 'kept';
end
$$;

comment on function public.record_open_question(text, text, integer) is
  'Service role only (the coach function): keeps or counts a question the knowledge base could not answer; returns kept, off, no_topic or limited.';

revoke execute on function public.record_open_question(text, text, integer) from public, anon, authenticated;
grant execute on function public.record_open_question(text, text, integer) to service_role;


-- "Alle löschen": every open question, for an admin who says so (switching recording off keeps them).
create or replace function public.clear_open_questions()
returns integer
language plpgsql
volatile
set search_path = ''
as $$
declare
  removed integer;
begin
  if not ((select public.is_admin()) or (select auth.role()) = 'service_role') then
    raise exception 'only admins may delete the open questions' using errcode = '42501';
  end if;
  -- A condition that is always true: Supabase's sessions refuse a DELETE without any (pg-safeupdate).
  delete from public.open_questions q where true;
  get diagnostics removed = row_count;
  return removed;
end
$$;

comment on function public.clear_open_questions() is
  'Admin only: deletes every open question ("Alle löschen"); returns how many.';

revoke execute on function public.clear_open_questions() from public, anon;
grant execute on function public.clear_open_questions() to authenticated, service_role;


-- Retention: what was last asked longer ago than private.open_question_retention() goes. Run by
-- pg_cron on Supabase (below) and by the local stack at start and every hour, as the owner.
create or replace function private.sweep_open_questions(swept_at timestamptz default now())
returns integer
language plpgsql
volatile
set search_path = ''
as $$
declare
  removed integer;
begin
  delete from public.open_questions q
   where q.last_asked_at < sweep_open_questions.swept_at - private.open_question_retention();
  get diagnostics removed = row_count;
  return removed;
end
$$;

comment on function private.sweep_open_questions(timestamptz) is
  'Deletes open questions last asked more than private.open_question_retention() before swept_at (default now); returns how many.';

revoke execute on function private.sweep_open_questions(timestamptz) from public, anon, authenticated, service_role;

-- Supabase has pg_cron (installed as its documentation says); PGlite has not, and there the local
-- stack sweeps instead. Scheduling a job by name again replaces it, so this is safe to repeat.
do $$
begin
  if exists (select from pg_catalog.pg_available_extensions where name = 'pg_cron') then
    create extension if not exists pg_cron with schema pg_catalog;
    grant usage on schema cron to postgres;
    grant all privileges on all tables in schema cron to postgres;
    perform cron.schedule('open-questions-retention', '17 * * * *', 'select private.sweep_open_questions()');
  end if;
end
$$;


-- "jetzt beantwortet": when a document has been processed (it becomes COMPLETED: after an upload,
-- or processed again after an error), every open question not yet answered is searched as the
-- coach would search it; a question for which the search now finds a passage of this document
-- above its floor is marked answered by it. It runs as whoever processes (an admin, or the service
-- role), in the same transaction as the passages, so the mark and the passages arrive together.
-- Each question costs one search, so a document read again ("Neu einlesen", which stays
-- COMPLETED) is not searched for: "Alle neu einlesen" would pay it for every document.
create or replace function private.mark_answered_open_questions()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  update public.open_questions q
     set answered_by = new.id,
         answered_title = new.title,
         answered_at = now()
   where q.answered_by is null
     and exists (select from public.search_knowledge(q.question, 5) s where s.document_id = new.id);
  return null;
end
$$;

revoke execute on function private.mark_answered_open_questions() from public, anon, authenticated, service_role;

create trigger documents_mark_answered_open_questions
  after update of status on public.documents
  for each row
  when (new.status = 'COMPLETED' and old.status is distinct from 'COMPLETED' and new.deleting_since is null)
  execute function private.mark_answered_open_questions();
