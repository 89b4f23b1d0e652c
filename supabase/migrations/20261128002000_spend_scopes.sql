-- Budgets beside the client's: its network's (IPv4 /24, IPv6 /48) and, where visitors sign in
-- anonymously, its session's, reserved in the same atomic step as the client's budget and the
-- day's cap; embeddings on a cap of their own; reservations that end (one never settled is
-- released after ten minutes); the operator's alert at 80 % and 100 % of a cap, raised once a day
-- per kind and threshold. public.admit_request() and public.reserve_spend() take their budgets as
-- one list now, so the versions of …_sliding_minute.sql and …_usage_limits.sql are dropped and
-- replaced; public.settle_spend() and public.usage_today() are restated.
--
-- Locking: every reservation, settlement and release of a kind takes the day's row of that kind
-- (public.daily_spend) before any budget's row (public.client_spend), and the budgets' rows in the
-- order of their keys. The day's row is taken first by all of them, so two of them can never wait
-- for each other in a circle.

-- The kinds of spend: model tokens (the coach), TTS characters, STT seconds and, apart from the
-- visitors' model tokens, the tokens of the knowledge base's embeddings (an admin re-reading
-- documents never uses up what the coach needs).
alter table public.daily_spend drop constraint daily_spend_kind_check;
alter table public.daily_spend add constraint daily_spend_kind_check
  check (kind in ('model_tokens', 'tts_characters', 'stt_seconds', 'embedding_tokens'));
alter table public.client_spend drop constraint client_spend_kind_check;
alter table public.client_spend add constraint client_spend_kind_check
  check (kind in ('model_tokens', 'tts_characters', 'stt_seconds', 'embedding_tokens'));
alter table public.spend_reservations drop constraint spend_reservations_kind_check;
alter table public.spend_reservations add constraint spend_reservations_kind_check
  check (kind in ('model_tokens', 'tts_characters', 'stt_seconds', 'embedding_tokens'));

-- A budget row belongs to a client (its address, an IPv6 client by its /64), to a network (an
-- IPv4 /24 or IPv6 /48, written as such: '192.0.2.0/24') or to a visitor's session
-- ('session:<user id>'). The keys of the three never coincide.
alter table public.client_spend add column scope text not null default 'client'
  check (scope in ('client', 'network', 'session'));
comment on table public.client_spend is
  'Spend per day (Europe/Berlin), kind and budget (a client, its network or a visitor session), reservations included; each budget is checked against its row.';
comment on column public.client_spend.scope is
  'Whose budget the row is: client (an address, IPv6 by /64), network (IPv4 /24, IPv6 /48) or session (session:<user id>).';

-- The budgets a reservation was taken from, so that settling and releasing reach every one of them.
alter table public.spend_reservations add column scopes text[] not null default '{}';
comment on column public.spend_reservations.scopes is 'The keys of the budget rows (public.client_spend) the reservation is counted in.';
create index spend_reservations_open_since on public.spend_reservations (kind, created_at);
comment on table public.spend_reservations is
  'Open reservations: the largest cost of a request under way, counted in client_spend and daily_spend until settled, or released after ten minutes.';

-- The operator's alerts: one row per day, kind and threshold, written by the admission that
-- crossed it, so every function instance together reports it once.
create table public.spend_alerts (
  day date not null,
  kind text not null check (kind in ('model_tokens', 'tts_characters', 'stt_seconds', 'embedding_tokens')),
  threshold smallint not null check (threshold in (80, 100)),
  amount bigint not null,
  cap bigint not null,
  clients integer not null,
  raised_at timestamptz not null default now(),
  primary key (day, kind, threshold)
);
alter table public.spend_alerts enable row level security;
revoke all on public.spend_alerts from anon, authenticated;
comment on table public.spend_alerts is
  'A daily cap reached 80 % or 100 % (a request refused for the cap): what had been spent then and by how many clients; once per day, kind and threshold.';

-- How long a reservation may stay open: a request whose instance died without settling gives
-- its reservation back after this long instead of holding it until the day ends.
create or replace function private.reservation_lifetime()
returns interval
language sql
immutable
set search_path = ''
as $$ select interval '10 minutes' $$;

