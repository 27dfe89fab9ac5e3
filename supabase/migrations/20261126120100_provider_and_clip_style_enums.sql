-- Providers and clip styles are SQL enums: the one list of each, which the generated types
-- (database.types.ts, Constants.public.Enums) carry to the domain, the SPA and the functions.
-- They replace the check lists on the columns.

create type public.provider as enum ('google', 'youtube', 'facebook', 'instagram', 'tiktok', 'x', 'linkedin', 'wordpress');
create type public.clip_style as enum ('DEFAULT', 'PROFESSIONAL', 'CREATIVE');
-- A text value stored into one of these columns converts as it did into the text column it was
-- (submit_episode stores the validated style as text); a value outside the enum is refused with
-- 22P02. Comparisons are untouched: `provider = <text>` still needs an explicit cast.
create cast (text as public.provider) with inout as assignment;
create cast (text as public.clip_style) with inout as assignment;

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
