-- This file: social and cloud-drive connections. oauth_connections holds what the UI shows; the
-- token material (encrypted by the functions) and the single-use OAuth states with the PKCE
-- verifier live in `private`: PostgREST cannot serve them at all, whatever the grants (RLS stays on
-- as the second wall). The functions reach them over SUPABASE_DB_URL.

create table public.oauth_connections (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  provider public.provider not null,
  connected boolean not null default true,
  -- What the provider or the daily check last said: null (no verdict), connected, expired, failed.
  status text check (status in ('connected', 'expired', 'failed')),
  -- The account as the provider names it (e-mail, handle, WordPress site and user).
  account_label text check (char_length(account_label) <= 500),
  expires_at timestamptz,
  -- Maintained from private.oauth_tokens by trigger.
  has_access_token boolean not null default false,
  has_refresh_token boolean not null default false,
  scopes text[] not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Only the latest connection per provider counts: reconnecting replaces it.
  unique (user_id, provider)
);

create trigger oauth_connections_set_updated_at
  before update on public.oauth_connections
  for each row execute function private.set_updated_at();

alter table public.oauth_connections enable row level security;
revoke all on table public.oauth_connections from anon, authenticated;
grant select on table public.oauth_connections to authenticated;
grant select, insert, update, delete on table public.oauth_connections to service_role;

create policy "Users read their own connections"
  on public.oauth_connections for select
  to authenticated
  using (user_id = (select auth.uid()));