-- Gives back the reservations of one kind open for longer than private.reservation_lifetime():
-- the day's rows first (in day order), then the budgets' rows (in key order). A reservation being
-- settled at this moment is skipped (its settlement wins). Returns how many were released.
create or replace function private.release_expired_spend(p_kind text)
returns integer
language plpgsql
volatile
set search_path = ''
as $$
declare
  expired uuid[];
begin
  select array_agg(o.id order by o.id) into expired
    from (select r.id from public.spend_reservations r
           where r.kind = p_kind and r.created_at < now() - private.reservation_lifetime()
             for update skip locked) o;
  if expired is null then
    return 0;
  end if;
  perform 1 from public.daily_spend s
   where s.kind = p_kind and s.day in (select r.day from public.spend_reservations r where r.id = any (expired))
   order by s.day for update;
  update public.daily_spend s set amount = greatest(0, s.amount - e.total)
    from (select r.day, sum(r.amount) as total from public.spend_reservations r where r.id = any (expired) group by r.day) e
   where s.day = e.day and s.kind = p_kind;
  perform 1 from public.client_spend c
    join (select r.day, unnest(r.scopes) as key from public.spend_reservations r where r.id = any (expired)) k
      on c.day = k.day and c.client = k.key
   where c.kind = p_kind
   order by c.day, c.client for update of c;
  update public.client_spend c set amount = greatest(0, c.amount - e.total)
    from (select r.day, key, sum(r.amount) as total
            from public.spend_reservations r, unnest(r.scopes) as key
           where r.id = any (expired) group by r.day, key) e
   where c.day = e.day and c.client = e.key and c.kind = p_kind;
  delete from public.spend_reservations r where r.id = any (expired);
  return cardinality(expired);
end
$$;

-- Raises the operator's alert for a day's spend of a kind: 80 once the day's amount reaches 80 %
-- of the cap, 100 once it reaches the cap or a request was refused for it (p_refused). Each
-- threshold is recorded once per day and kind; returns the newly raised ones
-- ({kind, thresholds, amount, cap, clients}) or null.
create or replace function private.spend_alert(p_day date, p_kind text, p_amount bigint, p_cap bigint, p_refused boolean default false)
returns json
language plpgsql
volatile
set search_path = ''
as $$
declare
  reached smallint[] := case
    when p_refused or p_amount >= p_cap then array[80, 100]::smallint[]
    when p_amount * 100 >= p_cap * 80 then array[80]::smallint[]
    else array[]::smallint[]
  end;
  clients integer;
  raised smallint[];
begin
  if cardinality(reached) = 0 or not exists (
    select 1 from unnest(reached) t
     where not exists (select 1 from public.spend_alerts a where a.day = p_day and a.kind = p_kind and a.threshold = t)
  ) then
    return null;
  end if;
  select count(*) into clients
    from public.client_spend c
   where c.day = p_day and c.kind = p_kind and c.scope = 'client' and c.amount > 0;
  with inserted as (
    insert into public.spend_alerts (day, kind, threshold, amount, cap, clients)
    select p_day, p_kind, t, p_amount, p_cap, clients from unnest(reached) t
    on conflict (day, kind, threshold) do nothing
    returning threshold
  )
  select array_agg(i.threshold order by i.threshold) into raised from inserted i;
  if raised is null then
    return null;
  end if;
  return json_build_object('kind', p_kind, 'thresholds', raised, 'amount', p_amount, 'cap', p_cap, 'clients', clients);
end
$$;

-- The budgets a request is counted against, as the functions send them:
-- [{"scope": "client" | "network" | "session", "key": text, "budget": bigint}, …], in key order.
create or replace function private.spend_budgets(p_budgets jsonb)
returns table (scope text, key text, budget bigint)
language sql
immutable
set search_path = ''
as $$
  select b.scope, b.key, b.budget
    from jsonb_to_recordset(coalesce(p_budgets, '[]'::jsonb)) as b(scope text, key text, budget bigint)
   where b.key is not null and b.budget is not null
   order by b.key
$$;

drop function public.reserve_spend(text, text, bigint, bigint, bigint);

