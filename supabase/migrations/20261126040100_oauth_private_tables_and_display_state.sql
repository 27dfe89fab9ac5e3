-- OAuth token material and OAuth states leave the exposed `public` schema: PostgREST cannot
-- serve them at all, whatever the grants (RLS stays on as the second wall). The functions
-- reach them over SUPABASE_DB_URL. Also: the key id for token encryption (rotation), the site
-- of a WordPress connection, a lease so concurrent refresh runs take each token once, the
-- browser binding of an OAuth state, and the SQL twin of the display-state rules.

alter table public.oauth_tokens set schema private;
alter table public.oauth_states set schema private;
revoke all on table private.oauth_tokens, private.oauth_states from public, anon, authenticated;

-- Replaced by the functions' own single statement (it must also check the browser binding).
drop function public.consume_oauth_state(text, text);

alter table private.oauth_tokens
  -- Which TOKEN_ENCRYPTION_KEYS entry encrypted this row's values (AES-256-GCM).
  add column key_id text,
  -- WordPress: the site the application password belongs to.
  add column site_url text check (char_length(site_url) <= 2000),
  -- A refresh run holds the row until then; another run skips it.
  add column refresh_lease_until timestamptz,
  add column last_refresh_at timestamptz,
  add column last_refresh_error text check (char_length(last_refresh_error) <= 1000);

-- sha256 (hex) of the binding cookie of the browser that started the flow.
alter table private.oauth_states
  add column browser_binding_hash text check (browser_binding_hash ~ '^[0-9a-f]{64}$');
create index oauth_states_expires_at_idx on private.oauth_states (expires_at);

-- Spec section 4 "Connection display state per provider": connected, expired, failed or
-- disconnected. Must agree with connectionDisplayState() in
-- supabase/functions/_shared/domain/connection-status.ts (a test feeds both the same rows).
create function private.connection_display_state(
  p_provider text,
  p_connected boolean,
  p_status text,
  p_has_access_token boolean,
  p_has_refresh_token boolean,
  p_expires_at timestamptz,
  p_created_at timestamptz,
  p_updated_at timestamptz,
  p_at timestamptz
)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_expired boolean := p_expires_at is not null and p_expires_at <= p_at;
  v_recent boolean := p_at - p_updated_at < interval '10 minutes';
  v_age interval := p_at - p_created_at;
begin
  if p_provider is null or not coalesce(p_has_access_token, false)
     or (not coalesce(p_connected, false) and p_provider <> 'instagram') then
    return 'disconnected';
  end if;
  case
    when p_provider = 'instagram' then
      if not p_connected or p_status = 'failed' then return 'failed'; end if;
      if p_status = 'expired' then return 'expired'; end if;
      return 'connected';
    when p_provider = 'facebook' then
      if v_recent then return 'connected'; end if;
      if v_expired then return 'expired'; end if;
      if p_expires_at is null and v_age > interval '60 days' then return 'expired'; end if;
      return 'connected';
    when p_provider = 'wordpress' then
      return 'connected';
    when p_provider in ('google', 'youtube') then
      if not p_has_refresh_token then return 'failed'; end if;
      if v_expired then return 'expired'; end if;
      if v_age > interval '30 days' and not v_recent then return 'failed'; end if;
      return 'connected';
    else
      if v_expired then return 'expired'; end if;
      return 'connected';
  end case;
end
$$;
revoke execute on function private.connection_display_state(text, boolean, text, boolean, boolean, timestamptz, timestamptz, timestamptz, timestamptz) from public;
grant execute on function private.connection_display_state(text, boolean, text, boolean, boolean, timestamptz, timestamptz, timestamptz, timestamptz) to authenticated, service_role;

-- Episode statistics and gating (unchanged but for the Google Drive check, which now follows
-- the display state the dashboard shows):
--   google_drive_required  the Google Drive connection is disconnected (none, no token, or
--                          flagged not connected)
--   google_drive_invalid   it is expired or failed
create or replace function private.episode_stats_for(p_user uuid, p_at timestamptz)
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
  v_drive_state text;
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

  select private.connection_display_state(c.provider, c.connected, c.status, c.has_access_token,
           c.has_refresh_token, c.expires_at, c.created_at, c.updated_at, p_at)
    into v_drive_state
    from public.oauth_connections c
   where c.user_id = p_user and c.provider = 'google';
  v_drive_state := coalesce(v_drive_state, 'disconnected');

  select coalesce(p.hosting_ready_at <= p_at, false) into v_hosting_ready
    from public.profiles p
   where p.id = p_user;
  v_hosting_ready := coalesce(v_hosting_ready, false);

  if v_drive_state = 'disconnected' then
    v_reason := 'google_drive_required';
  elsif v_drive_state in ('expired', 'failed') then
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
