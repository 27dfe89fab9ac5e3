-- Functions verify access tokens locally (ES256 from Auth's JWKS) and no longer ask Auth whether
-- the session still exists; current_account() answers nothing for a token whose session ended
-- (signed out), in the same query, so /api/auth/user stays one database round trip.

-- True when the JWT names no session (hand-made service tokens) or its session still exists.
create function private.jwt_session_is_live()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select case
    when (select auth.jwt()) ->> 'session_id' is null then true
    else exists (
      select 1 from auth.sessions
      where id::text = (select auth.jwt()) ->> 'session_id'
    )
  end
$$;
revoke execute on function private.jwt_session_is_live() from public;
grant execute on function private.jwt_session_is_live() to authenticated;

create or replace function public.current_account()
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
    'postAutomatically', p.post_automatically,
    'isAdmin', private.is_admin()
  )
  from public.profiles p
  left join public.subscriptions s on s.user_id = p.id
  where p.id = (select auth.uid())
    and (select private.jwt_session_is_live())
$$;
