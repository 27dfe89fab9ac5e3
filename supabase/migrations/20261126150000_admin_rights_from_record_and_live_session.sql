-- Administrator rights come from the account's current record and a live session, not from the
-- access token's claim: a token keeps app_metadata.role = 'admin' until it expires, so with the
-- claim alone a revoked administrator stayed one (and could grant themself the role back), and
-- a signed-out one kept reading the console. Now revocation (admin_set_admin_role) and sign-out
-- (which deletes the auth.sessions row) take effect on the next request.
--
-- Every admin path asks this one function: the RLS policies (select private.is_admin()),
-- require_admin() and resubmit_submission() (so every admin RPC), current_account().isAdmin, and
-- through those RPCs the functions' /api/admin/* routes, which run as the caller.
--
-- Still PL/pgSQL and STABLE (plans kept for the connection, see
-- 20261126130000_dashboard_reads_keep_their_plans.sql): two primary-key lookups, and RLS
-- policies call it once per statement as an initplan. Security definer because the caller
-- cannot read auth.users; it reads only the caller's own row.
create or replace function private.is_admin()
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

-- is_admin() (security definer, owned by the migration role) calls it; PostgREST's roles keep
-- their grants as before.
revoke execute on function private.jwt_session_is_live() from public, anon;
grant execute on function private.jwt_session_is_live() to authenticated;

-- The public name is unchanged (same rule); grants restated explicitly.
revoke execute on function public.is_admin() from public, anon;
grant execute on function public.is_admin() to authenticated, service_role;