-- Reserves p_amount of p_kind against the day's cap and every budget of p_budgets: added to the
-- day's row only while it stays within p_cap and to each budget's row only while it stays within
-- that budget, each in one statement (an upsert whose update has a condition, which Postgres
-- evaluates on the row it has locked, so two requests racing for the last of a budget or of the
-- cap cannot both get it). What one refused step had added is given back in the same transaction.
-- Returns {allowed, reservation, alert} or {allowed: false, reason: 'spend_cap' | 'budget',
-- scope?, kind, retryAfter, alert?}.
create or replace function public.reserve_spend(p_kind text, p_amount bigint, p_cap bigint, p_budgets jsonb)
returns json
language plpgsql
volatile
set search_path = ''
as $$
declare
  today constant date := (select public.spend_day());
  seconds_to_tomorrow constant integer := greatest(1, ceil(extract(epoch from
    (date_trunc('day', now(), 'Europe/Berlin') + interval '1 day') - now()))::integer);
  wanted constant bigint := greatest(coalesce(p_amount, 0), 0);
  day_total bigint;
  entry record;
  counted text[] := '{}';
  owner text;
  reserved uuid;
begin
  if (select auth.role()) is distinct from 'service_role' then
    raise exception 'only the functions may reserve spend' using errcode = '42501';
  end if;
  perform private.release_expired_spend(p_kind);

  -- The day's cap first, so that a request over both is told the cap (everyone waits for tomorrow).
  insert into public.daily_spend as s (day, kind, amount)
  select today, p_kind, wanted where wanted <= p_cap
  on conflict (day, kind) do update set amount = s.amount + excluded.amount
    where s.amount + excluded.amount <= p_cap
  returning s.amount into day_total;
  if not found then
    day_total := coalesce((select s.amount from public.daily_spend s where s.day = today and s.kind = p_kind), 0);
    return json_build_object('allowed', false, 'reason', 'spend_cap', 'kind', p_kind, 'retryAfter', seconds_to_tomorrow,
      'alert', private.spend_alert(today, p_kind, day_total, p_cap, true));
  end if;

  for entry in select * from private.spend_budgets(p_budgets) loop
    insert into public.client_spend as c (day, client, kind, amount, scope)
    select today, entry.key, p_kind, wanted, entry.scope where wanted <= entry.budget
    on conflict (day, client, kind) do update set amount = c.amount + excluded.amount
      where c.amount + excluded.amount <= entry.budget;
    if not found then
      -- Given back within the same transaction: no other request ever saw it.
      update public.client_spend c set amount = c.amount - wanted
       where c.day = today and c.kind = p_kind and c.client = any (counted);
      update public.daily_spend s set amount = s.amount - wanted where s.day = today and s.kind = p_kind;
      return json_build_object('allowed', false, 'reason', 'budget', 'scope', entry.scope, 'kind', p_kind,
        'retryAfter', seconds_to_tomorrow);
    end if;
    counted := counted || entry.key;
    if entry.scope = 'client' then
      owner := entry.key;
    end if;
  end loop;

  insert into public.spend_reservations (day, client, kind, amount, scopes)
  values (today, coalesce(owner, counted[1], ''), p_kind, wanted, counted)
  returning id into reserved;
  return json_build_object('allowed', true, 'reservation', reserved, 'alert', private.spend_alert(today, p_kind, day_total, p_cap));
end
$$;

