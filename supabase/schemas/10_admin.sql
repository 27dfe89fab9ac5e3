-- This file: the admin console and the operator tools (docs/operations.md). Every administrator action is
-- recorded in admin_audit_log, with who and when: written only by the server (security definer
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
grant select, insert, update, delete on table public.admin_audit_log to service_role;
grant usage, select on sequence public.admin_audit_log_id_seq to service_role;

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

create function private.require_admin()
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if (select auth.uid()) is null or not private.is_admin() then
    raise exception 'admin_required' using errcode = '42501', detail = 'Only administrators can use the admin panel.';
  end if;
end
$$;
revoke execute on function private.require_admin() from public;
grant execute on function private.require_admin() to authenticated;

create function private.check_page_size(p_limit integer)
returns void
language plpgsql
immutable
set search_path = ''
as $$
begin
  if p_limit is null or p_limit not between 1 and 500 then
    raise exception 'invalid_limit' using errcode = '22023', detail = 'The page size must be from 1 to 500.';
  end if;
end
$$;
revoke execute on function private.check_page_size(integer) from public;
grant execute on function private.check_page_size(integer) to authenticated;

-- GET /api/admin/episode-logs: {logs: [{id, userEmail, submittedAt, status, objectStorageFiles,
-- submissionParameters, originalLogId, delivery: {state, attempts, lastStatus, lastError,
-- deliveredAt, nextAttemptAt} | null, processing: {status, stage, progress, failureReason,
-- updatedAt} | null}], next: {submittedAt, id} | null}, newest first, paged by keyset so the
-- first page is fast however many rows there are.
-- delivery.state: pending (not yet delivered, retrying), delivered, failed (gave up), skipped
-- (the built-in worker took the submission). processing: the built-in worker's row, if any.
create function public.admin_submission_logs(
  p_before_at timestamptz default null,
  p_before_id uuid default null,
  p_limit integer default 50
)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  v_rows jsonb;
  v_count integer;
  v_last jsonb;
begin
  perform private.require_admin();
  perform private.check_page_size(p_limit);
  if (p_before_at is null) <> (p_before_id is null) then
    raise exception 'invalid_cursor' using errcode = '22023', detail = 'The page cursor is incomplete.';
  end if;

  with page as (
    select l.*
      from public.submission_logs l
     where p_before_at is null or (l.submitted_at, l.id) < (p_before_at, p_before_id)
     order by l.submitted_at desc, l.id desc
     limit p_limit + 1
  )
  select coalesce(jsonb_agg(jsonb_build_object(
           'id', page.id,
           'userEmail', page.user_email,
           'submittedAt', page.submitted_at,
           'status', page.status,
           'objectStorageFiles', to_jsonb(page.object_storage_files),
           'submissionParameters', page.submission_parameters,
           'originalLogId', page.original_log_id,
           'delivery', (
             select jsonb_build_object(
                      'state', case when d.delivered_at is not null then 'delivered'
                                    when d.failed_at is not null then 'failed'
                                    when d.skipped_at is not null then 'skipped'
                                    else 'pending' end,
                      'attempts', d.attempts,
                      'lastStatus', d.last_status,
                      'lastError', d.last_error,
                      'deliveredAt', d.delivered_at,
                      'nextAttemptAt', d.next_attempt_at)
               from public.webhook_deliveries d
              where d.submission_log_id = page.id
              order by d.created_at desc
              limit 1),
           'processing', (
             select jsonb_build_object(
                      'status', p.status,
                      'stage', p.stage,
                      'progress', p.progress,
                      'failureReason', p.failure_reason,
                      'updatedAt', p.updated_at)
               from public.episode_processing p
              where p.submission_log_id = page.id)
         ) order by page.submitted_at desc, page.id desc), '[]'::jsonb)
    into v_rows
    from page;

  v_count := jsonb_array_length(v_rows);
  if v_count > p_limit then
    v_rows := v_rows - p_limit;
    v_last := v_rows -> (p_limit - 1);
    return jsonb_build_object('logs', v_rows,
                              'next', jsonb_build_object('submittedAt', v_last -> 'submittedAt', 'id', v_last -> 'id'));
  end if;
  return jsonb_build_object('logs', v_rows, 'next', null);
end
$$;
revoke execute on function public.admin_submission_logs(timestamptz, uuid, integer) from public, anon;
grant execute on function public.admin_submission_logs(timestamptz, uuid, integer) to authenticated;

-- GET /api/admin/object-storage/files: {files: [{path, name, size, uploaded}], next: path | null},
-- files of bucket `episodes` in path order after p_after (the unique (bucket_id, name) index).
create function public.admin_episode_files(p_after text default null, p_limit integer default 100)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  v_rows jsonb;
begin
  perform private.require_admin();
  perform private.check_page_size(p_limit);

  with page as (
    select o.name, o.metadata, o.created_at
      from storage.objects o
     where o.bucket_id = 'episodes' and (p_after is null or o.name > p_after)
     order by o.name
     limit p_limit + 1
  )
  select coalesce(jsonb_agg(jsonb_build_object(
           'path', page.name,
           'name', storage.filename(page.name),
           'size', case when page.metadata ->> 'size' ~ '^[0-9]+$' then (page.metadata ->> 'size')::bigint end,
           'uploaded', page.created_at
         ) order by page.name), '[]'::jsonb)
    into v_rows
    from page;

  if jsonb_array_length(v_rows) > p_limit then
    v_rows := v_rows - p_limit;
    return jsonb_build_object('files', v_rows, 'next', v_rows -> (p_limit - 1) -> 'path');
  end if;
  return jsonb_build_object('files', v_rows, 'next', null);
end
$$;
revoke execute on function public.admin_episode_files(text, integer) from public, anon;
grant execute on function public.admin_episode_files(text, integer) to authenticated;

-- Administrators resubmit a past submission to the automation (a new log row with status
-- 'resubmitted' and a new outbox row). POST /api/admin/episodes/resubmit {objectStorageFiles,
-- userEmail, episodeData, originalLogId}. Admin clip styles are DEFAULT, PORTRAIT, LANDSCAPE
-- (spec section 5) besides the user ones. The resubmission sends files to the named subscriber's
-- automation and Drive, so they must be that subscriber's:
--   * the e-mail must name an account;
--   * every file must exist in bucket `episodes` AND lie in that account's folder (`<uid>/...`,
--     the folder only its owner, or an administrator, can write); a resubmission carries only
--     storage paths, so a Drive id or URL is "not found";
--   * an original log, when given, must be that account's too.
-- Both RPCs (public.resubmit_submission and public.admin_resubmit_submission, which the
-- functions' POST /api/admin/episodes/resubmit calls) go through this function. Bad options
-- raise 22023 with a reason code (normalize_episode_options), and:
--
--   SQLSTATE  message                          HTTP (PostgREST)
--   42501     admin_required                   403
--   22023     email_required                   400
--   22023     file_not_owned                   400
--   22023     original_log_other_subscriber    400
--   PT404     file_not_found                   404
--   PT404     original_log_not_found           404
--   PT404     subscriber_not_found             404
create function private.resubmit_submission(
  p_original_log_id uuid,
  p_files text[],
  p_user_email text,
  p_options jsonb
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin uuid := (select auth.uid());
  v_original public.submission_logs;
  v_user uuid;
  v_email text;
  v_post_automatically boolean;
  v_params jsonb;
  v_log_id uuid;
  v_file text;
  v_now timestamptz := now();
begin
  if v_admin is null or not private.is_admin() then
    raise exception 'admin_required' using errcode = '42501', detail = 'Only administrators can resubmit episodes.';
  end if;
  if private.is_blank(p_user_email) then
    raise exception 'email_required' using errcode = '22023', detail = 'Please enter the user''s email address.';
  end if;
  v_email := trim(p_user_email);
  v_params := private.normalize_episode_options(
    p_options, array['DEFAULT', 'PROFESSIONAL', 'CREATIVE', 'PORTRAIT', 'LANDSCAPE'], 365);
  perform private.check_episode_files(p_files, null);

  if p_original_log_id is not null then
    select * into v_original from public.submission_logs where id = p_original_log_id;
    if not found then
      raise exception 'original_log_not_found' using errcode = 'PT404', detail = 'The original submission log does not exist.';
    end if;
  end if;

  v_user := private.account_id_by_email(v_email);
  foreach v_file in array p_files loop
    if split_part(v_file, '/', 1) <> v_user::text then
      raise exception 'file_not_owned' using errcode = '22023',
        detail = format('File %s does not belong to %s.', v_file, v_email);
    end if;
  end loop;
  if v_original.user_id is not null and v_original.user_id <> v_user then
    raise exception 'original_log_other_subscriber' using errcode = '22023',
      detail = format('The original submission log belongs to another subscriber than %s.', v_email);
  end if;

  select p.post_automatically into v_post_automatically from public.profiles p where p.id = v_user;

  insert into public.submission_logs (episode_id, user_id, user_email, status, object_storage_files,
                                      submission_parameters, original_log_id, submitted_by, submitted_at)
  values (v_original.episode_id, v_user, v_email, 'resubmitted',
          p_files, v_params, p_original_log_id, v_admin, v_now)
  returning id into v_log_id;

  insert into public.webhook_deliveries (submission_log_id, payload)
  values (v_log_id, jsonb_build_object(
    'event', 'episode.resubmitted',
    'submissionLogId', v_log_id,
    'episodeId', v_original.episode_id,
    'originalLogId', p_original_log_id,
    'userId', v_user,
    'userEmail', v_email,
    'postAutomatically', coalesce(v_post_automatically, true),
    'objectStorageFiles', to_jsonb(p_files),
    'episodeData', v_params,
    'submittedAt', v_now
  ));

  return jsonb_build_object('id', v_log_id, 'status', 'resubmitted', 'submittedAt', v_now);
end
$$;
revoke execute on function private.resubmit_submission(uuid, text[], text, jsonb) from public, anon;
grant execute on function private.resubmit_submission(uuid, text[], text, jsonb) to authenticated;

create function public.resubmit_submission(
  object_storage_files text[],
  user_email text,
  episode_data jsonb default '{}'::jsonb,
  original_log_id uuid default null
)
returns jsonb
language sql
set search_path = ''
as $$
  select private.resubmit_submission(original_log_id, object_storage_files, user_email, episode_data)
$$;
revoke execute on function public.resubmit_submission(text[], text, jsonb, uuid) from public, anon;
grant execute on function public.resubmit_submission(text[], text, jsonb, uuid) to authenticated;

-- Which automation took a submission log: 'builtin' when the worker queued it, else 'webhook'.
-- Security definer: the administrator may not read the subscriber's processing row; the answer is
-- one word and the function is not exposed by the API.
create function private.submission_automation(p_log_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select case
    when exists (select 1 from public.episode_processing p where p.submission_log_id = p_log_id) then 'builtin'
    else 'webhook'
  end
$$;
revoke execute on function private.submission_automation(uuid) from public, anon;
grant execute on function private.submission_automation(uuid) to authenticated;

-- The admin console's entry point: resubmit_submission's answer (its refusals as they come, "not
-- found" as 404) plus which automation took the new log ('automation').
create function public.admin_resubmit_submission(
  object_storage_files text[],
  user_email text,
  episode_data jsonb default '{}'::jsonb,
  original_log_id uuid default null
)
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  v_result jsonb;
begin
  v_result := private.resubmit_submission(original_log_id, object_storage_files, user_email, episode_data);
  return v_result || jsonb_build_object('automation', private.submission_automation((v_result ->> 'id')::uuid));
end
$$;
revoke execute on function public.admin_resubmit_submission(text[], text, jsonb, uuid) from public, anon;
grant execute on function public.admin_resubmit_submission(text[], text, jsonb, uuid) to authenticated;

-- Operator tools: administrators look up a subscriber by e-mail, mark podcast hosting ready,
-- flag the internal test account, and grant or revoke the admin role. Each is an RPC only
-- administrators may call (a thin public wrapper over a private security definer function),
-- and each call is recorded in admin_audit_log.
--
--   SQLSTATE  message               when
--   42501     admin_required        the caller is not an administrator
--   22023     email_required        blank e-mail
--   PT404     subscriber_not_found  no account with that e-mail (HTTP 404 via PostgREST)
--   22023     cannot_revoke_self    an administrator revoking their own role

create function private.account_id_by_email(p_email text)
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_id uuid;
begin
  if private.is_blank(p_email) then
    raise exception 'email_required' using errcode = '22023', detail = 'Please enter the user''s email address.';
  end if;
  select u.id into v_id from auth.users u where lower(u.email) = lower(trim(p_email));
  if v_id is null then
    raise exception 'subscriber_not_found' using errcode = 'PT404', detail = format('No account uses %s.', trim(p_email));
  end if;
  return v_id;
end
$$;
revoke execute on function private.account_id_by_email(text) from public;

-- What an operator needs to know about one account.
create function private.subscriber_summary(p_user uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', u.id,
    'email', u.email,
    'firstName', p.first_name,
    'lastName', p.last_name,
    'createdAt', u.created_at,
    'subscriptionStatus', s.status,
    'subscriptionTier', s.tier,
    'currentPeriodEnd', s.current_period_end,
    'onboardingCompleted', p.onboarding_completed_at is not null,
    'hostingReadyAt', p.hosting_ready_at,
    'hostingSetupStartedAt', p.hosting_setup_started_at,
    'isInternalTestAccount', coalesce(p.is_internal_test_account, false),
    'isAdmin', coalesce(u.raw_app_meta_data ->> 'role', '') = 'admin',
    'episodesTotal', (select count(*) from public.episodes e where e.user_id = u.id)
  )
  from auth.users u
  left join public.profiles p on p.id = u.id
  left join public.subscriptions s on s.user_id = u.id
  where u.id = p_user
$$;
revoke execute on function private.subscriber_summary(uuid) from public;

create function private.admin_find_subscriber(p_email text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user uuid;
begin
  perform private.require_admin();
  v_user := private.account_id_by_email(p_email);
  perform private.record_admin_action('subscriber.lookup', v_user, jsonb_build_object('email', trim(p_email)));
  return private.subscriber_summary(v_user);
end
$$;
revoke execute on function private.admin_find_subscriber(text) from public;
grant execute on function private.admin_find_subscriber(text) to authenticated;

-- Hosting ready unblocks episode submission (episode_stats' hosting_setup); p_ready = false
-- undoes it and starts the setup again now. An earlier ready time is kept.
create function private.admin_mark_hosting_ready(p_email text, p_ready boolean default true)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user uuid;
begin
  perform private.require_admin();
  v_user := private.account_id_by_email(p_email);
  update public.profiles
     set hosting_ready_at = case when coalesce(p_ready, true) then coalesce(hosting_ready_at, now()) end,
         hosting_setup_started_at = case when coalesce(p_ready, true) then hosting_setup_started_at else now() end
   where id = v_user;
  perform private.record_admin_action('hosting.mark_ready', v_user, jsonb_build_object('ready', coalesce(p_ready, true)));
  return private.subscriber_summary(v_user);
end
$$;
revoke execute on function private.admin_mark_hosting_ready(text, boolean) from public;
grant execute on function private.admin_mark_hosting_ready(text, boolean) to authenticated;

-- The internal test account may use every social provider (spec section 4).
create function private.admin_set_internal_test_account(p_email text, p_flag boolean default true)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user uuid;
begin
  perform private.require_admin();
  v_user := private.account_id_by_email(p_email);
  update public.profiles set is_internal_test_account = coalesce(p_flag, true) where id = v_user;
  perform private.record_admin_action('test_account.set', v_user, jsonb_build_object('flag', coalesce(p_flag, true)));
  return private.subscriber_summary(v_user);
end
$$;
revoke execute on function private.admin_set_internal_test_account(text, boolean) from public;
grant execute on function private.admin_set_internal_test_account(text, boolean) to authenticated;

-- The admin role lives in auth.users.raw_app_meta_data (the JWT's app_metadata), which users
-- cannot change; private.is_admin() reads the record, so a grant or revocation takes effect on
-- the account's next request.
create function private.admin_set_admin_role(p_email text, p_admin boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user uuid;
begin
  perform private.require_admin();
  if p_admin is null then
    raise exception 'invalid_role_change' using errcode = '22023', detail = 'Say whether to grant (true) or revoke (false) the admin role.';
  end if;
  v_user := private.account_id_by_email(p_email);
  if not p_admin and v_user = (select auth.uid()) then
    raise exception 'cannot_revoke_self' using errcode = '22023', detail = 'Administrators cannot revoke their own admin role.';
  end if;
  update auth.users
     set raw_app_meta_data = case when p_admin
                                  then coalesce(raw_app_meta_data, '{}'::jsonb) || '{"role": "admin"}'::jsonb
                                  else coalesce(raw_app_meta_data, '{}'::jsonb) - 'role' end,
         updated_at = now()
   where id = v_user;
  perform private.record_admin_action(case when p_admin then 'admin_role.grant' else 'admin_role.revoke' end, v_user, '{}'::jsonb);
  return private.subscriber_summary(v_user);
end
$$;
revoke execute on function private.admin_set_admin_role(text, boolean) from public;
grant execute on function private.admin_set_admin_role(text, boolean) to authenticated;

-- The RPCs (POST /rest/v1/rpc/<name>), thin wrappers that run with the caller's rights.
create function public.admin_find_subscriber(p_email text)
returns jsonb language sql set search_path = ''
as $$ select private.admin_find_subscriber(p_email) $$;

create function public.admin_mark_hosting_ready(p_email text, p_ready boolean default true)
returns jsonb language sql set search_path = ''
as $$ select private.admin_mark_hosting_ready(p_email, p_ready) $$;

create function public.admin_set_internal_test_account(p_email text, p_flag boolean default true)
returns jsonb language sql set search_path = ''
as $$ select private.admin_set_internal_test_account(p_email, p_flag) $$;

create function public.admin_set_admin_role(p_email text, p_admin boolean)
returns jsonb language sql set search_path = ''
as $$ select private.admin_set_admin_role(p_email, p_admin) $$;

revoke execute on function public.admin_find_subscriber(text), public.admin_mark_hosting_ready(text, boolean),
  public.admin_set_internal_test_account(text, boolean), public.admin_set_admin_role(text, boolean) from public, anon;
grant execute on function public.admin_find_subscriber(text), public.admin_mark_hosting_ready(text, boolean),
  public.admin_set_internal_test_account(text, boolean), public.admin_set_admin_role(text, boolean) to authenticated;

-- The subscribers whose hosting setup is under way, longest waiting first, one page after
-- (p_after_started_at, p_after_id): {items: [{id, email, firstName, lastName, subscriptionStatus,
-- subscriptionTier, hostingSetupStartedAt}], next: {startedAt, id} | null}. Administrators only.
create function private.admin_hosting_setups(p_after_started_at timestamptz, p_after_id uuid, p_limit integer)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_limit integer := coalesce(p_limit, 50);
  v_rows jsonb;
begin
  perform private.require_admin();
  perform private.check_page_size(v_limit);
  select coalesce(jsonb_agg(r.item order by r.started_at, r.id), '[]'::jsonb)
    into v_rows
    from (
      select p.id, p.hosting_setup_started_at as started_at,
             jsonb_build_object(
               'id', p.id,
               'email', p.email,
               'firstName', p.first_name,
               'lastName', p.last_name,
               'subscriptionStatus', s.status,
               'subscriptionTier', s.tier,
               'hostingSetupStartedAt', p.hosting_setup_started_at
             ) as item
        from public.profiles p
        left join public.subscriptions s on s.user_id = p.id
       where p.hosting_ready_at is null and p.hosting_setup_started_at is not null
         and (p_after_started_at is null
              or (p.hosting_setup_started_at, p.id) > (p_after_started_at, coalesce(p_after_id, '00000000-0000-0000-0000-000000000000'::uuid)))
       order by p.hosting_setup_started_at, p.id
       limit v_limit + 1
    ) r;
  -- One row past the page says whether there is a next one; it is not returned.
  return jsonb_build_object(
    'items', case when jsonb_array_length(v_rows) > v_limit then v_rows - v_limit else v_rows end,
    'next', case when jsonb_array_length(v_rows) > v_limit
                 then jsonb_build_object('startedAt', v_rows -> (v_limit - 1) -> 'hostingSetupStartedAt',
                                         'id', v_rows -> (v_limit - 1) -> 'id') end
  );
end
$$;
revoke execute on function private.admin_hosting_setups(timestamptz, uuid, integer) from public, anon, service_role;
grant execute on function private.admin_hosting_setups(timestamptz, uuid, integer) to authenticated;

create function public.admin_hosting_setups(p_after_started_at timestamptz default null, p_after_id uuid default null, p_limit integer default 50)
returns jsonb language sql set search_path = ''
as $$ select private.admin_hosting_setups(p_after_started_at, p_after_id, p_limit) $$;
revoke execute on function public.admin_hosting_setups(timestamptz, uuid, integer) from public, anon, service_role;
grant execute on function public.admin_hosting_setups(timestamptz, uuid, integer) to authenticated;
