-- A subscriber's month without surprises (issue 26, item 5):
-- * An episode's trim times are checked against the video's length before it is accepted. The
--   api reads each file's length from its MP4 header (moov/mvhd) when it checks the file's bytes
--   and records it beside the check (private.checked_episode_files.duration_seconds); the
--   episode keeps the total (episodes.duration_seconds, null when a file's header could not be
--   read: the worker's own check then fails it, which costs nothing, see below). Start must be
--   before end whenever both are given (normalize_episode_options, so resubmissions too).
-- * The month's allowance counts only episodes that did not fail in processing, in the month of
--   the subscriber's latest attempt; 'total' counts only episodes delivered. One definition of an
--   episode's outcome (private.episode_outcome) serves the stats, submit_episode's limit and the
--   retry.
-- * A subscriber may retry their own failed episode (retry_episode): the same files and options
--   are queued again as a new submission log, subject to the allowance at the time of retry.
--
--   SQLSTATE  message                 function                    when
--   22023     invalid_time_range      normalize_episode_options   end not after start
--   22023     start_past_end          submit_episode, retry       start not at least 1 s before the end
--   PT404     episode_not_found       retry_episode               no such episode of the caller's
--   PT409     episode_not_failed      retry_episode               the episode did not fail
--   PT409     episode_files_missing   retry_episode               its files are no longer stored
--   PT409     monthly_limit           retry_episode               no room left this month

alter table private.checked_episode_files add column duration_seconds numeric check (duration_seconds > 0);

alter table public.episodes
  -- Seconds of all files together, from their MP4 headers; null when one could not be read.
  add column duration_seconds numeric check (duration_seconds > 0),
  -- The subscriber's latest attempt (the submission, or the latest retry): the month it counts in.
  add column last_attempt_at timestamptz;
update public.episodes set last_attempt_at = submitted_at;
-- The default only keeps the column optional to writers: the insert trigger below sets it.
alter table public.episodes alter column last_attempt_at set not null, alter column last_attempt_at set default now();
-- The month's count per subscriber.
create index episodes_user_id_last_attempt_at_idx on public.episodes (user_id, last_attempt_at);
-- An episode's logs newest first (its outcome, a retry's original); it also serves the foreign key,
-- so the index on episode_id alone goes.
create index submission_logs_episode_id_submitted_at_idx on public.submission_logs (episode_id, submitted_at desc, id desc);
drop index public.submission_logs_episode_id_idx;
-- 'total': delivered episodes per subscriber.
create index episode_processing_user_id_delivered_idx on public.episode_processing (user_id, episode_id) where status = 'delivered';
create index submission_logs_user_id_delivered_idx on public.submission_logs (user_id, episode_id) where status = 'delivered';

-- A new episode's first attempt is its submission.
create function private.episode_first_attempt()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.last_attempt_at := new.submitted_at;
  return new;
end
$$;
revoke execute on function private.episode_first_attempt() from public, anon, authenticated, service_role;

create trigger episodes_first_attempt
  before insert on public.episodes
  for each row execute function private.episode_first_attempt();

-- 'delivered' once any processing of it (or, with the webhook automation, any delivery to the
-- webhook) succeeded; 'failed' when its latest attempt failed; otherwise 'pending' (queued,
-- processing, or handed to the webhook). Runs with the caller's rights.
create function private.episode_outcome(p_episode uuid)
returns text
language sql
stable
set search_path = ''
as $$
  select case
    when exists (select 1 from public.episode_processing p where p.episode_id = p_episode and p.status = 'delivered')
      or exists (select 1 from public.submission_logs l where l.episode_id = p_episode and l.status = 'delivered')
      then 'delivered'
    when (select coalesce(p.status, case when l.status = 'failed' then 'failed' end)
            from public.submission_logs l
            left join public.episode_processing p on p.submission_log_id = l.id
           where l.episode_id = p_episode
           order by l.submitted_at desc, l.id desc
           limit 1) = 'failed'
      then 'failed'
    else 'pending'
  end
