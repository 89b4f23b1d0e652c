-- Limits and spend caps of the public functions that cost money (coach, tts, stt), kept in
-- Postgres so that every function instance sees the same counts. Only the service role (the
-- functions) writes here; admins read today's spend through usage_today(). No table has a
-- policy: row level security is on and visitors reach nothing.

-- Requests per client in fixed windows (one row per function, client, window kind and start).
create table if not exists public.request_counts (
  fn text not null,
  client text not null,
  window_kind text not null check (window_kind in ('minute', 'day')),
  window_start timestamptz not null,
  count integer not null default 0,
  primary key (fn, client, window_kind, window_start)
);
alter table public.request_counts enable row level security;

-- Streams under way; a lease that is never released (the instance died) expires by itself.
create table if not exists public.active_streams (
  id uuid primary key default gen_random_uuid(),
  fn text not null,
  client text not null,
  expires_at timestamptz not null
);
create index if not exists active_streams_client on public.active_streams (fn, client);
alter table public.active_streams enable row level security;

-- What was spent per day (the operator's day in Germany) and kind.
create table if not exists public.daily_spend (
  day date not null,
  kind text not null check (kind in ('model_tokens', 'tts_characters', 'stt_seconds')),
  amount bigint not null default 0,
  primary key (day, kind)
);
alter table public.daily_spend enable row level security;

revoke all on public.request_counts, public.active_streams, public.daily_spend from anon, authenticated;

create or replace function public.spend_day()
returns date
language sql
stable
set search_path = ''
as $$ select (now() at time zone 'Europe/Berlin')::date $$;

-- One admission check, atomic per client: spend caps, requests per minute and per day, and a
-- stream lease when p_max_concurrent > 0. Returns {allowed, reason?, kind?, retryAfter?, lease?}.
create or replace function public.admit_request(
  p_fn text,
  p_client text,
  p_per_minute integer,
  p_per_day integer,
  p_max_concurrent integer default 0,
  p_lease_seconds integer default 120,
  p_caps jsonb default '{}'::jsonb
)
returns json
language plpgsql
volatile
set search_path = ''
as $$
declare
  now_ts constant timestamptz := now();
  minute_start constant timestamptz := date_trunc('minute', now_ts);
  day_start constant timestamptz := date_trunc('day', now_ts, 'Europe/Berlin');
  seconds_to_tomorrow constant integer :=
    greatest(1, ceil(extract(epoch from (day_start + interval '1 day') - now_ts))::integer);
  cap record;
  spent bigint;
  minute_count integer;
  day_count integer;
  streams integer;
  lease uuid;
begin
  if (select auth.role()) is distinct from 'service_role' then
    raise exception 'only the functions may admit requests' using errcode = '42501';
  end if;

  for cap in select key, value from jsonb_each_text(coalesce(p_caps, '{}'::jsonb)) loop
    select coalesce(sum(s.amount), 0) into spent
      from public.daily_spend s
     where s.day = (select public.spend_day()) and s.kind = cap.key;
    if spent >= cap.value::bigint then
      return json_build_object('allowed', false, 'reason', 'spend_cap', 'kind', cap.key, 'retryAfter', seconds_to_tomorrow);
    end if;
  end loop;

  -- Requests of one client are counted one after the other, whichever instance serves them.
  perform pg_advisory_xact_lock(hashtext(p_fn || '|' || p_client));

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
    insert into public.active_streams (fn, client, expires_at)
    values (p_fn, p_client, now_ts + make_interval(secs => p_lease_seconds))
    returning id into lease;
  end if;

  -- Old windows go now and then; the table stays small without a scheduled job.
  if random() < 0.01 then
    delete from public.request_counts r where r.window_start < now_ts - interval '2 days';
  end if;

  return json_build_object('allowed', true, 'lease', lease);
end
$$;

create or replace function public.release_stream(p_lease uuid)
returns void
language sql
volatile
set search_path = ''
as $$ delete from public.active_streams a where a.id = p_lease $$;

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

-- Today's spend for the admin dashboard: {modelTokens, ttsCharacters, sttSeconds}.
create or replace function public.usage_today()
returns json
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not ((select public.is_admin()) or (select auth.role()) = 'service_role') then
    raise exception 'only admins may read the usage' using errcode = '42501';
  end if;
  return json_build_object(
    'modelTokens', coalesce((select s.amount from public.daily_spend s where s.day = (select public.spend_day()) and s.kind = 'model_tokens'), 0),
    'ttsCharacters', coalesce((select s.amount from public.daily_spend s where s.day = (select public.spend_day()) and s.kind = 'tts_characters'), 0),
    'sttSeconds', coalesce((select s.amount from public.daily_spend s where s.day = (select public.spend_day()) and s.kind = 'stt_seconds'), 0)
  );
end
$$;

revoke execute on function public.admit_request(text, text, integer, integer, integer, integer, jsonb) from public, anon, authenticated;
revoke execute on function public.release_stream(uuid) from public, anon, authenticated;
revoke execute on function public.record_spend(text, bigint) from public, anon, authenticated;
revoke execute on function public.usage_today() from public, anon;
revoke execute on function public.spend_day() from public, anon, authenticated;
grant execute on function public.spend_day() to service_role;
grant execute on function public.admit_request(text, text, integer, integer, integer, integer, jsonb) to service_role;
grant execute on function public.release_stream(uuid) to service_role;
grant execute on function public.record_spend(text, bigint) to service_role;
grant execute on function public.usage_today() to authenticated, service_role;
