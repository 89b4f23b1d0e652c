-- Requests per minute as a sliding window: this minute's count plus the previous minute's,
-- weighted by the part of the previous minute still inside the last 60 seconds, so a burst that
-- straddles the turn of a minute is counted whole, not reset at :00 (public.request_counts keeps
-- one row per function, client, window kind and start, as before). The baseline's
-- …_usage_limits.sql wrote the fixed minute; this replaces public.admit_request() whole.

-- Seconds until one more request of a client fits the sliding minute again, if it sends nothing
-- before: still in this minute once enough of the previous minute has slid out, or else in the
-- next minute once enough of this one has.
create or replace function private.minute_retry_after(
  p_count integer,
  p_previous integer,
  p_elapsed double precision,
  p_limit integer
)
returns integer
language sql
immutable
set search_path = ''
as $$
  select greatest(1, ceil(
    case
      when p_count + 1 <= p_limit and p_previous > 0
        then 60 * (1 - (p_limit - p_count - 1)::double precision / p_previous) - p_elapsed
      else (60 - p_elapsed) + 60 * greatest(0, 1 - (p_limit - 1)::double precision / greatest(p_count, 1))
    end
  )::integer)
$$;


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
  minute_elapsed constant double precision := extract(epoch from now_ts - minute_start);
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

revoke execute on function private.minute_retry_after(integer, integer, double precision, integer) from public, anon, authenticated;
grant execute on function private.minute_retry_after(integer, integer, double precision, integer) to service_role;