$$;
revoke execute on function private.episode_outcome(uuid) from public, anon;
grant execute on function private.episode_outcome(uuid) to authenticated, service_role;

-- hh:mm:ss as seconds (null stays null).
create function private.timestamp_seconds(p_value text)
returns integer
language sql
immutable
set search_path = ''
as $$
  select split_part(p_value, ':', 1)::integer * 3600 + split_part(p_value, ':', 2)::integer * 60
         + split_part(p_value, ':', 3)::integer
$$;
revoke execute on function private.timestamp_seconds(text) from public, anon;
grant execute on function private.timestamp_seconds(text) to authenticated, service_role;

-- The trim start against the video's length (the rule of _shared/domain/episodes.ts trimProblem,
-- and the worker's: at least one second must be left). A length of null is unknown: nothing to check.
create function private.check_trim_against_length(p_params jsonb, p_duration numeric)
returns void
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_start integer := private.timestamp_seconds(p_params ->> 'startTimestamp');
begin
  if p_duration is not null and v_start is not null and v_start + 1 > p_duration then
    raise exception 'start_past_end' using errcode = '22023',
      detail = format('The start time %s is past the end of the video (%s long).',
                      p_params ->> 'startTimestamp',
                      to_char(make_interval(secs => floor(p_duration)), 'HH24:MI:SS'));
  end if;
end
$$;
revoke execute on function private.check_trim_against_length(jsonb, numeric) from public, anon;
grant execute on function private.check_trim_against_length(jsonb, numeric) to authenticated, service_role;

-- As in 20261126140500_baseline_episodes_and_submissions.sql, and the end must follow the start.
create or replace function private.normalize_episode_options(p_options jsonb, p_clip_styles text[] default enum_range(null::public.clip_style)::text[], p_max_days integer default 30)
returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_options jsonb := coalesce(p_options, '{}'::jsonb);
  v_time_pattern constant text := '^([01]?[0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$';
  v_key text;
  v_value jsonb;
  v_times text[] := array[null, null];
  v_flags boolean[] := array[true, true];
  v_style text := 'DEFAULT';
  v_days integer := 1;
  i integer;
