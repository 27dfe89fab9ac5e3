-- Social and cloud-drive connections. oauth_connections holds what the UI shows;
-- oauth_tokens holds the (function-encrypted) token material and is invisible to anon and
-- authenticated; oauth_states holds single-use OAuth state with the PKCE verifier.

create table public.oauth_connections (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  provider text not null check (provider in ('google', 'youtube', 'facebook', 'instagram', 'tiktok', 'x', 'linkedin', 'wordpress')),
  connected boolean not null default true,
  -- What the provider or the daily check last said: null (no verdict), connected, expired, failed.
  status text check (status in ('connected', 'expired', 'failed')),
  -- The account as the provider names it (e-mail, handle, WordPress site and user).
  account_label text check (char_length(account_label) <= 500),
  expires_at timestamptz,
  -- Maintained from oauth_tokens by trigger.
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

create policy "Users read their own connections"
  on public.oauth_connections for select
  to authenticated
  using (user_id = (select auth.uid()));

-- Token material, encrypted by the functions (AES-GCM, key from a function secret).
-- No grants to anon or authenticated at all: only the service role reads or writes it.
create table public.oauth_tokens (
  connection_id uuid primary key references public.oauth_connections (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  access_token_encrypted text,
  refresh_token_encrypted text,
  token_type text,
  scope text,
  updated_at timestamptz not null default now()
);
create index oauth_tokens_user_id_idx on public.oauth_tokens (user_id);

create trigger oauth_tokens_set_updated_at
  before update on public.oauth_tokens
  for each row execute function private.set_updated_at();

alter table public.oauth_tokens enable row level security;
revoke all on table public.oauth_tokens from anon, authenticated;

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
  after insert or update or delete on public.oauth_tokens
  for each row execute function private.sync_connection_token_flags();

-- OAuth 2.0 state: bound to the user, single use, expires. Service role only.
create table public.oauth_states (
  state text primary key check (char_length(state) >= 16),
  user_id uuid not null references public.profiles (id) on delete cascade,
  provider text not null check (provider in ('google', 'youtube', 'facebook', 'instagram', 'tiktok', 'x', 'linkedin', 'wordpress')),
  code_verifier text not null,
  redirect_to text,
  expires_at timestamptz not null default now() + interval '10 minutes',
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index oauth_states_user_id_idx on public.oauth_states (user_id);

alter table public.oauth_states enable row level security;
revoke all on table public.oauth_states from anon, authenticated;

-- Spends a state exactly once: returns its user and verifier if it is unused, unexpired and
-- for this provider, else no row. For the OAuth callback (service role).
create function public.consume_oauth_state(p_state text, p_provider text)
returns table (user_id uuid, code_verifier text, redirect_to text)
language sql
set search_path = ''
as $$
  update public.oauth_states s
     set used_at = now()
   where s.state = p_state
     and s.provider = p_provider
     and s.used_at is null
     and s.expires_at > now()
  returning s.user_id, s.code_verifier, s.redirect_to
$$;
revoke execute on function public.consume_oauth_state(text, text) from public, anon, authenticated;
grant execute on function public.consume_oauth_state(text, text) to service_role;
