-- Limits and spend caps of the public functions that cost money (coach, tts, stt), kept in
-- Postgres so that every function instance sees the same counts: requests per client and window,
-- streams under way, and spend per day for all clients and per client. Spend is reserved before
-- it is spent and settled afterwards: admission reserves a request's largest possible cost
-- against the client's daily budget and the day's cap in one step under the client's lock; the
-- answer settles what the provider billed. So a burst of requests can never spend more than the
-- cap (each one's maximum is already counted when the next one asks), and one client can never
-- spend more than its budget, whatever it sends. Only the service role (the functions) reaches
-- any of this: no table has a policy, row level security is on and visitors reach nothing.

-- Requests per client in fixed windows (one row per function, client, window kind and start).
create table public.request_counts (
  fn text not null,
  client text not null,
  window_kind text not null check (window_kind in ('minute', 'day')),
  window_start timestamptz not null,
  count integer not null default 0,
  primary key (fn, client, window_kind, window_start)
);
alter table public.request_counts enable row level security;

-- Streams under way; a lease that is never released (the instance died) expires by itself.
create table public.active_streams (
  id uuid primary key default gen_random_uuid(),
  fn text not null,
  client text not null,
  expires_at timestamptz not null
);
create index active_streams_client on public.active_streams (fn, client);
alter table public.active_streams enable row level security;

-- What was spent (and is held reserved) per day (the operator's day in Germany) and kind.
create table public.daily_spend (
  day date not null,
  kind text not null check (kind in ('model_tokens', 'tts_characters', 'stt_seconds')),
  amount bigint not null default 0,
  primary key (day, kind)
);
alter table public.daily_spend enable row level security;

-- What each client spent (and holds reserved) per day and kind.
create table public.client_spend (
  day date not null,
  client text not null,
  kind text not null check (kind in ('model_tokens', 'tts_characters', 'stt_seconds')),
  amount bigint not null default 0 check (amount >= 0),
  primary key (day, client, kind)
);
alter table public.client_spend enable row level security;
comment on table public.client_spend is
  'Per-client spend per day (Europe/Berlin) and kind, reservations included; the per-client daily budget is checked against it.';

-- Reservations not yet settled. A reservation whose request never settles (the instance died)
-- stays counted at its maximum, which errs on the side of the bill.
create table public.spend_reservations (
  id uuid primary key default gen_random_uuid(),
  day date not null,
  client text not null,
  kind text not null check (kind in ('model_tokens', 'tts_characters', 'stt_seconds')),
  amount bigint not null check (amount >= 0),
  created_at timestamptz not null default now()
);
alter table public.spend_reservations enable row level security;
comment on table public.spend_reservations is
  'Open reservations: the largest cost of a request under way, counted in client_spend and daily_spend until settled.';

revoke all on public.request_counts, public.active_streams, public.daily_spend, public.client_spend,
  public.spend_reservations from anon, authenticated;

-- The operator's day (Europe/Berlin), which spend is counted per.
create or replace function public.spend_day()
returns date
language sql
stable
set search_path = ''
as $$ select (now() at time zone 'Europe/Berlin')::date $$;

-- One advisory lock per client, shared by admission, reservation and settlement.
create or replace function private.client_lock(p_client text)
returns void
language sql
volatile
set search_path = ''
as $$ select pg_advisory_xact_lock(hashtextextended('guard|' || p_client, 0)) $$;

-- The admission of one request, atomic per client: the day's cap and the client's budget (a
-- request is refused at once when either is used up), requests per minute and per day, a stream
-- lease when p_max_concurrent > 0, and the reservation of p_amount of p_kind. Returns
-- {allowed, lease?, reservation?} or {allowed: false, reason, kind?, retryAfter}; reason is
-- 'spend_cap', 'budget', 'rate_minute', 'rate_day' or 'concurrency'.
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
  p_budget bigint default null
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
  minute_count integer;
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
    if coalesce((select s.amount from public.daily_spend s where s.day = today and s.kind = p_kind), 0) >= p_cap then
      return json_build_object('allowed', false, 'reason', 'spend_cap', 'kind', p_kind, 'retryAfter', seconds_to_tomorrow);
    end if;
    if coalesce((select c.amount from public.client_spend c
                  where c.day = today and c.client = p_client and c.kind = p_kind), 0) >= p_budget then
      return json_build_object('allowed', false, 'reason', 'budget', 'kind', p_kind, 'retryAfter', seconds_to_tomorrow);
    end if;
  end if;

  insert into public.request_counts as r (fn, client, window_kind, window_start, count)
  values (p_fn, p_client, 'minute', minute_start, 1)
  on conflict (fn, client, window_kind, window_start) do update set count = r.count + 1
  returning r.count into minute_count;
  if minute_count > p_per_minute then
    return json_build_object('allowed', false, 'reason', 'rate_minute',
      'retryAfter', greatest(1, ceil(extract(epoch from (minute_start + interval '1 minute') - now_ts))::integer));
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
    reserved := public.reserve_spend(p_client, p_kind, p_amount, p_cap, p_budget);
    if (reserved ->> 'allowed')::boolean is not true then
      return reserved;
    end if;
  end if;

  if p_max_concurrent > 0 then
    insert into public.active_streams (fn, client, expires_at)
    values (p_fn, p_client, now_ts + make_interval(secs => p_lease_seconds))
    returning id into lease;
  end if;

  -- Old rows go now and then; the tables stay small without a scheduled job. Reservations of
  -- requests that never settled stay counted in their day's spend.
  if random() < 0.01 then
    delete from public.request_counts r where r.window_start < now_ts - interval '2 days';
    delete from public.client_spend c where c.day < today - 2;
    delete from public.spend_reservations s where s.day < today - 2;
  end if;

  return json_build_object('allowed', true, 'lease', lease, 'reservation', reserved ->> 'reservation');
end
$$;

-- Reserves p_amount of p_kind for p_client: added to the client's row only while it stays within
-- p_budget and to the day's row only while it stays within p_cap, each in one statement (an
-- upsert whose update has a condition, which Postgres evaluates on the row it has locked, so two
-- clients racing for the last of the cap cannot both get it). Returns {allowed, reservation} or
-- {allowed: false, reason: 'budget' | 'spend_cap', retryAfter}.
create or replace function public.reserve_spend(
  p_client text,
  p_kind text,
  p_amount bigint,
  p_cap bigint,
  p_budget bigint
)
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
  reserved uuid;
begin
  if (select auth.role()) is distinct from 'service_role' then
    raise exception 'only the functions may reserve spend' using errcode = '42501';
  end if;
  perform private.client_lock(p_client);

  -- The day's cap first, so that a request over both is told the cap (everyone waits for tomorrow).
  insert into public.daily_spend as s (day, kind, amount)
  select today, p_kind, wanted where wanted <= p_cap
  on conflict (day, kind) do update set amount = s.amount + excluded.amount
    where s.amount + excluded.amount <= p_cap;
  if not found then
    return json_build_object('allowed', false, 'reason', 'spend_cap', 'kind', p_kind, 'retryAfter', seconds_to_tomorrow);
  end if;

  insert into public.client_spend as c (day, client, kind, amount)
  select today, p_client, p_kind, wanted where wanted <= p_budget
  on conflict (day, client, kind) do update set amount = c.amount + excluded.amount
    where c.amount + excluded.amount <= p_budget;
  if not found then
    -- Given back within the same transaction: no other request ever saw it.
    update public.daily_spend s set amount = s.amount - wanted where s.day = today and s.kind = p_kind;
    return json_build_object('allowed', false, 'reason', 'budget', 'kind', p_kind, 'retryAfter', seconds_to_tomorrow);
  end if;

  insert into public.spend_reservations (day, client, kind, amount)
  values (today, p_client, p_kind, wanted)
  returning id into reserved;
  return json_build_object('allowed', true, 'reservation', reserved);
end
$$;

-- Replaces a reservation by what the request really cost (the provider's bill): the difference
-- goes to the client's and the day's rows of the reservation's day. Settling twice, or an unknown
-- reservation, changes nothing. Returns the amount recorded, or null for an unknown reservation.
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
  perform private.client_lock(reservation.client);
  update public.client_spend c set amount = greatest(0, c.amount + actual - reservation.amount)
   where c.day = reservation.day and c.client = reservation.client and c.kind = reservation.kind;
  update public.daily_spend s set amount = greatest(0, s.amount + actual - reservation.amount)
   where s.day = reservation.day and s.kind = reservation.kind;
  return actual;
end
$$;

-- Ends a stream lease of admit_request().
create or replace function public.release_stream(p_lease uuid)
returns void
language sql
volatile
set search_path = ''
as $$ delete from public.active_streams a where a.id = p_lease $$;

-- Adds spend to the day's row without a reservation; returns the day's total of that kind.
create or replace function public.record_spend(p_kind text, p_amount bigint)
returns bigint
language sql
volatile
set search_path = ''
as $$
  insert into public.daily_spend as s (day, kind, amount)
  values ((select public.spend_day()), p_kind, greatest(p_amount, 0))
  on conflict (day, kind) do update set amount = s.amount + greatest(excluded.amount, 0)
  returning s.amount
$$;

-- Today's spend for the admin dashboard, read by the system-settings function with the service
-- role: it runs as the caller (no security definer) and no signed-in role may call it.
create or replace function public.usage_today()
returns json
language plpgsql
stable
security invoker
set search_path = ''
as $$
begin
  if (select auth.role()) is distinct from 'service_role' then
    raise exception 'only the functions may read the usage' using errcode = '42501';
  end if;
  return json_build_object(
    'modelTokens', coalesce((select s.amount from public.daily_spend s where s.day = (select public.spend_day()) and s.kind = 'model_tokens'), 0),
    'ttsCharacters', coalesce((select s.amount from public.daily_spend s where s.day = (select public.spend_day()) and s.kind = 'tts_characters'), 0),
    'sttSeconds', coalesce((select s.amount from public.daily_spend s where s.day = (select public.spend_day()) and s.kind = 'stt_seconds'), 0)
  );
end
$$;

revoke execute on function public.spend_day() from public, anon, authenticated;
revoke execute on function private.client_lock(text) from public, anon, authenticated;
revoke execute on function public.admit_request(text, text, integer, integer, integer, integer, text, bigint, bigint, bigint) from public, anon, authenticated;
revoke execute on function public.reserve_spend(text, text, bigint, bigint, bigint) from public, anon, authenticated;
revoke execute on function public.settle_spend(uuid, bigint) from public, anon, authenticated;
revoke execute on function public.release_stream(uuid) from public, anon, authenticated;
revoke execute on function public.record_spend(text, bigint) from public, anon, authenticated;
revoke execute on function public.usage_today() from public, anon, authenticated;
grant execute on function public.spend_day() to service_role;
grant execute on function private.client_lock(text) to service_role;
grant execute on function public.admit_request(text, text, integer, integer, integer, integer, text, bigint, bigint, bigint) to service_role;
grant execute on function public.reserve_spend(text, text, bigint, bigint, bigint) to service_role;
grant execute on function public.settle_spend(uuid, bigint) to service_role;
grant execute on function public.release_stream(uuid) to service_role;
grant execute on function public.record_spend(text, bigint) to service_role;
grant execute on function public.usage_today() to service_role;