begin
  if jsonb_typeof(v_options) <> 'object' then
    raise exception 'invalid_options' using errcode = '22023', detail = 'Episode options must be an object.';
  end if;

  for i in 1..2 loop
    v_key := (array['startTimestamp', 'endTimestamp'])[i];
    v_value := v_options -> v_key;
    if v_value is null or jsonb_typeof(v_value) = 'null' or v_value = '""'::jsonb then
      continue;
    end if;
    if jsonb_typeof(v_value) <> 'string' or (v_value #>> '{}') !~ v_time_pattern then
      raise exception '%', (array['invalid_start_timestamp', 'invalid_end_timestamp'])[i]
        using errcode = '22023', detail = 'Must be in hh:mm:ss format';
    end if;
    v_times[i] := v_value #>> '{}';
  end loop;
  if private.timestamp_seconds(v_times[2]) <= private.timestamp_seconds(v_times[1]) then
    raise exception 'invalid_time_range' using errcode = '22023', detail = 'The end time must be after the start time.';
  end if;

  for i in 1..2 loop
    v_key := (array['addLogo', 'addIntroOutro'])[i];
    v_value := v_options -> v_key;
    if v_value is null or jsonb_typeof(v_value) = 'null' then
      continue;
    end if;
    if jsonb_typeof(v_value) <> 'boolean' then
      raise exception '%', (array['invalid_add_logo', 'invalid_add_intro_outro'])[i]
        using errcode = '22023', detail = format('%s must be true or false.', v_key);
    end if;
    v_flags[i] := (v_value #>> '{}')::boolean;
  end loop;

  v_value := v_options -> 'clipStyle';
  if v_value is not null and jsonb_typeof(v_value) <> 'null' then
    if jsonb_typeof(v_value) <> 'string' or not ((v_value #>> '{}') = any (p_clip_styles)) then
      raise exception 'invalid_clip_style'
        using errcode = '22023', detail = format('Clip style must be one of %s.', array_to_string(p_clip_styles, ', '));
    end if;
    v_style := v_value #>> '{}';
  end if;

  v_value := v_options -> 'daysBetweenClips';
  if v_value is not null and jsonb_typeof(v_value) <> 'null' then
    if jsonb_typeof(v_value) <> 'number'
       or (v_value #>> '{}')::numeric <> trunc((v_value #>> '{}')::numeric)
       or (v_value #>> '{}')::numeric not between 1 and p_max_days then
      raise exception 'invalid_days_between_clips'
        using errcode = '22023', detail = format('Days between clips must be a whole number from 1 to %s.', p_max_days);
    end if;
    v_days := (v_value #>> '{}')::integer;
  end if;

  return jsonb_build_object(
    'startTimestamp', v_times[1],
    'endTimestamp', v_times[2],
    'addLogo', v_flags[1],
    'addIntroOutro', v_flags[2],
    'clipStyle', v_style,
    'daysBetweenClips', v_days
  );
end
$$;

-- As in 20261126140500_baseline_episodes_and_submissions.sql, but thisMonth/currentCount count
-- the episodes whose latest attempt fell in the month and that did not fail, and total the
-- episodes delivered.
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
             and private.episode_outcome(e.id) <> 'failed'),
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

-- The words for a block reason, as the submit dialog's banners say them.
create function private.block_reason_detail(p_reason text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case p_reason
    when 'google_drive_required' then 'Google Drive connection required. Please connect your Google Drive account.'
    when 'google_drive_invalid' then 'Google Drive token has expired. Please reconnect your Google Drive account.'
    when 'hosting_setup' then 'Your podcast hosting is being configured and will be ready within one business day. Episode submissions will be enabled once setup is complete.'
    else 'Monthly episode submission limit reached. Please upgrade your plan to submit more episodes.'
  end
$$;
revoke execute on function private.block_reason_detail(text) from public, anon, authenticated, service_role;

-- A subscriber's submission log and its outbox row (the built-in worker's processing row comes
-- from the log's trigger): for a new episode and for a retry alike. Returns the log's id.
create function private.log_own_submission(
  p_episode uuid, p_user uuid, p_files text[], p_params jsonb, p_original_log uuid, p_at timestamptz
)
returns uuid
language plpgsql
set search_path = ''
as $$
declare
  v_email text;
  v_post_automatically boolean;
  v_log_id uuid;
begin
  select p.email, p.post_automatically into v_email, v_post_automatically from public.profiles p where p.id = p_user;

  insert into public.submission_logs (episode_id, user_id, user_email, status, object_storage_files,
                                      submission_parameters, original_log_id, submitted_at)
  values (p_episode, p_user, coalesce(v_email, ''), 'submitted', p_files, p_params, p_original_log, p_at)
  returning id into v_log_id;

  insert into public.webhook_deliveries (submission_log_id, payload)
  values (v_log_id, jsonb_build_object(
    'event', 'episode.submitted',
    'submissionLogId', v_log_id,
    'episodeId', p_episode,
    'originalLogId', p_original_log,
    'userId', p_user,
    'userEmail', v_email,
    'postAutomatically', v_post_automatically,
    'objectStorageFiles', to_jsonb(p_files),
    'episodeData', p_params,
    'submittedAt', p_at
  ));
  return v_log_id;
end
$$;
revoke execute on function private.log_own_submission(uuid, uuid, text[], jsonb, uuid, timestamptz) from public, anon, authenticated, service_role;

-- As in 20261126140500_baseline_episodes_and_submissions.sql, and the start time is checked
-- against the files' recorded lengths; the episode keeps their total.
create or replace function private.submit_episode(p_files text[], p_options jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user uuid := (select auth.uid());
  v_status text;
  v_params jsonb;
  v_title text;
  v_stats jsonb;
  v_duration numeric;
  v_episode_id uuid;
  v_log_id uuid;
  v_now timestamptz := now();
begin
  if v_user is null then
    raise exception 'not_authenticated' using errcode = '42501', detail = 'Sign in to submit an episode.';
  end if;

  v_params := private.normalize_episode_options(p_options);

  v_title := nullif(trim(coalesce(p_options ->> 'title', '')), '');
  if p_options ? 'title' and jsonb_typeof(p_options -> 'title') not in ('string', 'null')
     or char_length(v_title) > 500 then
    raise exception 'invalid_title' using errcode = '22023', detail = 'The title must be text of at most 500 characters.';
  end if;

  perform private.check_episode_files(p_files, v_user);

  -- Every file's length as the api read it at the file's current version, or unknown.
  select case when count(c.duration_seconds) = cardinality(p_files) then sum(c.duration_seconds) end
    into v_duration
    from unnest(p_files) f
    join storage.objects o on o.bucket_id = 'episodes' and o.name = f
    join private.checked_episode_files c on c.object_id = o.id and c.version is not distinct from o.version;
  perform private.check_trim_against_length(v_params, v_duration);

  -- One submission at a time per user, so two tabs cannot both take the last slot.
  perform 1 from public.profiles p where p.id = v_user for update;
  if not found then
    raise exception 'not_authenticated' using errcode = '42501', detail = 'No profile for this account.';
  end if;

  select s.status into v_status from public.subscriptions s where s.user_id = v_user;
  if v_status is distinct from 'active' then
    raise exception 'subscription_inactive' using errcode = 'PT402', detail = 'An active subscription is required to submit episodes.';
  end if;

  v_stats := private.episode_stats_for(v_user, v_now);
  if v_stats ->> 'blockReason' is not null then
    raise exception '%', v_stats ->> 'blockReason'
      using errcode = 'PT403', detail = private.block_reason_detail(v_stats ->> 'blockReason');
  end if;

  v_title := coalesce(v_title, regexp_replace(storage.filename(p_files[1]), '\.[^.]*$', ''));

  insert into public.episodes (user_id, title, files, start_timestamp, end_timestamp, add_logo,
                               add_intro_outro, clip_style, days_between_clips, submitted_at, duration_seconds)
  values (v_user, left(v_title, 500), p_files, v_params ->> 'startTimestamp', v_params ->> 'endTimestamp',
          (v_params ->> 'addLogo')::boolean, (v_params ->> 'addIntroOutro')::boolean,
          v_params ->> 'clipStyle', (v_params ->> 'daysBetweenClips')::integer, v_now, v_duration)
  returning id into v_episode_id;

  v_log_id := private.log_own_submission(v_episode_id, v_user, p_files, v_params, null, v_now);

  return jsonb_build_object(
    'id', v_episode_id,
    'title', left(v_title, 500),
    'submittedAt', v_now,
    'submissionLogId', v_log_id
  );
end
$$;

-- Queues a failed episode of the caller's again: the same files and options, as a new
-- submission log whose original is the latest one. The retry is an attempt of this month: it
-- needs the gating submit_episode needs, the monthly limit counted without this episode.
create function private.retry_episode(p_episode uuid)
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
  v_stats := private.episode_stats_for(v_user, v_now);
  v_reason := v_stats ->> 'blockReason';
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
  update public.episodes set last_attempt_at = v_now where id = p_episode;

  return jsonb_build_object(
    'id', p_episode,
    'title', v_episode.title,
    'submittedAt', v_episode.submitted_at,
    'retriedAt', v_now,
    'submissionLogId', v_log_id
  );
end
$$;
revoke execute on function private.retry_episode(uuid) from public, anon, service_role;
grant execute on function private.retry_episode(uuid) to authenticated;

-- POST /rest/v1/rpc/retry_episode {episode_id}: returns {id, title, submittedAt, retriedAt, submissionLogId}.
create function public.retry_episode(episode_id uuid)
returns jsonb
language sql
set search_path = ''
as $$
  select private.retry_episode(episode_id)
$$;
revoke execute on function public.retry_episode(uuid) from public, anon, service_role;
grant execute on function public.retry_episode(uuid) to authenticated;
