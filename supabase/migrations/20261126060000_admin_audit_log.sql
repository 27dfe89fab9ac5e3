-- Every administrator action, with who and when. Written only by the server (security definer
-- functions and triggers); administrators read it, nobody writes it through the API.

create table public.admin_audit_log (
  id bigint generated always as identity primary key,
  -- No foreign key: the record outlives the accounts it names.
  admin_id uuid not null,
  admin_email text,
  -- e.g. episode.resubmit, subscriber.lookup, hosting.mark_ready, test_account.set, admin_role.set
  action text not null check (char_length(action) between 1 and 100),
  target_user_id uuid,
  details jsonb not null default '{}',
  created_at timestamptz not null default now()
);
create index admin_audit_log_created_at_idx on public.admin_audit_log (created_at desc);
create index admin_audit_log_admin_id_idx on public.admin_audit_log (admin_id);
create index admin_audit_log_target_user_id_idx on public.admin_audit_log (target_user_id);

alter table public.admin_audit_log enable row level security;
revoke all on table public.admin_audit_log from anon, authenticated;
grant select on table public.admin_audit_log to authenticated;

create policy "Admins read the audit log"
  on public.admin_audit_log for select
  to authenticated
  using ((select private.is_admin()));

-- Records one action by the signed-in administrator.
create function private.record_admin_action(p_action text, p_target_user uuid, p_details jsonb)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.admin_audit_log (admin_id, admin_email, action, target_user_id, details)
  values ((select auth.uid()), (select auth.jwt()) ->> 'email', p_action, p_target_user, coalesce(p_details, '{}'))
$$;
revoke execute on function private.record_admin_action(text, uuid, jsonb) from public;

-- A resubmission is an admin action: recorded as its log row is written, whichever function
-- writes it.
create function private.audit_resubmission()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.admin_audit_log (admin_id, admin_email, action, target_user_id, details, created_at)
  values (
    new.submitted_by,
    (select p.email from public.profiles p where p.id = new.submitted_by),
    'episode.resubmit',
    new.user_id,
    jsonb_build_object(
      'submissionLogId', new.id,
      'originalLogId', new.original_log_id,
      'userEmail', new.user_email,
      'objectStorageFiles', to_jsonb(new.object_storage_files)
    ),
    new.submitted_at
  );
  return new;
end
$$;
revoke execute on function private.audit_resubmission() from public;

create trigger submission_logs_audit_resubmission
  after insert on public.submission_logs
  for each row
  when (new.submitted_by is not null)
  execute function private.audit_resubmission();