-- Token material, encrypted by the functions (AES-256-GCM, key from a function secret).
create table private.oauth_tokens (
  connection_id uuid primary key references public.oauth_connections (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  access_token_encrypted text,
  refresh_token_encrypted text,
  token_type text,
  scope text,
  updated_at timestamptz not null default now(),
  -- Which TOKEN_ENCRYPTION_KEYS entry encrypted this row's values (rotation).
  key_id text,
  -- WordPress: the site the application password belongs to.
  site_url text check (char_length(site_url) <= 2000),
  -- A refresh run holds the row until then; another run skips it.
  refresh_lease_until timestamptz,
  last_refresh_at timestamptz,
  last_refresh_error text check (char_length(last_refresh_error) <= 1000)
);
create index oauth_tokens_user_id_idx on private.oauth_tokens (user_id);

create trigger oauth_tokens_set_updated_at
  before update on private.oauth_tokens
  for each row execute function private.set_updated_at();

alter table private.oauth_tokens enable row level security;
revoke all on table private.oauth_tokens from public, anon, authenticated;

-- Keeps oauth_connections.has_access_token / has_refresh_token true to the token row.
create function private.sync_connection_token_flags()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    update public.oauth_connections
       set has_access_token = false, has_refresh_token = false
     where id = old.connection_id;
    return old;
  end if;
  if new.user_id is distinct from (select c.user_id from public.oauth_connections c where c.id = new.connection_id) then
    raise exception 'oauth token user does not match its connection' using errcode = '23514';
  end if;
  update public.oauth_connections
     set has_access_token = coalesce(new.access_token_encrypted, '') <> '',
         has_refresh_token = coalesce(new.refresh_token_encrypted, '') <> ''
   where id = new.connection_id;
  return new;
end
$$;
revoke execute on function private.sync_connection_token_flags() from public;

create trigger oauth_tokens_sync_flags
  after insert or update or delete on private.oauth_tokens
  for each row execute function private.sync_connection_token_flags();

-- OAuth 2.0 state: bound to the user and to the browser that started the flow, single use,
-- expires.
create table private.oauth_states (
  state text primary key check (char_length(state) >= 16),
  user_id uuid not null references public.profiles (id) on delete cascade,
  provider public.provider not null,
  code_verifier text not null,
  redirect_to text,
  expires_at timestamptz not null default now() + interval '10 minutes',
  used_at timestamptz,
  created_at timestamptz not null default now(),
  -- sha256 (hex) of the binding cookie of the browser that started the flow.
  browser_binding_hash text check (browser_binding_hash ~ '^[0-9a-f]{64}$')
);
create index oauth_states_user_id_idx on private.oauth_states (user_id);
create index oauth_states_expires_at_idx on private.oauth_states (expires_at);

alter table private.oauth_states enable row level security;
revoke all on table private.oauth_states from public, anon, authenticated;

-- Spec section 4 "Connection display state per provider": connected, expired, failed or
-- disconnected. Must agree with connectionDisplayState() in
-- supabase/functions/_shared/domain/connection-status.ts (a test feeds both the same rows).
create function private.connection_display_state(p_provider public.provider, p_connected boolean, p_status text, p_has_access_token boolean, p_has_refresh_token boolean, p_expires_at timestamp with time zone, p_created_at timestamp with time zone, p_updated_at timestamp with time zone, p_at timestamp with time zone)
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
revoke execute on function private.connection_display_state(public.provider, boolean, text, boolean, boolean, timestamptz, timestamptz, timestamptz, timestamptz) from public;
grant execute on function private.connection_display_state(public.provider, boolean, text, boolean, boolean, timestamptz, timestamptz, timestamptz, timestamptz) to authenticated, service_role;

-- True when the user has at least one working social account (a connected provider other
-- than the Google Drive used for storage, holding an access token).
create function private.social_connected(p_user uuid)
returns boolean
language plpgsql
stable
set search_path = ''
as $$
begin
  return exists (
    select 1
      from public.oauth_connections c
     where c.user_id = p_user
       and c.provider <> 'google'
       and c.connected
       and c.has_access_token
       and coalesce(c.status, 'connected') = 'connected'
  );
end
$$;
revoke execute on function private.social_connected(uuid) from public;
grant execute on function private.social_connected(uuid) to authenticated, service_role;

-- The OAuth refresh the worker and the functions both run, recorded by one pair of functions.
-- Only servers call them.

-- A refresh the provider answered with new tokens (sealed by the caller): the token row and the
-- connection, in one transaction. created_at is when the current token set was issued
-- (docs/decisions.md), so a connection the daily refresh keeps alive never ages into 'failed'.
create function private.record_token_refresh(p_connection_id uuid, p_access text, p_refresh text, p_key_id text,
                                             p_scope text, p_expires_at timestamptz)
returns void
language plpgsql
set search_path = ''
as $$
begin
  update private.oauth_tokens
     set access_token_encrypted = p_access, refresh_token_encrypted = p_refresh, key_id = p_key_id,
         scope = coalesce(p_scope, scope), refresh_lease_until = null, last_refresh_at = now(), last_refresh_error = null
   where connection_id = p_connection_id;
  update public.oauth_connections set expires_at = p_expires_at, status = 'connected', connected = true, created_at = now()
   where id = p_connection_id;
end
$$;
revoke execute on function private.record_token_refresh(uuid, text, text, text, text, timestamptz) from public, anon, authenticated;
grant execute on function private.record_token_refresh(uuid, text, text, text, text, timestamptz) to service_role;

-- A refresh that failed: with p_grant_gone the grant is gone (revoked, expired) and only
-- reconnecting helps; otherwise the next refresh tries again.
create function private.record_token_refresh_failure(p_connection_id uuid, p_error text, p_grant_gone boolean)
returns void
language plpgsql
set search_path = ''
as $$
begin
  update private.oauth_tokens
     set refresh_token_encrypted = case when p_grant_gone then null else refresh_token_encrypted end,
         refresh_lease_until = null, last_refresh_at = now(), last_refresh_error = left(p_error, 1000)
   where connection_id = p_connection_id;
  if p_grant_gone then
    update public.oauth_connections set status = 'failed' where id = p_connection_id;
  end if;
end
$$;
revoke execute on function private.record_token_refresh_failure(uuid, text, boolean) from public, anon, authenticated;
grant execute on function private.record_token_refresh_failure(uuid, text, boolean) to service_role;
