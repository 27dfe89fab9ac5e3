-- Hosting setup is no longer a black box (issue 26, item 9). When it began is kept on the profile
-- (hosting_setup_started_at: set as onboarding completes, or when an administrator starts it
-- again), the subscriber's dashboard shows it (dashboard_stats' hostingSetupStartedAt), and the
-- admin console lists the subscribers waiting (admin_hosting_setups) with a control to mark
-- hosting ready or start it again (admin_mark_hosting_ready, audited as before).

alter table public.profiles add column hosting_setup_started_at timestamptz;
-- Everyone already waiting started when their onboarding completed.
update public.profiles
   set hosting_setup_started_at = onboarding_completed_at
 where hosting_ready_at is null and onboarding_completed_at is not null;
-- The console's queue: waiting subscribers, longest waiting first.
create index profiles_hosting_setup_waiting_idx on public.profiles (hosting_setup_started_at, id)
  where hosting_ready_at is null and hosting_setup_started_at is not null;

-- Hosting setup starts when onboarding completes, unless hosting is already ready.
create function private.start_hosting_setup_on_onboarding()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.onboarding_completed_at is null and new.onboarding_completed_at is not null
     and new.hosting_ready_at is null and new.hosting_setup_started_at is null then
    new.hosting_setup_started_at := new.onboarding_completed_at;
  end if;
  return new;
end
$$;
revoke execute on function private.start_hosting_setup_on_onboarding() from public, anon, authenticated, service_role;

create trigger profiles_start_hosting_setup
  before update of onboarding_completed_at on public.profiles
  for each row execute function private.start_hosting_setup_on_onboarding();

-- As in 20261126140500_baseline_episodes_and_submissions.sql, plus hostingSetupStartedAt (null
-- once hosting is ready).
create or replace function public.dashboard_stats()
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  v_user uuid := auth.uid();
begin
  if v_user is null then
    raise exception 'not_authenticated' using errcode = '42501', detail = 'Sign in to see episode statistics.';
  end if;
  return private.episode_stats_for(v_user, now())
    || (select jsonb_build_object(
                 'onboardingCompleted', coalesce(bool_or(p.onboarding_completed_at is not null), false),
                 'socialConnected', private.social_connected(v_user),
                 'hostingSetupStartedAt', max(p.hosting_setup_started_at) filter (where p.hosting_ready_at is null))
          from public.profiles p
         where p.id = v_user);
end
$$;

-- As in 20261126140900_baseline_admin.sql; undoing (p_ready = false) starts the setup again now.
create or replace function private.admin_mark_hosting_ready(p_email text, p_ready boolean default true)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user uuid;
begin
  perform private.require_admin();
  v_user := private.account_id_by_email(p_email);
  update public.profiles
     set hosting_ready_at = case when coalesce(p_ready, true) then coalesce(hosting_ready_at, now()) end,
         hosting_setup_started_at = case when coalesce(p_ready, true) then hosting_setup_started_at else now() end
   where id = v_user;
  perform private.record_admin_action('hosting.mark_ready', v_user, jsonb_build_object('ready', coalesce(p_ready, true)));
  return private.subscriber_summary(v_user);
end
$$;

-- As in 20261126140900_baseline_admin.sql, plus when hosting setup started.
create or replace function private.subscriber_summary(p_user uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', u.id,
    'email', u.email,
    'firstName', p.first_name,
    'lastName', p.last_name,
    'createdAt', u.created_at,
    'subscriptionStatus', s.status,
    'subscriptionTier', s.tier,
    'currentPeriodEnd', s.current_period_end,
    'onboardingCompleted', p.onboarding_completed_at is not null,
    'hostingReadyAt', p.hosting_ready_at,
    'hostingSetupStartedAt', p.hosting_setup_started_at,
    'isInternalTestAccount', coalesce(p.is_internal_test_account, false),
    'isAdmin', coalesce(u.raw_app_meta_data ->> 'role', '') = 'admin',
    'episodesTotal', (select count(*) from public.episodes e where e.user_id = u.id)
  )
  from auth.users u
  left join public.profiles p on p.id = u.id
  left join public.subscriptions s on s.user_id = u.id
  where u.id = p_user
$$;

-- The subscribers whose hosting setup is under way, longest waiting first, one page after
-- (p_after_started_at, p_after_id): {items: [{id, email, firstName, lastName, subscriptionStatus,
-- subscriptionTier, hostingSetupStartedAt}], next: {startedAt, id} | null}. Administrators only.
create function private.admin_hosting_setups(p_after_started_at timestamptz, p_after_id uuid, p_limit integer)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_limit integer := coalesce(p_limit, 50);
  v_rows jsonb;
begin
  perform private.require_admin();
  perform private.check_page_size(v_limit);
  select coalesce(jsonb_agg(r.item order by r.started_at, r.id), '[]'::jsonb)
    into v_rows
    from (
      select p.id, p.hosting_setup_started_at as started_at,
             jsonb_build_object(
               'id', p.id,
               'email', p.email,
               'firstName', p.first_name,
               'lastName', p.last_name,
               'subscriptionStatus', s.status,
               'subscriptionTier', s.tier,
               'hostingSetupStartedAt', p.hosting_setup_started_at
             ) as item
        from public.profiles p
        left join public.subscriptions s on s.user_id = p.id
       where p.hosting_ready_at is null and p.hosting_setup_started_at is not null
         and (p_after_started_at is null
              or (p.hosting_setup_started_at, p.id) > (p_after_started_at, coalesce(p_after_id, '00000000-0000-0000-0000-000000000000'::uuid)))
       order by p.hosting_setup_started_at, p.id
       limit v_limit + 1
    ) r;
  -- One row past the page says whether there is a next one; it is not returned.
  return jsonb_build_object(
    'items', case when jsonb_array_length(v_rows) > v_limit then v_rows - v_limit else v_rows end,
    'next', case when jsonb_array_length(v_rows) > v_limit
                 then jsonb_build_object('startedAt', v_rows -> (v_limit - 1) -> 'hostingSetupStartedAt',
                                         'id', v_rows -> (v_limit - 1) -> 'id') end
  );
end
$$;
revoke execute on function private.admin_hosting_setups(timestamptz, uuid, integer) from public, anon, service_role;
grant execute on function private.admin_hosting_setups(timestamptz, uuid, integer) to authenticated;

create function public.admin_hosting_setups(p_after_started_at timestamptz default null, p_after_id uuid default null, p_limit integer default 50)
returns jsonb language sql set search_path = ''
as $$ select private.admin_hosting_setups(p_after_started_at, p_after_id, p_limit) $$;
revoke execute on function public.admin_hosting_setups(timestamptz, uuid, integer) from public, anon, service_role;
grant execute on function public.admin_hosting_setups(timestamptz, uuid, integer) to authenticated;
