-- The signed-in user in the spec's shape, and the episode statistics with submission gating.

-- Spec section 3 "User". Null when the caller has no profile (not signed in).
create function public.current_account()
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'id', p.id,
    'email', coalesce(p.email, (select auth.jwt()) ->> 'email'),
    'firstName', p.first_name,
    'lastName', p.last_name,
    'profileImageUrl', p.profile_image_url,
    'subscriptionStatus', s.status,
    'subscriptionTier', s.tier,
    'onboardingCompleted', p.onboarding_completed_at is not null,
    'stripeCustomerId', s.stripe_customer_id,
    'postAutomatically', p.post_automatically
  )
  from public.profiles p
  left join public.subscriptions s on s.user_id = p.id
  where p.id = (select auth.uid())
$$;
revoke execute on function public.current_account() from public, anon;
grant execute on function public.current_account() to authenticated, service_role;

-- Episode statistics and gating for one user at one moment (spec sections 3, 4, 9):
-- limit from the user's plan (default 1, tier starter; null = unlimited), this calendar
-- month's count in UTC, and the first block reason in priority order:
--   google_drive_required  no Google connection, or it holds no access token
--   google_drive_invalid   no refresh token, expiry passed, or marked expired/failed
--   hosting_setup          podcast hosting not ready yet
--   monthly_limit          this month's count has reached the limit
-- canSubmit also needs an active subscription. Runs with the caller's rights (RLS applies).
create function private.episode_stats_for(p_user uuid, p_at timestamptz)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  v_status text;
  v_tier text;
  v_plan_found boolean := false;
  v_limit integer := 1;
  v_month_start timestamptz := date_trunc('month', p_at at time zone 'UTC') at time zone 'UTC';
  v_this_month integer;
  v_total integer;
  v_google public.oauth_connections;
  v_hosting_ready boolean;
  v_reason text;
begin
  select s.status, s.tier into v_status, v_tier
    from public.subscriptions s
   where s.user_id = p_user;
  v_tier := coalesce(v_tier, 'starter');

  select true, pl.episodes_per_month into v_plan_found, v_limit
    from public.plans pl
   where pl.id = v_tier;
  if not coalesce(v_plan_found, false) then
    v_limit := 1;
  end if;

  select count(*) filter (where e.submitted_at >= v_month_start
                            and e.submitted_at < v_month_start + interval '1 month'),
         count(*)
    into v_this_month, v_total
    from public.episodes e
   where e.user_id = p_user;

  select * into v_google
    from public.oauth_connections c
   where c.user_id = p_user and c.provider = 'google';

  select coalesce(p.hosting_ready_at <= p_at, false) into v_hosting_ready
    from public.profiles p
   where p.id = p_user;
  v_hosting_ready := coalesce(v_hosting_ready, false);

  if v_google.id is null or not v_google.connected or not v_google.has_access_token then
    v_reason := 'google_drive_required';
  elsif not v_google.has_refresh_token
     or v_google.expires_at <= p_at
     or v_google.status in ('expired', 'failed') then
    v_reason := 'google_drive_invalid';
  elsif not v_hosting_ready then
    v_reason := 'hosting_setup';
  elsif v_limit is not null and v_this_month >= v_limit then
    v_reason := 'monthly_limit';
  end if;

  return jsonb_build_object(
    'thisMonth', v_this_month,
    'total', v_total,
    'currentCount', v_this_month,
    'limit', v_limit,
    'subscriptionTier', v_tier,
    'canSubmit', v_reason is null and coalesce(v_status = 'active', false),
    'blockReason', v_reason,
    'hostingSetup', v_hosting_ready
  );
end
$$;
revoke execute on function private.episode_stats_for(uuid, timestamptz) from public;
grant execute on function private.episode_stats_for(uuid, timestamptz) to authenticated, service_role;

-- GET /api/episodes/stats: {thisMonth, total, currentCount, limit, subscriptionTier,
-- canSubmit, blockReason, hostingSetup} for the caller.
create function public.episode_stats()
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  v_user uuid := (select auth.uid());
begin
  if v_user is null then
    raise exception 'not_authenticated' using errcode = '42501', detail = 'Sign in to see episode statistics.';
  end if;
  return private.episode_stats_for(v_user, now());
end
$$;
revoke execute on function public.episode_stats() from public, anon;
grant execute on function public.episode_stats() to authenticated, service_role;
