-- Providers and clip styles are SQL enums: the one list of each, which the generated types
-- (database.types.ts, Constants.public.Enums) carry to the domain, the SPA and the functions.
-- They replace the check lists on the columns.

create type public.provider as enum ('google', 'youtube', 'facebook', 'instagram', 'tiktok', 'x', 'linkedin', 'wordpress');
create type public.clip_style as enum ('DEFAULT', 'PROFESSIONAL', 'CREATIVE');

alter table public.oauth_connections
  drop constraint oauth_connections_provider_check,
  alter column provider type public.provider using provider::public.provider;
alter table private.oauth_states
  drop constraint oauth_states_provider_check,
  alter column provider type public.provider using provider::public.provider;
-- Posts go to the social providers: never to the Google Drive one.
alter table public.scheduled_posts
  drop constraint scheduled_posts_provider_check,
  alter column provider type public.provider using provider::public.provider,
  add constraint scheduled_posts_provider_check check (provider <> 'google');
alter table public.episodes
  drop constraint episodes_clip_style_check,
  alter column clip_style drop default,
  alter column clip_style type public.clip_style using clip_style::public.clip_style,
  alter column clip_style set default 'DEFAULT';

-- The SQL twin of the domain's connectionDisplayState takes the provider as the column holds it
-- (an enum argument does not match a text parameter). Body unchanged.
drop function private.connection_display_state(text, boolean, text, boolean, boolean, timestamptz, timestamptz, timestamptz, timestamptz);
create function private.connection_display_state(p_provider public.provider, p_connected boolean, p_status text, p_has_access_token boolean, p_has_refresh_token boolean, p_expires_at timestamp with time zone, p_created_at timestamp with time zone, p_updated_at timestamp with time zone, p_at timestamp with time zone)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_expired boolean := p_expires_at is not null and p_expires_at <= p_at;
  v_recent boolean := p_at - p_updated_at < interval '10 minutes';
  v_age interval := p_at - p_created_at;
begin
  if p_provider is null or not coalesce(p_has_access_token, false)
     or (not coalesce(p_connected, false) and p_provider <> 'instagram') then
    return 'disconnected';
  end if;
  case
    when p_provider = 'instagram' then
      if not p_connected or p_status = 'failed' then return 'failed'; end if;
      if p_status = 'expired' then return 'expired'; end if;
      return 'connected';
    when p_provider = 'facebook' then
      if v_recent then return 'connected'; end if;
      if v_expired then return 'expired'; end if;
      if p_expires_at is null and v_age > interval '60 days' then return 'expired'; end if;
      return 'connected';
    when p_provider = 'wordpress' then
      return 'connected';
    when p_provider in ('google', 'youtube') then
      if not p_has_refresh_token then return 'failed'; end if;
      if v_expired then return 'expired'; end if;
      if v_age > interval '30 days' and not v_recent then return 'failed'; end if;
      return 'connected';
    else
      if v_expired then return 'expired'; end if;
      return 'connected';
  end case;
end
$$;

revoke execute on function private.connection_display_state(public.provider, boolean, text, boolean, boolean, timestamptz, timestamptz, timestamptz, timestamptz) from public;
grant execute on function private.connection_display_state(public.provider, boolean, text, boolean, boolean, timestamptz, timestamptz, timestamptz, timestamptz) to authenticated, service_role;

-- The subscriber's clip styles default to the enum's members instead of a copy of the list.
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

-- As before; the validated clip style is cast to the column's enum (text does not convert on
-- assignment).
create or replace function private.submit_episode(p_files text[], p_options jsonb)
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
          (v_params ->> 'clipStyle')::public.clip_style, (v_params ->> 'daysBetweenClips')::integer, v_now)
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