-- Replaces a reservation by what the request really cost (the provider's bill): the difference
-- goes to the day's row and to every budget's row of the reservation's day. Settling twice, an
-- unknown reservation or one already released changes nothing. Returns the amount recorded, or
-- null for an unknown reservation.
create or replace function public.settle_spend(p_reservation uuid, p_amount bigint)
returns bigint
language plpgsql
volatile
set search_path = ''
as $$
declare
  reservation public.spend_reservations;
  actual constant bigint := greatest(coalesce(p_amount, 0), 0);
begin
  if (select auth.role()) is distinct from 'service_role' then
    raise exception 'only the functions may settle spend' using errcode = '42501';
  end if;
  delete from public.spend_reservations r where r.id = p_reservation returning r.* into reservation;
  if reservation.id is null then
    return null;
  end if;
  update public.daily_spend s set amount = greatest(0, s.amount + actual - reservation.amount)
   where s.day = reservation.day and s.kind = reservation.kind;
  perform 1 from public.client_spend c
   where c.day = reservation.day and c.kind = reservation.kind and c.client = any (reservation.scopes)
   order by c.client for update;
  update public.client_spend c set amount = greatest(0, c.amount + actual - reservation.amount)
   where c.day = reservation.day and c.kind = reservation.kind and c.client = any (reservation.scopes);
  return actual;
end
$$;

drop function public.admit_request(text, text, integer, integer, integer, integer, text, bigint, bigint, bigint);

-- The admission of one request, atomic per client: the day's cap and every budget of p_budgets
-- (a request is refused at once when one of them is used up), requests per minute (sliding) and
-- per day, a stream lease when p_max_concurrent > 0, and the reservation of p_amount of p_kind.
-- Returns {allowed, lease?, reservation?, alert?} or {allowed: false, reason, scope?, kind?,
-- retryAfter, alert?}; reason is 'spend_cap', 'budget', 'rate_minute', 'rate_day' or 'concurrency'.
create or replace function public.admit_request(
  p_fn text,
  p_client text,
  p_per_minute integer,
  p_per_day integer,
  p_max_concurrent integer default 0,
  p_lease_seconds integer default 120,
  p_kind text default null,
  p_amount bigint default 0,
  p_cap bigint default null,
  p_budgets jsonb default null
)
returns json
language plpgsql
volatile
set search_path = ''
as $$
declare
  now_ts constant timestamptz := now();
  today constant date := (select public.spend_day());
  minute_start constant timestamptz := date_trunc('minute', now_ts);
  day_start constant timestamptz := date_trunc('day', now_ts, 'Europe/Berlin');
  seconds_to_tomorrow constant integer :=
    greatest(1, ceil(extract(epoch from (day_start + interval '1 day') - now_ts))::integer);
  minute_elapsed constant double precision := extract(epoch from now_ts - minute_start);
  day_total bigint;
  spent_scope text;
  minute_count integer;
  previous_count integer;
  carried double precision;
  day_count integer;
  streams integer;
  reserved json;
  lease uuid;
begin
  if (select auth.role()) is distinct from 'service_role' then
    raise exception 'only the functions may admit requests' using errcode = '42501';
  end if;

  -- Requests of one client are admitted one after the other, whichever instance serves them.
  perform private.client_lock(p_client);

  if p_kind is not null then
    -- What an instance that died left reserved is given back before anything is judged by it.
    perform private.release_expired_spend(p_kind);
    day_total := coalesce((select s.amount from public.daily_spend s where s.day = today and s.kind = p_kind), 0);
    if day_total >= p_cap then
      return json_build_object('allowed', false, 'reason', 'spend_cap', 'kind', p_kind, 'retryAfter', seconds_to_tomorrow,
        'alert', private.spend_alert(today, p_kind, day_total, p_cap, true));
    end if;
    select b.scope into spent_scope
      from private.spend_budgets(p_budgets) b
      join public.client_spend c on c.day = today and c.client = b.key and c.kind = p_kind
     where c.amount >= b.budget
     limit 1;
    if spent_scope is not null then
      return json_build_object('allowed', false, 'reason', 'budget', 'scope', spent_scope, 'kind', p_kind,
        'retryAfter', seconds_to_tomorrow);
    end if;
  end if;

  insert into public.request_counts as r (fn, client, window_kind, window_start, count)
  values (p_fn, p_client, 'minute', minute_start, 1)
  on conflict (fn, client, window_kind, window_start) do update set count = r.count + 1
  returning r.count into minute_count;
  previous_count := coalesce((select r.count from public.request_counts r
    where r.fn = p_fn and r.client = p_client and r.window_kind = 'minute'
      and r.window_start = minute_start - interval '1 minute'), 0);
  carried := previous_count * (1 - minute_elapsed / 60);
  if minute_count + carried > p_per_minute then
    return json_build_object('allowed', false, 'reason', 'rate_minute',
      'retryAfter', private.minute_retry_after(minute_count, previous_count, minute_elapsed, p_per_minute));
  end if;

  insert into public.request_counts as r (fn, client, window_kind, window_start, count)
  values (p_fn, p_client, 'day', day_start, 1)
  on conflict (fn, client, window_kind, window_start) do update set count = r.count + 1
  returning r.count into day_count;
  if day_count > p_per_day then
    return json_build_object('allowed', false, 'reason', 'rate_day', 'retryAfter', seconds_to_tomorrow);
  end if;

  if p_max_concurrent > 0 then
    delete from public.active_streams a where a.fn = p_fn and a.client = p_client and a.expires_at <= now_ts;
    select count(*) into streams from public.active_streams a where a.fn = p_fn and a.client = p_client;
    if streams >= p_max_concurrent then
      return json_build_object('allowed', false, 'reason', 'concurrency', 'retryAfter', 5);
    end if;
  end if;

  if p_kind is not null and p_amount > 0 then
    reserved := public.reserve_spend(p_kind, p_amount, p_cap, p_budgets);
    if (reserved ->> 'allowed')::boolean is not true then
      return reserved;
    end if;
  end if;

  if p_max_concurrent > 0 then
    insert into public.active_streams (fn, client, expires_at)
    values (p_fn, p_client, now_ts + make_interval(secs => p_lease_seconds))
    returning id into lease;
  end if;

  -- Old rows go now and then; the tables stay small without a scheduled job.
  if random() < 0.01 then
    delete from public.request_counts r where r.window_start < now_ts - interval '2 days';
    delete from public.client_spend c where c.day < today - 2;
    delete from public.spend_reservations s where s.day < today - 2;
    delete from public.spend_alerts a where a.day < today - 30;
  end if;

  return json_build_object('allowed', true, 'lease', lease, 'reservation', reserved ->> 'reservation',
    'alert', reserved -> 'alert');
end
$$;

-- Today's spend for the admin dashboard, read by the system-settings function with the service
-- role: per kind the amount (reservations included) and how many clients spent, and today's
-- alerts. It runs as the caller (no security definer) and no signed-in role may call it.
create or replace function public.usage_today()
returns json
language plpgsql
stable
security invoker
set search_path = ''
as $$
declare
  today constant date := (select public.spend_day());
begin
  if (select auth.role()) is distinct from 'service_role' then
    raise exception 'only the functions may read the usage' using errcode = '42501';
  end if;
  return json_build_object(
    'modelTokens', coalesce((select s.amount from public.daily_spend s where s.day = today and s.kind = 'model_tokens'), 0),
    'ttsCharacters', coalesce((select s.amount from public.daily_spend s where s.day = today and s.kind = 'tts_characters'), 0),
    'sttSeconds', coalesce((select s.amount from public.daily_spend s where s.day = today and s.kind = 'stt_seconds'), 0),
    'embeddingTokens', coalesce((select s.amount from public.daily_spend s where s.day = today and s.kind = 'embedding_tokens'), 0),
    'clients', json_build_object(
      'modelTokens', (select count(*) from public.client_spend c where c.day = today and c.kind = 'model_tokens' and c.scope = 'client' and c.amount > 0),
      'ttsCharacters', (select count(*) from public.client_spend c where c.day = today and c.kind = 'tts_characters' and c.scope = 'client' and c.amount > 0),
      'sttSeconds', (select count(*) from public.client_spend c where c.day = today and c.kind = 'stt_seconds' and c.scope = 'client' and c.amount > 0)
    ),
    'alerts', coalesce((
      select json_agg(json_build_object('kind', a.kind, 'threshold', a.threshold, 'amount', a.amount, 'cap', a.cap,
                                        'clients', a.clients, 'raisedAt', a.raised_at) order by a.kind, a.threshold)
        from public.spend_alerts a where a.day = today), '[]'::json)
  );
end
$$;

-- One rating per conversation, held by the database itself: a rating, once given, is never
-- replaced (not even by the service role, which bypasses row level security).
create or replace function private.keep_first_rating()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.rating is not null and new.rating is distinct from old.rating then
    raise exception 'conversation % is already rated', old.id using errcode = '23514';
  end if;
  return new;
end
$$;

create trigger conversations_rated_once
  before update of rating on public.conversations
  for each row execute function private.keep_first_rating();

-- The visitor's 1–5 rating of a conversation, once: 'rated', 'already_rated' (the first rating
-- stays) or 'not_found'. Service role only (the coach function).
create or replace function public.rate_conversation(p_conversation uuid, p_rating smallint)
returns text
language plpgsql
volatile
set search_path = ''
as $$
begin
  if (select auth.role()) is distinct from 'service_role' then
    raise exception 'only the coach function rates conversations' using errcode = '42501';
  end if;
  update public.conversations c set rating = p_rating where c.id = p_conversation and c.rating is null;
  if found then
    return 'rated';
  end if;
  if exists (select 1 from public.conversations c where c.id = p_conversation) then
    return 'already_rated';
  end if;
  return 'not_found';
