-- The current definition of every object, one file per area, in the order supabase/config.toml
-- ([db.migrations] schema_paths) lists them. A change edits the object here and adds a migration
-- that makes it; tests/db/schema-files.test.ts builds a database from each and compares them
-- (docs/decisions.md "Database"). Grants are explicit for every role that needs them (anon,
-- authenticated, service_role): hosted Supabase grants nothing by default.
--
-- Function bodies are checked when they run, not when they are created (as pg_dump and
-- `supabase db dump` do): a file may then define a function that reads a table of a later file
-- (the episode statistics read the processing rows), so each area stays in one file. The
-- migrations check every body as they create it, and the schema files' bodies must equal theirs.
set check_function_bodies = off;

-- This file: the schema the API does not expose, the helpers every later file uses (who is an
-- administrator, updated_at bookkeeping, blank form values) and the enums.

create schema private;
revoke all on schema private from public;
-- Policies evaluated for signed-in users call private helpers, so they need usage (not
-- exposure: PostgREST serves only `public`).
grant usage on schema private to authenticated, service_role;

-- True when the JWT names no session (hand-made service tokens) or its session still exists; a
-- session_id that is not a uuid names no session. Security definer: the caller cannot read
-- auth.sessions.
create function private.jwt_session_is_live()
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_session_id text := auth.jwt() ->> 'session_id';
begin
  -- Hand-made service tokens name no session; Auth's always name a uuid one.
  if v_session_id is null then
    return true;
  end if;
  if v_session_id !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    return false;
  end if;
  return exists (select 1 from auth.sessions where id = v_session_id::uuid);
end
$$;
revoke execute on function private.jwt_session_is_live() from public, anon;
grant execute on function private.jwt_session_is_live() to authenticated;

-- An administrator is a user whose account record (auth.users.raw_app_meta_data.role, written only
-- through the Auth admin API) says 'admin', in a live session: not the access token's claim, which
-- outlives a revocation or a sign-out until the token expires. Every admin path asks this one
-- function: the RLS policies (select private.is_admin()), require_admin() and
-- resubmit_submission() (so every admin RPC) and current_account().isAdmin. PL/pgSQL and STABLE
-- keep its plan for the connection; RLS policies call it once per statement as an initplan.
-- Security definer because the caller cannot read auth.users; it reads only the caller's row.
create function private.is_admin()
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_user uuid := auth.uid();
begin
  if v_user is null or not private.jwt_session_is_live() then
    return false;
  end if;
  return exists (
    select 1
      from auth.users u
     where u.id = v_user
       and u.raw_app_meta_data ->> 'role' = 'admin'
       and u.deleted_at is null
       and (u.banned_until is null or u.banned_until <= now())
  );
end
$$;
revoke execute on function private.is_admin() from public, anon;
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
