-- Permanent and retryable failures differ (issue 43, item 3). The worker records whether a
-- failure can be mended by trying again (a platform refusing a request for a moment) or not (a
-- file that is no video, a trim that leaves nothing: ProcessingFailure.permanent); the episode
-- page and the list say which, and a retry of an episode that cannot succeed as it is, is refused
-- with the reason and what to do instead.
--
--   SQLSTATE  message                     function        when
--   PT409     episode_failure_permanent   retry_episode   its latest attempt failed for good

alter table public.episode_processing add column failure_permanent boolean not null default false;

-- As in 20261128110100_processing_state.sql, and whether trying again can help.
drop function private.processing_failed(uuid, text);
create function private.processing_failed(p_id uuid, p_reason text, p_permanent boolean)
returns boolean
language plpgsql
set search_path = ''
as $$
begin
  update public.episode_processing
     set status = 'failed', stage = null, finished_at = now(), failure_reason = left(p_reason, 2000),
         failure_permanent = coalesce(p_permanent, false)
   where id = p_id and status in ('queued', 'processing');
  return found;
end
$$;
revoke execute on function private.processing_failed(uuid, text, boolean) from public, anon, authenticated;
grant execute on function private.processing_failed(uuid, text, boolean) to service_role;

-- As in 20261128100000_delivered_outputs_use_the_allowance.sql, and an attempt that failed for
-- good is not retried.
create or replace function private.retry_episode(p_episode uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user uuid := (select auth.uid());
  v_episode public.episodes;
  v_status text;
  v_params jsonb;
  v_stats jsonb;
  v_reason text;
  v_already_counted boolean;
  v_permanent_reason text;
  v_original uuid;
  v_log_id uuid;
  v_now timestamptz := now();
begin
  if v_user is null then
    raise exception 'not_authenticated' using errcode = '42501', detail = 'Sign in to retry an episode.';
  end if;
  select * into v_episode from public.episodes e where e.id = p_episode and e.user_id = v_user;
  if not found then
    raise exception 'episode_not_found' using errcode = 'PT404', detail = 'No such episode.';
  end if;

  -- One submission at a time per user, as submit_episode: the same lock.
  perform 1 from public.profiles p where p.id = v_user for update;

  if private.episode_outcome(p_episode) <> 'failed' then
    raise exception 'episode_not_failed' using errcode = 'PT409', detail = 'Only an episode that failed in processing can be retried.';
  end if;
  select p.failure_reason into v_permanent_reason
    from public.submission_logs l
    join public.episode_processing p on p.submission_log_id = l.id
   where l.episode_id = p_episode and p.failure_permanent
     and l.id = (select l2.id from public.submission_logs l2 where l2.episode_id = p_episode order by l2.submitted_at desc, l2.id desc limit 1);
  if found then
    raise exception 'episode_failure_permanent' using errcode = 'PT409',
      detail = format('This episode cannot be processed as submitted (%s). Please submit it again with a corrected file or start and end times.', rtrim(v_permanent_reason, '.'));
  end if;
  if exists (select 1 from unnest(v_episode.files) f
              where not exists (select 1 from storage.objects o where o.bucket_id = 'episodes' and o.name = f)) then
    raise exception 'episode_files_missing' using errcode = 'PT409',
      detail = 'The uploaded files of this episode are no longer stored. Please submit it again.';
  end if;

  v_params := jsonb_build_object(
    'startTimestamp', v_episode.start_timestamp,
    'endTimestamp', v_episode.end_timestamp,
    'addLogo', v_episode.add_logo,
    'addIntroOutro', v_episode.add_intro_outro,
    'clipStyle', v_episode.clip_style,
    'daysBetweenClips', v_episode.days_between_clips
  );
  perform private.check_trim_against_length(v_params, v_episode.duration_seconds);

  select s.status into v_status from public.subscriptions s where s.user_id = v_user;
  if v_status is distinct from 'active' then
    raise exception 'subscription_inactive' using errcode = 'PT402', detail = 'An active subscription is required to submit episodes.';
  end if;
  v_already_counted := private.episode_reached_subscriber(p_episode);
  v_stats := private.episode_stats_for(v_user, v_now);
  v_reason := v_stats ->> 'blockReason';
  if v_reason = 'monthly_limit' and v_already_counted then
    v_reason := null;
  end if;
  if v_reason is not null then
    raise exception '%', v_reason
      using errcode = case when v_reason = 'monthly_limit' then 'PT409' else 'PT403' end,
            detail = private.block_reason_detail(v_reason);
  end if;

  select l.id into v_original
    from public.submission_logs l
   where l.episode_id = p_episode
   order by l.submitted_at desc, l.id desc
   limit 1;
  v_log_id := private.log_own_submission(p_episode, v_user, v_episode.files, v_params, v_original, v_now);
  if not v_already_counted then
    update public.episodes set last_attempt_at = v_now where id = p_episode;
  end if;

  return jsonb_build_object(
    'id', p_episode,
    'title', v_episode.title,
    'submittedAt', v_episode.submitted_at,
    'retriedAt', v_now,
    'submissionLogId', v_log_id
  );
end
$$;

-- As in 20261128110000_clip_records.sql, with failurePermanent.
create or replace function public.episode_page(p_episode_id uuid)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'id', e.id, 'title', e.title, 'submittedAt', e.submitted_at,
    'processing', (
      select jsonb_build_object(
        'id', p.id, 'status', p.status, 'stage', p.stage, 'progress', p.progress,
        'failureReason', p.failure_reason, 'failurePermanent', p.failure_permanent, 'updatedAt', p.updated_at, 'startedAt', p.started_at,
        'finishedAt', p.finished_at, 'driveFolderUrl', p.drive_folder_url, 'outputs', p.outputs,
        'clips', coalesce((select jsonb_agg(private.episode_clip_json(c) order by c.position)
                             from public.episode_clips c
                            where c.episode_processing_id = p.id and c.user_id = (select auth.uid())), '[]'::jsonb),
        'posts', coalesce((select jsonb_agg(private.scheduled_post_json(s) order by s.scheduled_for, c.position, s.provider)
                             from public.scheduled_posts s
                             join public.episode_clips c on c.id = s.clip_id
                            where s.episode_processing_id = p.id and s.user_id = (select auth.uid())), '[]'::jsonb))
        from public.episode_processing p
       where p.episode_id = e.id and p.user_id = (select auth.uid())
       order by p.created_at desc
       limit 1))
    from public.episodes e
   where e.id = p_episode_id and e.user_id = (select auth.uid())
$$;