end
$$;

comment on function public.rate_conversation(uuid, smallint) is
  'Stores the visitor''s 1-5 rating once: rated, already_rated or not_found. Service role only (the coach function).';

-- Supabase Auth's "before user created" hook (config.toml [auth.hook.before_user_created]): only
-- anonymous visitors may sign up. GoTrue allows anonymous sign-ins only while sign-ups are
-- enabled, and the e-mail provider stays enabled for the operators' password sign-in, so without
-- this hook anyone could sign up with an e-mail address once anonymous sign-ins are on. Operators
-- are created with `npm run admin:create` (the admin API, which runs no hook).
create or replace function public.only_anonymous_sign_ups(event jsonb)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
begin
  if coalesce((event -> 'user' ->> 'is_anonymous')::boolean, false) then
    return '{}'::jsonb;
  end if;
  return jsonb_build_object('error', jsonb_build_object(
    'http_code', 403,
    'message', 'Sign-ups are closed: operators are created by the site''s owner.'));
end
$$;

comment on function public.only_anonymous_sign_ups(jsonb) is
  'Before-user-created auth hook: lets anonymous sign-ins through and refuses every other sign-up.';

-- Anonymous visitors are no operators: the profile (public.users, counted as totalUsers on the
-- dashboard) follows only real accounts. Restates …_users.sql's trigger function.
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
  if new.is_anonymous then
    return new;
  end if;

  insert into public.users (id, email, role, created_at)
  values (new.id, new.email, new.raw_app_meta_data ->> 'role', coalesce(new.created_at, now()))
  on conflict (id) do update
    set email = excluded.email,
        role = excluded.role;
  return new;
