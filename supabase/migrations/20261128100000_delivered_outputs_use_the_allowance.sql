-- An episode whose outputs reached the subscriber uses the month's allowance, whatever happened
-- to its processing afterwards (issue 39, item 1). A Starter subscriber disconnected Google Drive
-- as soon as the finished episode was in Drive; the job then failed on the next file, the failed
-- episode stopped counting, and a second episode was accepted and delivered in the same month.
--
-- Rule: an episode uses the allowance unless it failed AND nothing of it ever reached the
-- subscriber (no file of any of its processing rows landed in Drive, no post went out). A retry
-- of such a partly delivered episode finishes what was paid for: it needs no new slot and stays
-- counted in the month it was counted in.

-- True once any file of any processing of the episode is in the subscriber's Drive, or any of
-- its posts went out. Runs with the caller's rights (RLS: the owner reads their own rows).
create function private.episode_reached_subscriber(p_episode uuid)
returns boolean
language sql
stable
set search_path = ''
as $$
  select exists (
           select 1 from public.episode_processing p
            where p.episode_id = p_episode
              and (p.status = 'delivered' or jsonb_path_exists(p.outputs, '$[*].driveFileId ? (@ != null)')))
      or exists (
           select 1 from public.episode_processing p
             join public.scheduled_posts s on s.episode_processing_id = p.id
            where p.episode_id = p_episode and s.status = 'posted')
$$;
revoke execute on function private.episode_reached_subscriber(uuid) from public, anon;
grant execute on function private.episode_reached_subscriber(uuid) to authenticated, service_role;

-- Whether the episode takes a slot of the month its latest attempt fell in.
create function private.episode_uses_allowance(p_episode uuid)
returns boolean
language sql
stable
set search_path = ''
as $$
  select private.episode_outcome(p_episode) <> 'failed' or private.episode_reached_subscriber(p_episode)
$$;
revoke execute on function private.episode_uses_allowance(uuid) from public, anon;
grant execute on function private.episode_uses_allowance(uuid) to authenticated, service_role;

-- As in 20261126160000_allowance_counts_what_processing_kept.sql, but the month counts every
-- episode that uses the allowance (private.episode_uses_allowance).
create or replace function private.episode_stats_for(p_user uuid, p_at timestamptz)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  v_status text;
  v_tier text;
  v_limit integer;
  v_month_start timestamptz := date_trunc('month', p_at at time zone 'UTC') at time zone 'UTC';
  v_this_month integer;
  v_total integer;
  v_drive_state text;
  v_hosting_ready boolean;
  v_reason text;
begin
  select s.status,
         coalesce(s.tier, 'starter'),
         -- A tier without a plan row allows one episode; a plan's null limit means unlimited.
         case when pl.id is null then 1 else pl.episodes_per_month end,
         (select count(*)
            from public.episodes e
           where e.user_id = u.id
             and e.last_attempt_at >= v_month_start
             and e.last_attempt_at < v_month_start + interval '1 month'
             and private.episode_uses_allowance(e.id)),
         (select count(distinct d.episode_id)
            from (select p.episode_id from public.episode_processing p where p.user_id = u.id and p.status = 'delivered'
                  union all
                  select l.episode_id from public.submission_logs l where l.user_id = u.id and l.status = 'delivered') d),
         coalesce(drive.state, 'disconnected'),
         coalesce(p.hosting_ready_at <= p_at, false)
    into v_status, v_tier, v_limit, v_this_month, v_total, v_drive_state, v_hosting_ready
    from (select p_user as id) u
    left join public.subscriptions s on s.user_id = u.id
    left join public.plans pl on pl.id = coalesce(s.tier, 'starter')
    left join public.profiles p on p.id = u.id
    left join lateral (
      select private.connection_display_state(c.provider, c.connected, c.status, c.has_access_token,
               c.has_refresh_token, c.expires_at, c.created_at, c.updated_at, p_at) as state
        from public.oauth_connections c
       where c.user_id = u.id and c.provider = 'google'
    ) drive on true;

  if v_drive_state = 'disconnected' then
    v_reason := 'google_drive_required';
  elsif v_drive_state in ('expired', 'failed') then
    v_reason := 'google_drive_invalid';
  elsif not v_hosting_ready then
    v_reason := 'hosting_setup';
  elsif v_limit is not null and v_this_month >= v_limit then
    v_reason := 'monthly_limit';
  end if;

  return jsonb_build_object(
    'thisMonth', v_this_month,
    'total', v_total,
    'currentCount', v_this_month,
    'limit', v_limit,
    'subscriptionTier', v_tier,
    'canSubmit', v_reason is null and coalesce(v_status = 'active', false),
    'blockReason', v_reason,
    'hostingSetup', v_hosting_ready
  );
end
$$;

-- As in 20261126160000_allowance_counts_what_processing_kept.sql, but an episode that already
-- uses the allowance (its outputs reached the subscriber) is retried without a new slot and
-- stays in the month it is counted in.
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
