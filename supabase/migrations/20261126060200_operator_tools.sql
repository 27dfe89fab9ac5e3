-- Operator tools (docs/operations.md): administrators look up a subscriber by e-mail, mark
-- podcast hosting ready, flag the internal test account, and grant or revoke the admin role.
-- Each is an RPC only administrators may call (a thin public wrapper over a private security
-- definer function), and each call is recorded in admin_audit_log.
--
--   SQLSTATE  message               when
--   42501     admin_required        the caller is not an administrator
--   22023     email_required        blank e-mail
--   PT404     subscriber_not_found  no account with that e-mail (HTTP 404 via PostgREST)
--   22023     cannot_revoke_self    an administrator revoking their own role

create function private.account_id_by_email(p_email text)
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_id uuid;
begin
  if private.is_blank(p_email) then
    raise exception 'email_required' using errcode = '22023', detail = 'Please enter the user''s email address.';
  end if;
  select u.id into v_id from auth.users u where lower(u.email) = lower(trim(p_email));
  if v_id is null then
    raise exception 'subscriber_not_found' using errcode = 'PT404', detail = format('No account uses %s.', trim(p_email));
  end if;
  return v_id;
end
$$;
revoke execute on function private.account_id_by_email(text) from public;

-- What an operator needs to know about one account.
create function private.subscriber_summary(p_user uuid)
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
    'isInternalTestAccount', coalesce(p.is_internal_test_account, false),
    'isAdmin', coalesce(u.raw_app_meta_data ->> 'role', '') = 'admin',
    'episodesTotal', (select count(*) from public.episodes e where e.user_id = u.id)
  )
  from auth.users u
  left join public.profiles p on p.id = u.id
  left join public.subscriptions s on s.user_id = u.id
  where u.id = p_user
$$;
revoke execute on function private.subscriber_summary(uuid) from public;

create function private.admin_find_subscriber(p_email text)
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
  perform private.record_admin_action('subscriber.lookup', v_user, jsonb_build_object('email', trim(p_email)));
  return private.subscriber_summary(v_user);
end
$$;
revoke execute on function private.admin_find_subscriber(text) from public;
grant execute on function private.admin_find_subscriber(text) to authenticated;

-- Hosting ready unblocks episode submission (episode_stats' hosting_setup); p_ready = false
-- undoes it. An earlier ready time is kept.
create function private.admin_mark_hosting_ready(p_email text, p_ready boolean default true)
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
     set hosting_ready_at = case when coalesce(p_ready, true) then coalesce(hosting_ready_at, now()) end
   where id = v_user;
  perform private.record_admin_action('hosting.mark_ready', v_user, jsonb_build_object('ready', coalesce(p_ready, true)));
  return private.subscriber_summary(v_user);
end
$$;
revoke execute on function private.admin_mark_hosting_ready(text, boolean) from public;
grant execute on function private.admin_mark_hosting_ready(text, boolean) to authenticated;

-- The internal test account may use every social provider (spec section 4).
create function private.admin_set_internal_test_account(p_email text, p_flag boolean default true)
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
  update public.profiles set is_internal_test_account = coalesce(p_flag, true) where id = v_user;
  perform private.record_admin_action('test_account.set', v_user, jsonb_build_object('flag', coalesce(p_flag, true)));
  return private.subscriber_summary(v_user);
end
$$;
revoke execute on function private.admin_set_internal_test_account(text, boolean) from public;
grant execute on function private.admin_set_internal_test_account(text, boolean) to authenticated;

-- The admin role lives in auth.users.raw_app_meta_data (the JWT's app_metadata), which users
-- cannot change; it takes effect at the account's next sign-in or token refresh.
create function private.admin_set_admin_role(p_email text, p_admin boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user uuid;
begin
  perform private.require_admin();
  if p_admin is null then
    raise exception 'invalid_role_change' using errcode = '22023', detail = 'Say whether to grant (true) or revoke (false) the admin role.';
  end if;
  v_user := private.account_id_by_email(p_email);
  if not p_admin and v_user = (select auth.uid()) then
    raise exception 'cannot_revoke_self' using errcode = '22023', detail = 'Administrators cannot revoke their own admin role.';
  end if;
  update auth.users
     set raw_app_meta_data = case when p_admin
                                  then coalesce(raw_app_meta_data, '{}'::jsonb) || '{"role": "admin"}'::jsonb
                                  else coalesce(raw_app_meta_data, '{}'::jsonb) - 'role' end,
         updated_at = now()
   where id = v_user;
  perform private.record_admin_action(case when p_admin then 'admin_role.grant' else 'admin_role.revoke' end, v_user, '{}'::jsonb);
  return private.subscriber_summary(v_user);
end
$$;
revoke execute on function private.admin_set_admin_role(text, boolean) from public;
grant execute on function private.admin_set_admin_role(text, boolean) to authenticated;

-- The RPCs (POST /rest/v1/rpc/<name>), thin wrappers that run with the caller's rights.
create function public.admin_find_subscriber(p_email text)
returns jsonb language sql set search_path = ''
as $$ select private.admin_find_subscriber(p_email) $$;

create function public.admin_mark_hosting_ready(p_email text, p_ready boolean default true)
returns jsonb language sql set search_path = ''
as $$ select private.admin_mark_hosting_ready(p_email, p_ready) $$;

create function public.admin_set_internal_test_account(p_email text, p_flag boolean default true)
returns jsonb language sql set search_path = ''
as $$ select private.admin_set_internal_test_account(p_email, p_flag) $$;

create function public.admin_set_admin_role(p_email text, p_admin boolean)
returns jsonb language sql set search_path = ''
as $$ select private.admin_set_admin_role(p_email, p_admin) $$;

revoke execute on function public.admin_find_subscriber(text), public.admin_mark_hosting_ready(text, boolean),
  public.admin_set_internal_test_account(text, boolean), public.admin_set_admin_role(text, boolean) from public, anon;
grant execute on function public.admin_find_subscriber(text), public.admin_mark_hosting_ready(text, boolean),
  public.admin_set_internal_test_account(text, boolean), public.admin_set_admin_role(text, boolean) to authenticated;
