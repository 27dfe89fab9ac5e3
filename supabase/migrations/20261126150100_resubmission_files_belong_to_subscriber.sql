-- An administrator's resubmission sends files to the named subscriber's automation and Drive, so
-- the files must be that subscriber's: before, any path in bucket `episodes` was accepted with
-- any e-mail, and one subscriber's episode could be delivered to another's Drive. Now:
--   * the e-mail must name an account (404 subscriber_not_found, as the operator tools);
--   * every file must exist in bucket `episodes` (as before) AND lie in that account's folder
--     (`<uid>/...`, the folder only its owner, or an administrator, can write: storage policies);
--     a resubmission carries only storage paths, so a Drive id or URL is "not found";
--   * an original log, when given, must be that account's too.
-- Both RPCs (public.resubmit_submission and public.admin_resubmit_submission, which the
-- functions' POST /api/admin/episodes/resubmit calls) go through this function.
--
--   SQLSTATE  message                          HTTP (PostgREST)
--   22023     file_not_owned                   400
--   22023     original_log_other_subscriber    400
--   PT404     subscriber_not_found             404
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
      raise exception 'original_log_not_found' using errcode = '22023', detail = 'The original submission log does not exist.';
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
