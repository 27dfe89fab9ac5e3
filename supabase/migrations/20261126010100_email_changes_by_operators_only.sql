-- Castloop has no e-mail change screen, and with sign-up confirmations off Auth would apply an
-- e-mail change at once: a stolen session could take the account over. So Auth (PUT /user and
-- the admin API alike) can neither change an account's e-mail nor start a change; operators use
-- private.change_user_email() (docs/deploy.md, "Changing a user's e-mail").

create function private.refuse_email_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_setting('castloop.operator_email_change', true) is distinct from 'on' then
    raise exception 'email_change_not_allowed'
      using errcode = '42501', detail = 'E-mail addresses are changed by an operator; contact support.';
  end if;
  return new;
end
$$;
revoke execute on function private.refuse_email_change() from public;

create trigger refuse_email_change
  before update of email, email_change on auth.users
  for each row
  when (old.email is distinct from new.email or coalesce(new.email_change, '') not in ('', coalesce(old.email_change, '')))
  execute function private.refuse_email_change();

-- The operators' way (run as postgres, e.g. in the SQL editor): moves the account, its e-mail
-- identity and its profile to the new address. Not callable through the API.
create function private.change_user_email(p_user_id uuid, p_new_email text)
returns void
language plpgsql
set search_path = ''
as $$
declare
  v_email text := lower(trim(p_new_email));
begin
  if v_email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    raise exception 'invalid_email' using errcode = '22023', detail = 'Not an e-mail address.';
  end if;
  if exists (select 1 from auth.users where lower(email) = v_email and id <> p_user_id) then
    raise exception 'email_taken' using errcode = '23505', detail = 'Another account has this e-mail address.';
  end if;
  perform set_config('castloop.operator_email_change', 'on', true);
  update auth.users set email = v_email, email_change = '', email_change_token_new = '' where id = p_user_id;
  if not found then
    raise exception 'user_not_found' using errcode = '22023', detail = 'No such user.';
  end if;
  update auth.identities
     set identity_data = jsonb_set(identity_data, '{email}', to_jsonb(v_email))
   where user_id = p_user_id and provider = 'email';
  perform set_config('castloop.operator_email_change', 'off', true);
end
$$;
revoke execute on function private.change_user_email(uuid, text) from public, anon, authenticated, service_role;
