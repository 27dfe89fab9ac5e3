-- Administrators resubmit a past submission to the automation webhook (a new log row with
-- status 'resubmitted' and a new outbox row); the outbox worker (service role) claims due
-- deliveries and records each attempt.

-- POST /api/admin/episodes/resubmit {objectStorageFiles, userEmail, episodeData, originalLogId}.
-- Admin clip styles are DEFAULT, PORTRAIT, LANDSCAPE (spec section 5) besides the user ones.
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
  v_post_automatically boolean;
  v_params jsonb;
  v_log_id uuid;
  v_now timestamptz := now();
begin
  if v_admin is null or not private.is_admin() then
    raise exception 'admin_required' using errcode = '42501', detail = 'Only administrators can resubmit episodes.';
  end if;
  if private.is_blank(p_user_email) then
    raise exception 'email_required' using errcode = '22023', detail = 'Please enter the user''s email address.';
  end if;
  v_params := private.normalize_episode_options(
    p_options, array['DEFAULT', 'PROFESSIONAL', 'CREATIVE', 'PORTRAIT', 'LANDSCAPE'], 365);
  perform private.check_episode_files(p_files, null);

  if p_original_log_id is not null then
    select * into v_original from public.submission_logs where id = p_original_log_id;
    if not found then
      raise exception 'original_log_not_found' using errcode = 'P0002', detail = 'The original submission log does not exist.';
    end if;
  end if;

  select p.id, p.post_automatically into v_user, v_post_automatically
    from public.profiles p
   where lower(p.email) = lower(trim(p_user_email));

  insert into public.submission_logs (episode_id, user_id, user_email, status, object_storage_files,
                                      submission_parameters, original_log_id, submitted_by, submitted_at)
  values (v_original.episode_id, coalesce(v_user, v_original.user_id), trim(p_user_email), 'resubmitted',
          p_files, v_params, p_original_log_id, v_admin, v_now)
  returning id into v_log_id;

  insert into public.webhook_deliveries (submission_log_id, payload)
  values (v_log_id, jsonb_build_object(
    'event', 'episode.resubmitted',
    'submissionLogId', v_log_id,
    'episodeId', v_original.episode_id,
    'originalLogId', p_original_log_id,
    'userId', coalesce(v_user, v_original.user_id),
    'userEmail', trim(p_user_email),
    'postAutomatically', coalesce(v_post_automatically, true),
    'objectStorageFiles', to_jsonb(p_files),
    'episodeData', v_params,
    'submittedAt', v_now
  ));

  return jsonb_build_object('id', v_log_id, 'status', 'resubmitted', 'submittedAt', v_now);
end
$$;
revoke execute on function private.resubmit_submission(uuid, text[], text, jsonb) from public;
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

-- Outbox worker: takes up to p_limit due deliveries, leasing each for p_lease so a parallel
-- worker skips it, and counts the attempt. Service role only.
create function public.claim_webhook_deliveries(p_limit integer default 10, p_lease interval default '5 minutes')
returns setof public.webhook_deliveries
language sql
set search_path = ''
as $$
  update public.webhook_deliveries d
     set attempts = d.attempts + 1,
         next_attempt_at = now() + p_lease
   where d.id in (
     select w.id from public.webhook_deliveries w
      where w.delivered_at is null and w.failed_at is null and w.next_attempt_at <= now()
      order by w.next_attempt_at
      limit greatest(p_limit, 0)
      for update skip locked
   )
  returning d.*
$$;
revoke execute on function public.claim_webhook_deliveries(integer, interval) from public, anon, authenticated;
grant execute on function public.claim_webhook_deliveries(integer, interval) to service_role;

-- Records the outcome of one attempt. Success marks the delivery and its log delivered
-- (a resubmission keeps its 'resubmitted' status). Failure schedules a retry after p_retry_in,
-- or, with p_give_up, marks both failed.
create function public.record_webhook_attempt(
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
    raise exception 'delivery_not_found' using errcode = 'P0002';
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
revoke execute on function public.record_webhook_attempt(uuid, boolean, integer, text, interval, boolean) from public, anon, authenticated;
grant execute on function public.record_webhook_attempt(uuid, boolean, integer, text, interval, boolean) to service_role;
