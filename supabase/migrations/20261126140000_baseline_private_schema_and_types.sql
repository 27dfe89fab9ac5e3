-- Release baseline (docs/decisions.md "Release baseline"): the schema as the migrations of
-- 25-26 Nov 2026 left it, each object defined once, one file per feature. Migrations are
-- append-only from here on. Grants are explicit for every role that needs them (anon,
-- authenticated, service_role): hosted Supabase grants nothing by default any more.
--
-- This file: the schema the API does not expose, the helpers every later file uses (who is an
-- administrator, updated_at bookkeeping, blank form values) and the enums.

create schema if not exists private;
revoke all on schema private from public;
-- Policies evaluated for signed-in users call private helpers, so they need usage (not
-- exposure: PostgREST serves only `public`).
grant usage on schema private to authenticated, service_role;

-- An administrator is a user whose JWT carries app_metadata.role = 'admin'. app_metadata is
-- writable only through the Auth admin API (service role), never by the user. PL/pgSQL keeps
-- its plan for the connection (a SQL function with `set search_path` is re-planned per call).
create function private.is_admin()
returns boolean
language plpgsql
stable
set search_path = ''
as $$
begin
  return coalesce(auth.jwt() -> 'app_metadata' ->> 'role', '') = 'admin';
end
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

-- A form value counts as empty when blank or 'not provided'.
create function private.is_blank(p_value text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select coalesce(nullif(lower(trim(p_value)), 'not provided'), '') = ''
$$;
revoke execute on function private.is_blank(text) from public;
grant execute on function private.is_blank(text) to authenticated, service_role;

-- Providers and clip styles are SQL enums: the one list of each, which the generated types
-- (database.types.ts, Constants.public.Enums) carry to the domain, the SPA and the functions.
create type public.provider as enum ('google', 'youtube', 'facebook', 'instagram', 'tiktok', 'x', 'linkedin', 'wordpress');
create type public.clip_style as enum ('DEFAULT', 'PROFESSIONAL', 'CREATIVE');
-- A text value stored into one of these columns converts as into a text column (submit_episode
-- stores the validated style as text); a value outside the enum is refused with 22P02.
-- Comparisons are untouched: `provider = <text>` still needs an explicit cast.
create cast (text as public.provider) with inout as assignment;
create cast (text as public.clip_style) with inout as assignment;
