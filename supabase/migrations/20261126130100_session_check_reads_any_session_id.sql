-- A token whose session_id is not a uuid names no session: current_account() answers nothing
-- for it (as when the id was compared as text) instead of failing on the cast, which PostgREST
-- and the functions would report as an error rather than as a signed-out caller.
create or replace function private.jwt_session_is_live()
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
