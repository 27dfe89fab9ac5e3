-- A schema the API does not expose, for helpers that policies and RPCs call, plus the two
-- helpers every later migration uses: who is an administrator, and updated_at bookkeeping.

create schema if not exists private;
revoke all on schema private from public;
-- Policies evaluated for signed-in users call private helpers, so they need usage (not
-- exposure: PostgREST serves only `public`).
grant usage on schema private to authenticated, service_role;

-- An administrator is a user whose JWT carries app_metadata.role = 'admin'. app_metadata is
-- writable only through the Auth admin API (service role), never by the user.
create function private.is_admin()
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce((select auth.jwt()) -> 'app_metadata' ->> 'role', '') = 'admin'
$$;
revoke execute on function private.is_admin() from public;
grant execute on function private.is_admin() to authenticated, service_role;

-- The public name the SPA and functions may call (same rule).
create function public.is_admin()
returns boolean
language sql
stable
set search_path = ''
as $$
  select private.is_admin()
$$;
revoke execute on function public.is_admin() from public, anon;
grant execute on function public.is_admin() to authenticated, service_role;

create function private.set_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;
revoke execute on function private.set_updated_at() from public;
