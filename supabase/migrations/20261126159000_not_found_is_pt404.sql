-- One code for "not found". Our SQL said it three ways: 22023 (file_not_found,
-- original_log_not_found, user_not_found), P0002 (delivery_not_found) and PT404
-- (subscriber_not_found), so PostgREST answered 400 for some and 404 for others, and the API's
-- routes remapped by message text. Now every "not found" we raise is PT404, which PostgREST
-- answers with HTTP 404 and the functions' one mapper (supabase/functions/_shared/database-errors.ts)
-- too. The bodies are copied from their latest definitions with only the raise changed (see
-- docs/decisions.md, "One error contract").
--
--   SQLSTATE  message                  function                               was
--   PT404     file_not_found           private.check_episode_files            22023
--   PT404     original_log_not_found   private.resubmit_submission            22023
--   PT404     user_not_found           private.change_user_email              22023
--   PT404     delivery_not_found       private.record_webhook_attempt         P0002

-- As in 20261126158000_submitted_episode_files_checked_as_mp4.sql, file_not_found PT404.
create or replace function private.check_episode_files(p_files text[], p_owner uuid)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_file text;
begin
  if p_files is null or cardinality(p_files) = 0 then
    raise exception 'no_files' using errcode = '22023', detail = 'Please upload at least one video file before submitting.';
  end if;
  if cardinality(p_files) > 10 then
    raise exception 'too_many_files' using errcode = '22023', detail = 'At most 10 files can be submitted at once.';
  end if;
  if array_position(p_files, null) is not null then
    raise exception 'no_files' using errcode = '22023', detail = 'A file path is empty.';
  end if;
  if (select count(distinct f) from unnest(p_files) f) <> cardinality(p_files) then
    raise exception 'duplicate_file' using errcode = '22023', detail = 'The same file was listed twice.';
  end if;
  foreach v_file in array p_files loop
    if p_owner is not null and split_part(v_file, '/', 1) <> p_owner::text then
      raise exception 'file_not_owned' using errcode = '42501', detail = 'Only your own uploaded files can be submitted.';
    end if;
    perform 1
      from storage.objects o
     where o.bucket_id = 'episodes' and o.name = v_file
       for share;
    if not found then
      raise exception 'file_not_found' using errcode = 'PT404', detail = format('File %s was not found in storage.', v_file);
    end if;
  end loop;
  if p_owner is null then
    return;
  end if;
  foreach v_file in array p_files loop
    if not exists (select 1
                     from storage.objects o
                     join private.checked_episode_files c on c.object_id = o.id and c.version is not distinct from o.version
                    where o.bucket_id = 'episodes' and o.name = v_file) then
      raise exception 'file_not_checked' using errcode = 'PT415',
        detail = format('Only MP4 video files can be submitted: submit %s through the app, which checks it.', v_file);
    end if;
  end loop;
end
$$;
revoke execute on function private.check_episode_files(text[], uuid) from public, anon, authenticated, service_role;

-- As in 20261126150100_resubmission_files_belong_to_subscriber.sql, original_log_not_found PT404.
create or replace function private.resubmit_submission(
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


-- As in 20261126157000_resubmission_names_its_automation.sql, without the handler that turned the
-- 22023 and P0002 "not found" refusals of private.resubmit_submission into PT404: they are PT404.
create or replace function public.admin_resubmit_submission(
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

-- As in 20261126140200_baseline_profiles.sql, user_not_found PT404.
create or replace function private.change_user_email(p_user_id uuid, p_new_email text)
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
    raise exception 'user_not_found' using errcode = 'PT404', detail = 'No such user.';
  end if;
  update auth.identities
     set identity_data = jsonb_set(identity_data, '{email}', to_jsonb(v_email))
   where user_id = p_user_id and provider = 'email';
  perform set_config('castloop.operator_email_change', 'off', true);
end
$$;
revoke execute on function private.change_user_email(uuid, text) from public, anon, authenticated, service_role;


-- As in 20261126140500_baseline_episodes_and_submissions.sql, delivery_not_found PT404.
create or replace function private.record_webhook_attempt(
  p_delivery_id uuid,
  p_ok boolean,
  p_status integer default null,
  p_error text default null,
  p_retry_in interval default '1 minute',
  p_give_up boolean default false
)
returns public.webhook_deliveries
language plpgsql
set search_path = ''
as $$
declare
  v_delivery public.webhook_deliveries;
begin
  update public.webhook_deliveries d
     set delivered_at = case when p_ok then now() end,
         failed_at = case when not p_ok and p_give_up then now() end,
         last_status = p_status,
         last_error = case when p_ok then null else left(p_error, 2000) end,
         next_attempt_at = case when p_ok or p_give_up then d.next_attempt_at else now() + p_retry_in end
   where d.id = p_delivery_id
  returning d.* into v_delivery;
  if v_delivery.id is null then
    raise exception 'delivery_not_found' using errcode = 'PT404';
  end if;
  update public.submission_logs l
     set status = case
                    when p_ok and l.status = 'submitted' then 'delivered'
                    when not p_ok and p_give_up then 'failed'
                    else l.status
                  end
   where l.id = v_delivery.submission_log_id;
  return v_delivery;
end
$$;
revoke execute on function private.record_webhook_attempt(uuid, boolean, integer, text, interval, boolean) from public;
grant execute on function private.record_webhook_attempt(uuid, boolean, integer, text, interval, boolean) to service_role;
