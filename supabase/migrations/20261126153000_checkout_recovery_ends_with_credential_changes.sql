-- Session recovery after checkout (issue 23, item 13): a checkout session id must stop being a
-- login once the account's password changed or any of its sessions ended (a sign-out, a global
-- sign-out, a password change signing other sessions out), and it is claimed on every return,
-- signed in or not. Auth records no time for either, so the database notes the last one.

-- The last time each account's credentials or sessions changed. Server-only: written by the
-- triggers below, read by claim_checkout_recovery.
create table private.account_credential_changes (
  user_id uuid primary key references auth.users (id) on delete cascade,
  changed_at timestamptz not null
);
alter table private.account_credential_changes enable row level security;
-- No policy and no grant: only its owner (the trigger and the claim function, as definers) reads it.
revoke all on table private.account_credential_changes from public, anon, authenticated;
-- Written by the security definer trigger below and read by claim_checkout_recovery (as their owner): no API role needs it.

create function private.note_credential_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user_id uuid;
begin
  -- A password update names the user (auth.users), a session's end its owner (auth.sessions).
  if tg_op = 'DELETE' then
    v_user_id := old.user_id;
  else
    v_user_id := new.id;
  end if;
  -- A deleted account's sessions go with it: nothing to note (and no row to reference).
  if exists (select 1 from auth.users u where u.id = v_user_id) then
    insert into private.account_credential_changes as c (user_id, changed_at)
    values (v_user_id, now())
    on conflict (user_id) do update set changed_at = greatest(c.changed_at, excluded.changed_at);
  end if;
  return null;
end
$$;
revoke execute on function private.note_credential_change() from public, anon, authenticated;

create trigger on_auth_user_password_changed
  after update of encrypted_password on auth.users
  for each row
  when (old.encrypted_password is distinct from new.encrypted_password)
  execute function private.note_credential_change();

create trigger on_auth_session_ended
  after delete on auth.sessions
  for each row execute function private.note_credential_change();

-- The claim now knows when the checkout was made: true only the first time, and only when the
-- account's credentials and sessions have not changed since. A refused claim still uses it up.
drop function private.claim_checkout_recovery(text, uuid);

create function private.claim_checkout_recovery(p_checkout_session_id text, p_user_id uuid, p_checkout_created timestamptz)
returns boolean
language plpgsql
set search_path = ''
as $$
declare
  v_first boolean;
begin
  insert into private.checkout_recoveries (checkout_session_id, user_id)
  values (p_checkout_session_id, p_user_id)
  on conflict (checkout_session_id) do nothing;
  v_first := found;
  return v_first and not exists (
    select 1 from private.account_credential_changes c
    where c.user_id = p_user_id and c.changed_at >= p_checkout_created
  );
end
$$;
revoke execute on function private.claim_checkout_recovery(text, uuid, timestamptz) from public, anon, authenticated;
grant execute on function private.claim_checkout_recovery(text, uuid, timestamptz) to service_role;
