-- The admin dashboard's counters in one round trip: admin_stats() counts the operators, the
-- conversations active in the last 24 hours and the processed documents, averages the ratings and
-- compares the conversations started this month with last month's.

create or replace function public.admin_stats()
returns json
language plpgsql
stable
set search_path = ''
as $$
declare
  -- Calendar months as the operators in Germany see them.
  this_month constant timestamptz := date_trunc('month', now(), 'Europe/Berlin');
  last_month constant timestamptz := date_trunc('month', this_month - interval '1 day', 'Europe/Berlin');
  started_this_month bigint;
  started_last_month bigint;
begin
  if not ((select public.is_admin()) or (select auth.role()) = 'service_role') then
    raise exception 'only admins may read the statistics' using errcode = '42501';
  end if;

  select count(*) filter (where c.started_at >= this_month),
         count(*) filter (where c.started_at >= last_month and c.started_at < this_month)
    into started_this_month, started_last_month
    from public.conversations c
   where c.started_at >= last_month;

  return json_build_object(
    'totalUsers', (select count(*) from public.users),
    'activeConversations',
      (select count(*) from public.conversations c where c.last_message_at >= now() - interval '24 hours'),
    'documentsProcessed', (select count(*) from public.documents d where d.status = 'COMPLETED'),
    'averageRating',
      (select round(avg(c.rating)::numeric, 1) from public.conversations c where c.rating is not null),
    'conversationGrowth',
      case
        when started_last_month = 0 then null
        else round((started_this_month - started_last_month) * 100.0 / started_last_month, 1)
      end
  );
end
$$;

comment on function public.admin_stats() is
  'Admin only: {totalUsers, activeConversations (24 h), documentsProcessed, averageRating, conversationGrowth (% vs last month)}.';

revoke execute on function public.admin_stats() from public, anon;
grant execute on function public.admin_stats() to authenticated, service_role;
