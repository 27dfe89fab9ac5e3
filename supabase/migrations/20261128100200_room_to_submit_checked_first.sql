-- The month's room and the gating are checked before the api reads a submission's files (issue
-- 39, item 7: up to 65 ranged Storage reads per file came before the monthly limit refused the
-- request). One definition of the check, private.require_room_to_submit, serves submit_episode
-- and the api's early check (public.check_episode_submission); submit_episode still runs it under
-- its lock, so the early check decides nothing on its own.
--
--   SQLSTATE  message                 when
--   42501     not_authenticated       no caller
--   PT402     subscription_inactive   no active subscription
--   PT403     <block reason>          google_drive_required, google_drive_invalid, hosting_setup, monthly_limit

-- Raises the refusal submit_episode would give p_user at p_at, or nothing.
create function private.require_room_to_submit(p_user uuid, p_at timestamptz)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_status text;
  v_reason text;
begin
  select s.status into v_status from public.subscriptions s where s.user_id = p_user;
  if v_status is distinct from 'active' then
    raise exception 'subscription_inactive' using errcode = 'PT402', detail = 'An active subscription is required to submit episodes.';
  end if;
  v_reason := private.episode_stats_for(p_user, p_at) ->> 'blockReason';
  if v_reason is not null then
    raise exception '%', v_reason using errcode = 'PT403', detail = private.block_reason_detail(v_reason);
  end if;
end
$$;
revoke execute on function private.require_room_to_submit(uuid, timestamptz) from public, anon, authenticated, service_role;

-- POST /rest/v1/rpc/check_episode_submission: nothing when the caller may submit now, else the
-- refusal submit_episode would give.
create function private.check_episode_submission()
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if (select auth.uid()) is null then
    raise exception 'not_authenticated' using errcode = '42501', detail = 'Sign in to submit an episode.';
  end if;
  perform private.require_room_to_submit((select auth.uid()), now());
end
$$;
revoke execute on function private.check_episode_submission() from public, anon, service_role;
grant execute on function private.check_episode_submission() to authenticated;

create function public.check_episode_submission()
returns void
language sql
stable
set search_path = ''
as $$ select private.check_episode_submission() $$;
revoke execute on function public.check_episode_submission() from public, anon, service_role;
grant execute on function public.check_episode_submission() to authenticated;

-- As in 20261126160000_allowance_counts_what_processing_kept.sql, with the gating in
-- private.require_room_to_submit.
create or replace function private.submit_episode(p_files text[], p_options jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user uuid := (select auth.uid());
  v_params jsonb;
  v_title text;
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

  perform private.require_room_to_submit(v_user, v_now);

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