end
$$;

revoke execute on function private.reservation_lifetime() from public, anon, authenticated;
revoke execute on function private.release_expired_spend(text) from public, anon, authenticated;
revoke execute on function private.spend_alert(date, text, bigint, bigint, boolean) from public, anon, authenticated;
revoke execute on function private.spend_budgets(jsonb) from public, anon, authenticated;
revoke execute on function public.reserve_spend(text, bigint, bigint, jsonb) from public, anon, authenticated;
revoke execute on function public.admit_request(text, text, integer, integer, integer, integer, text, bigint, bigint, jsonb) from public, anon, authenticated;
revoke execute on function private.keep_first_rating() from public, anon, authenticated;
revoke execute on function public.rate_conversation(uuid, smallint) from public, anon, authenticated;
revoke execute on function public.only_anonymous_sign_ups(jsonb) from public, anon, authenticated, service_role;
revoke execute on function public.handle_auth_user_change() from public, anon, authenticated, service_role;
grant execute on function private.reservation_lifetime() to service_role;
grant execute on function private.release_expired_spend(text) to service_role;
grant execute on function private.spend_alert(date, text, bigint, bigint, boolean) to service_role;
grant execute on function private.spend_budgets(jsonb) to service_role;
grant execute on function public.reserve_spend(text, bigint, bigint, jsonb) to service_role;
grant execute on function public.admit_request(text, text, integer, integer, integer, integer, text, bigint, bigint, jsonb) to service_role;
grant execute on function public.rate_conversation(uuid, smallint) to service_role;
grant execute on function public.only_anonymous_sign_ups(jsonb) to supabase_auth_admin;
