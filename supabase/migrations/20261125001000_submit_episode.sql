-- submit_episode(files, options): the only way to create an episode. Validates the options and
-- files, checks the subscription and the gating of episode_stats(), then writes the episode,
-- its submission log and the webhook outbox row in one transaction. Every refusal raises
-- (message = a stable reason code, detail = words for people) and writes nothing.
--
--   SQLSTATE  message                         when
--   42501     not_authenticated               no signed-in user
--   22023     invalid_options                 options is not a JSON object
--   22023     invalid_start_timestamp         startTimestamp not hh:mm:ss
--   22023     invalid_end_timestamp           endTimestamp not hh:mm:ss
--   22023     invalid_add_logo                addLogo not a boolean
--   22023     invalid_add_intro_outro         addIntroOutro not a boolean
--   22023     invalid_clip_style              clipStyle not DEFAULT|PROFESSIONAL|CREATIVE
--   22023     invalid_days_between_clips      daysBetweenClips not an integer 1-30
--   22023     invalid_title                   title not a string of 1-500 characters
--   22023     no_files / too_many_files       fewer than 1 or more than 10 files
--   22023     duplicate_file                  the same path twice
--   42501     file_not_owned                  a path outside the caller's folder
--   P0002     file_not_found                  no such object in bucket `episodes`
--   PT402     subscription_inactive           subscription not active (HTTP 402 via PostgREST)
--   PT403     google_drive_required | google_drive_invalid | hosting_setup | monthly_limit

-- Normalised episode options {startTimestamp, endTimestamp, addLogo, addIntroOutro,
-- clipStyle, daysBetweenClips} with defaults applied; raises 22023 on invalid input.
create function private.normalize_episode_options(
  p_options jsonb,
  p_clip_styles text[] default array['DEFAULT', 'PROFESSIONAL', 'CREATIVE'],
  p_max_days integer default 30
)
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
revoke execute on function private.normalize_episode_options(jsonb, text[], integer) from public;
grant execute on function private.normalize_episode_options(jsonb, text[], integer) to authenticated, service_role;

-- 1..10 distinct paths of existing objects in bucket `episodes`; when p_owner is given each
-- must lie in that user's folder. Raises as listed above. Needs to read storage.objects
-- regardless of RLS, so only the security definer functions below call it.
create function private.check_episode_files(p_files text[], p_owner uuid)
returns void
language plpgsql
stable
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
    if not exists (select 1 from storage.objects o where o.bucket_id = 'episodes' and o.name = v_file) then
      raise exception 'file_not_found' using errcode = 'P0002', detail = format('File %s was not found in storage.', v_file);
    end if;
  end loop;
end
$$;
revoke execute on function private.check_episode_files(text[], uuid) from public;

create function private.submit_episode(p_files text[], p_options jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user uuid := (select auth.uid());
  v_email text;
  v_post_automatically boolean;
  v_status text;
  v_params jsonb;
  v_title text;
  v_stats jsonb;
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

  -- One submission at a time per user, so two tabs cannot both take the last slot.
  select p.email, p.post_automatically into v_email, v_post_automatically
    from public.profiles p
   where p.id = v_user
     for update;
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
      using errcode = 'PT403',
            detail = case v_stats ->> 'blockReason'
              when 'google_drive_required' then 'Google Drive connection required. Please connect your Google Drive account.'
              when 'google_drive_invalid' then 'Google Drive token has expired. Please reconnect your Google Drive account.'
              when 'hosting_setup' then 'Your podcast hosting is being configured and will be ready within one business day. Episode submissions will be enabled once setup is complete.'
              else 'Monthly episode submission limit reached. Please upgrade your plan to submit more episodes.'
            end;
  end if;

  v_title := coalesce(v_title, regexp_replace(storage.filename(p_files[1]), '\.[^.]*$', ''));

  insert into public.episodes (user_id, title, files, start_timestamp, end_timestamp, add_logo,
                               add_intro_outro, clip_style, days_between_clips, submitted_at)
  values (v_user, left(v_title, 500), p_files, v_params ->> 'startTimestamp', v_params ->> 'endTimestamp',
          (v_params ->> 'addLogo')::boolean, (v_params ->> 'addIntroOutro')::boolean,
          v_params ->> 'clipStyle', (v_params ->> 'daysBetweenClips')::integer, v_now)
  returning id into v_episode_id;

  insert into public.submission_logs (episode_id, user_id, user_email, status, object_storage_files,
                                      submission_parameters, submitted_at)
  values (v_episode_id, v_user, coalesce(v_email, ''), 'submitted', p_files, v_params, v_now)
  returning id into v_log_id;

  insert into public.webhook_deliveries (submission_log_id, payload)
  values (v_log_id, jsonb_build_object(
    'event', 'episode.submitted',
    'submissionLogId', v_log_id,
    'episodeId', v_episode_id,
    'originalLogId', null,
    'userId', v_user,
    'userEmail', v_email,
    'postAutomatically', v_post_automatically,
    'objectStorageFiles', to_jsonb(p_files),
    'episodeData', v_params,
    'submittedAt', v_now
  ));

  return jsonb_build_object(
    'id', v_episode_id,
    'title', left(v_title, 500),
    'submittedAt', v_now,
    'submissionLogId', v_log_id
  );
end
$$;
revoke execute on function private.submit_episode(text[], jsonb) from public;
grant execute on function private.submit_episode(text[], jsonb) to authenticated;

-- POST /rest/v1/rpc/submit_episode {files, options}: returns {id, title, submittedAt, submissionLogId}.
create function public.submit_episode(files text[], options jsonb default '{}'::jsonb)
returns jsonb
language sql
set search_path = ''
as $$
  select private.submit_episode(files, options)
$$;
revoke execute on function public.submit_episode(text[], jsonb) from public, anon;
grant execute on function public.submit_episode(text[], jsonb) to authenticated;
