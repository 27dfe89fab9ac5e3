-- This file: episodes, the log of every submission attempt (originals, retries and admin
-- resubmissions) and the outbox of automation-webhook deliveries. Rows are created only by
-- submit_episode(), retry_episode() and resubmit_submission(); users and admins read them through
-- RLS. Also the episode statistics with submission gating, and the dashboard's one stats read.
--
-- A subscriber's month without surprises: an episode uses the month's allowance unless it failed
-- AND nothing of it ever reached the subscriber (no file of any of its processing rows landed in
-- Drive, no post went out), in the month of the subscriber's latest attempt; 'total' counts the
-- episodes delivered. One definition of an episode's outcome (private.episode_outcome) and of its
-- use of the allowance (private.episode_uses_allowance) serves the stats, submit_episode's limit
-- and the retry. An episode's trim times are checked against the video's length before it is
-- accepted: the api reads each file's length from its MP4 header (moov/mvhd) when it checks the
-- file's bytes and records it beside the check (private.checked_episode_files.duration_seconds).

create table public.episodes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  title text not null check (char_length(title) between 1 and 500),
  -- Object paths in bucket `episodes`, each under `<user_id>/`.
  files text[] not null check (cardinality(files) between 1 and 10),
  start_timestamp text check (start_timestamp ~ '^([01]?[0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$'),
  end_timestamp text check (end_timestamp ~ '^([01]?[0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$'),
  add_logo boolean not null default true,
  add_intro_outro boolean not null default true,
  clip_style public.clip_style not null default 'DEFAULT',
  days_between_clips integer not null default 1 check (days_between_clips between 1 and 30),
  submitted_at timestamptz not null default now(),
  -- Seconds of all files together, from their MP4 headers; null when one could not be read (the
  -- worker's own check then fails it, which costs nothing).
  duration_seconds numeric check (duration_seconds > 0),
  -- The subscriber's latest attempt (the submission, or the latest retry): the month it counts in.
  -- The default only keeps the column optional to writers: the insert trigger below sets it.
  last_attempt_at timestamptz not null default now(),
  -- The subscriber gave the title (at submission) or accepted or changed the suggestion.
  title_confirmed boolean not null default false,
  -- The episode's guests, for the words the engines write (issue 42).
  guests text[] not null default '{}' check (cardinality(guests) <= 10)
);
-- The recent-episodes list.
create index episodes_user_id_submitted_at_idx on public.episodes (user_id, submitted_at desc);
-- The month's count per subscriber.
create index episodes_user_id_last_attempt_at_idx on public.episodes (user_id, last_attempt_at);
-- Episode files already handed to processing must stay put until processed (storage rules).
create index episodes_files_idx on public.episodes using gin (files);

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

alter table public.episodes enable row level security;
revoke all on table public.episodes from anon, authenticated;
grant select on table public.episodes to authenticated;
grant select, insert, update, delete on table public.episodes to service_role;

create policy "Users read their own episodes; admins read all"
  on public.episodes for select
  to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

create table public.submission_logs (
  id uuid primary key default gen_random_uuid(),
  episode_id uuid references public.episodes (id) on delete set null,
  user_id uuid references public.profiles (id) on delete set null,
  user_email text not null,
  -- submitted: accepted, delivery pending; delivered: the webhook took it; failed: delivery
  -- gave up; resubmitted: an administrator sent it again (a new log row).
  status text not null default 'submitted' check (status in ('submitted', 'delivered', 'failed', 'resubmitted')),
  object_storage_files text[] not null check (cardinality(object_storage_files) >= 1),
  -- {startTimestamp, endTimestamp, clipStyle, daysBetweenClips, addLogo, addIntroOutro}
  submission_parameters jsonb not null default '{}',
  original_log_id uuid references public.submission_logs (id) on delete set null,
  -- The administrator who resubmitted (null for a user's own submission).
  submitted_by uuid references public.profiles (id) on delete set null,
  submitted_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- An episode's logs newest first (its outcome, a retry's original); it also serves the foreign key.
create index submission_logs_episode_id_submitted_at_idx on public.submission_logs (episode_id, submitted_at desc, id desc);
create index submission_logs_user_id_idx on public.submission_logs (user_id);
create index submission_logs_original_log_id_idx on public.submission_logs (original_log_id);
create index submission_logs_submitted_by_idx on public.submission_logs (submitted_by);
create index submission_logs_submitted_at_idx on public.submission_logs (submitted_at desc);
-- The admin console's pages, newest first: the page after (submitted_at, id).
create index submission_logs_submitted_at_id_idx on public.submission_logs (submitted_at desc, id desc);
-- 'total': delivered episodes per subscriber.
create index submission_logs_user_id_delivered_idx on public.submission_logs (user_id, episode_id) where status = 'delivered';

create trigger submission_logs_set_updated_at
  before update on public.submission_logs
  for each row execute function private.set_updated_at();

alter table public.submission_logs enable row level security;
revoke all on table public.submission_logs from anon, authenticated;
grant select on table public.submission_logs to authenticated;
grant select, insert, update, delete on table public.submission_logs to service_role;

create policy "Users read their own submission logs; admins read all"
  on public.submission_logs for select
  to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

-- Outbox: one row per webhook delivery, retried by the outbox worker (deliver-submissions) until
-- delivered. Admins can see it; nobody else.
create table public.webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  submission_log_id uuid not null references public.submission_logs (id) on delete cascade,
  payload jsonb not null,
  attempts integer not null default 0 check (attempts >= 0),
  next_attempt_at timestamptz not null default now(),
  last_error text,
  last_status integer,
  delivered_at timestamptz,
  -- When the worker gave up (attempts exhausted); the log is then marked failed.
  failed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- When the outbox stood aside because the built-in worker took the submission.
  skipped_at timestamptz
);
create index webhook_deliveries_submission_log_id_idx on public.webhook_deliveries (submission_log_id);
create index webhook_deliveries_due_idx on public.webhook_deliveries (next_attempt_at)
  where delivered_at is null and failed_at is null and skipped_at is null;

create trigger webhook_deliveries_set_updated_at
  before update on public.webhook_deliveries
  for each row execute function private.set_updated_at();

alter table public.webhook_deliveries enable row level security;
revoke all on table public.webhook_deliveries from anon, authenticated;
grant select on table public.webhook_deliveries to authenticated;
grant select, insert, update, delete on table public.webhook_deliveries to service_role;

create policy "Admins read webhook deliveries"
  on public.webhook_deliveries for select
  to authenticated
  using ((select private.is_admin()));

-- Episode files are MP4 on their bytes on every path to submit_episode(). The database cannot
-- read an object's bytes; POST /api/episodes/submit-direct-storage reads the first bytes of each
-- file from Storage and, when they are an MP4's, records here the object at the version it was
-- before the read, with its length from the MP4 header. A subscriber's submission refuses any
-- file without such a record for the object's current version: a direct rpc/submit_episode call
-- skips the byte check and is refused, and a file replaced after its check (Storage gives every
-- write a new `version`) must be checked again. Written only by the functions' direct connection
-- (as postgres), read only by submit_episode() (security definer): no API role sees it. A record
-- stands for its object's version (a double click may submit a checked file twice); records over
-- a day old are removed by the next check.
create table private.checked_episode_files (
  object_id uuid primary key,
  version text,
  checked_at timestamptz not null default now(),
  -- The file's length in seconds from its MP4 header (moov/mvhd); null when it could not be read.
  duration_seconds numeric check (duration_seconds > 0)
);
alter table private.checked_episode_files enable row level security;
create index checked_episode_files_checked_at on private.checked_episode_files (checked_at);
revoke all on table private.checked_episode_files from public, anon, authenticated, service_role;

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

-- Episode statistics and gating for one user at one moment (spec sections 3, 4, 9):
-- limit from the user's plan (default 1, tier starter; null = unlimited), this calendar
-- month's count in UTC (the episodes that use the allowance, by their latest attempt), the
-- total of episodes delivered, and the first block reason in priority order:
--   google_drive_required  the Google Drive connection is disconnected (none, no token, or
--                          flagged not connected)
--   google_drive_invalid   it is expired or failed (its display state)
--   hosting_setup          podcast hosting not ready yet
--   monthly_limit          this month's count has reached the limit
-- canSubmit also needs an active subscription. Runs with the caller's rights (RLS applies).
-- One statement: each statement a PL/pgSQL function runs costs an executor start-up, which
-- outweighs these index lookups.
create function private.episode_stats_for(p_user uuid, p_at timestamptz)
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
  v_extra integer;
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
         (select count(*)::integer
            from public.extra_episodes x
           where x.user_id = u.id and x.month = (v_month_start at time zone 'UTC')::date),
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
    into v_status, v_tier, v_limit, v_extra, v_this_month, v_total, v_drive_state, v_hosting_ready
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
  v_limit := v_limit + v_extra;

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
    'extraEpisodes', v_extra,
    'subscriptionTier', v_tier,
    'canSubmit', v_reason is null and coalesce(v_status = 'active', false),
    'blockReason', v_reason,
    'hostingSetup', v_hosting_ready
  );
end
$$;
revoke execute on function private.episode_stats_for(uuid, timestamptz) from public;
grant execute on function private.episode_stats_for(uuid, timestamptz) to authenticated, service_role;

-- {thisMonth, total, currentCount, limit, subscriptionTier, canSubmit, blockReason,
-- hostingSetup} for the caller.
create function public.episode_stats()
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  v_user uuid := (select auth.uid());
begin
  if v_user is null then
    raise exception 'not_authenticated' using errcode = '42501', detail = 'Sign in to see episode statistics.';
  end if;
  return private.episode_stats_for(v_user, now());
end
$$;
revoke execute on function public.episode_stats() from public, anon;
grant execute on function public.episode_stats() to authenticated, service_role;

-- GET /api/episodes/stats: episode_stats() plus onboardingCompleted, socialConnected (the spec's
-- "Onboarding progress") and hostingSetupStartedAt (null once hosting is ready), so the dashboard
-- needs one round trip.
create function public.dashboard_stats()
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  v_user uuid := auth.uid();
begin
  if v_user is null then
    raise exception 'not_authenticated' using errcode = '42501', detail = 'Sign in to see episode statistics.';
  end if;
  return private.episode_stats_for(v_user, now())
    || (select jsonb_build_object(
                 'onboardingCompleted', coalesce(bool_or(p.onboarding_completed_at is not null), false),
                 'socialConnected', private.social_connected(v_user),
                 'hostingSetupStartedAt', max(p.hosting_setup_started_at) filter (where p.hosting_ready_at is null))
          from public.profiles p
         where p.id = v_user);
end
$$;
revoke execute on function public.dashboard_stats() from public, anon;
grant execute on function public.dashboard_stats() to authenticated, service_role;

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

-- Raises the refusal submit_episode would give p_user at p_at, or nothing: the one definition of
-- the month's room and the gating, for submit_episode (under its lock) and the api's early check.
--
--   SQLSTATE  message                 when
--   PT402     subscription_inactive   no active subscription
--   PT403     <block reason>          google_drive_required, google_drive_invalid, hosting_setup, monthly_limit
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
-- refusal submit_episode would give (42501 not_authenticated without a caller). The api asks
-- before it reads a submission's files from Storage; it decides nothing on its own.
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

-- Normalised episode options {startTimestamp, endTimestamp, addLogo, addIntroOutro,
-- clipStyle, daysBetweenClips} with defaults applied; raises 22023 on invalid input (and
-- invalid_time_range when the end does not follow the start). The subscriber's clip styles are
-- the enum's members.
create function private.normalize_episode_options(p_options jsonb, p_clip_styles text[] default enum_range(null::public.clip_style)::text[], p_max_days integer default 30)
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
revoke execute on function private.normalize_episode_options(jsonb, text[], integer) from public;
grant execute on function private.normalize_episode_options(jsonb, text[], integer) to authenticated, service_role;

-- 1..10 distinct paths of existing objects in bucket `episodes`; when p_owner is given (a
-- subscriber's own submission) each must lie in that user's folder and be checked at its current
-- version (private.checked_episode_files). The object row is locked for share until the
-- submission commits, so an upload replacing it waits and then meets the lock on submitted files.
-- Raises as listed at submit_episode. Needs to read storage.objects regardless of RLS, so only
-- the security definer functions call it.
create function private.check_episode_files(p_files text[], p_owner uuid)
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

-- A list of guest names: trimmed, blanks dropped, at most 10 of at most 100 characters.
create function private.normalize_guests(p_guests jsonb)
returns text[]
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_guests text[];
begin
  if p_guests is null or jsonb_typeof(p_guests) = 'null' then
    return '{}';
  end if;
  if jsonb_typeof(p_guests) <> 'array' or exists (select 1 from jsonb_array_elements(p_guests) g where jsonb_typeof(g) <> 'string') then
    raise exception 'invalid_guests' using errcode = '22023', detail = 'Guests must be a list of names.';
  end if;
  select coalesce(array_agg(trim(g) order by ord), '{}') into v_guests
    from jsonb_array_elements_text(p_guests) with ordinality as x (g, ord)
   where trim(g) <> '';
  if cardinality(v_guests) > 10 or exists (select 1 from unnest(v_guests) g where char_length(g) > 100) then
    raise exception 'invalid_guests' using errcode = '22023', detail = 'At most 10 guests, each name at most 100 characters.';
  end if;
  return v_guests;
end
$$;
revoke execute on function private.normalize_guests(jsonb) from public, anon;
grant execute on function private.normalize_guests(jsonb) to authenticated, service_role;

-- submit_episode(files, options): the only way to create an episode. Validates the options and
-- files, checks the subscription and the gating (require_room_to_submit), checks the start time
-- against the files' recorded lengths, then writes the episode (with their total length), its
-- submission log and the webhook outbox row in one transaction. Every refusal raises
-- (message = a stable reason code, detail = words for people) and writes nothing.
-- The episode's title is the subscriber's (issue 41, item 1): a given title is confirmed and used
-- everywhere (the app, the Drive folder, the file names, the posts, the blog post); without one
-- the worker suggests a title from the words (private.record_suggested_title), and nothing posts
-- before they accept or change it. The guest names are kept for the words the engines write.
--
--   SQLSTATE  message                         when
--   42501     not_authenticated               no signed-in user
--   22023     invalid_options                 options is not a JSON object
--   22023     invalid_start_timestamp         startTimestamp not hh:mm:ss
--   22023     invalid_end_timestamp           endTimestamp not hh:mm:ss
--   22023     invalid_time_range              end not after start
--   22023     invalid_add_logo                addLogo not a boolean
--   22023     invalid_add_intro_outro         addIntroOutro not a boolean
--   22023     invalid_clip_style              clipStyle not DEFAULT|PROFESSIONAL|CREATIVE
--   22023     invalid_days_between_clips      daysBetweenClips not an integer 1-30
--   22023     invalid_title                   title not text of at most 200 characters
--   22023     invalid_guests                  guests not a list of at most 10 names of at most 100 characters
--   22023     no_files / too_many_files       fewer than 1 or more than 10 files
--   22023     duplicate_file                  the same path twice
--   42501     file_not_owned                  a path outside the caller's folder
--   PT404     file_not_found                  no such object in bucket `episodes`
--   PT415     file_not_checked                no byte check recorded for the file's current version
--   22023     start_past_end                  start not at least 1 s before the end of the video
--   PT402     subscription_inactive           subscription not active (HTTP 402 via PostgREST)
--   PT403     google_drive_required | google_drive_invalid | hosting_setup | monthly_limit
create function private.submit_episode(p_files text[], p_options jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user uuid := (select auth.uid());
  v_params jsonb;
  v_title text;
  v_guests text[];
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
     or char_length(v_title) > 200 then
    raise exception 'invalid_title' using errcode = '22023', detail = 'The title must be text of at most 200 characters.';
  end if;
  v_guests := private.normalize_guests(p_options -> 'guests');

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

  insert into public.episodes (user_id, title, title_confirmed, guests, files, start_timestamp, end_timestamp, add_logo,
                               add_intro_outro, clip_style, days_between_clips, submitted_at, duration_seconds)
  values (v_user, coalesce(v_title, regexp_replace(storage.filename(p_files[1]), '\.[^.]*$', '')), v_title is not null, v_guests,
          p_files, v_params ->> 'startTimestamp', v_params ->> 'endTimestamp',
          (v_params ->> 'addLogo')::boolean, (v_params ->> 'addIntroOutro')::boolean,
          v_params ->> 'clipStyle', (v_params ->> 'daysBetweenClips')::integer, v_now, v_duration)
  returning id, title into v_episode_id, v_title;

  v_log_id := private.log_own_submission(v_episode_id, v_user, p_files, v_params, null, v_now);

  return jsonb_build_object(
    'id', v_episode_id,
    'title', v_title,
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

-- The worker's suggestion, while the subscriber has not given or accepted a title.
create function private.record_suggested_title(p_processing_id uuid, p_title text)
returns void
language sql
set search_path = ''
as $$
  update public.episodes e
     set title = left(trim(p_title), 200)
    from public.episode_processing p
   where p.id = p_processing_id and e.id = p.episode_id and not e.title_confirmed and trim(p_title) <> ''
$$;
revoke execute on function private.record_suggested_title(uuid, text) from public, anon, authenticated;
grant execute on function private.record_suggested_title(uuid, text) to service_role;

-- The owner accepts the suggested title or gives another: answers {id, title, titleConfirmed}. A
-- delivered episode follows its new title where nothing is out yet: the blog post's title and
-- heading (before WordPress has it), the clips' posts that name the episode ('From "<title>".'),
-- and the words' files in Drive (written again by the worker). The Drive folder and the files'
-- names keep the title they were made with.
--
--   SQLSTATE  message            when
--   42501     not_authenticated  no caller
--   22023     invalid_title      not text of 1..200 characters
--   PT404     episode_not_found  no such episode of the caller's
create function private.rename_episode(p_episode_id uuid, p_title text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_title text := trim(coalesce(p_title, ''));
  v_old text;
  v_processing public.episode_processing;
  v_from_old text;
  v_from_new text;
begin
  if (select auth.uid()) is null then
    raise exception 'not_authenticated' using errcode = '42501', detail = 'Sign in to rename an episode.';
  end if;
  if char_length(v_title) not between 1 and 200 then
    raise exception 'invalid_title' using errcode = '22023', detail = 'The title must be text of 1 to 200 characters.';
  end if;
  select e.title into v_old from public.episodes e where e.id = p_episode_id and e.user_id = (select auth.uid()) for update;
  if not found then
    raise exception 'episode_not_found' using errcode = 'PT404', detail = 'No such episode.';
  end if;
  update public.episodes set title = v_title, title_confirmed = true where id = p_episode_id;
  select p.* into v_processing from public.episode_processing p where p.episode_id = p_episode_id order by p.created_at desc limit 1;
  if v_old is distinct from v_title and found and v_processing.status = 'delivered' then
    update public.episode_processing
       set content = jsonb_set(jsonb_set(content,
             '{blogPost,title}', to_jsonb(v_title || substr(content #>> '{blogPost,title}', char_length(v_old) + 1))),
             '{blogPost,markdown}', to_jsonb(regexp_replace(content #>> '{blogPost,markdown}', '^# [^\n]*', '# ' || v_title || substr(content #>> '{blogPost,title}', char_length(v_old) + 1))))
     where id = v_processing.id and jsonb_typeof(content -> 'blogPost') = 'object'
       and jsonb_typeof(content #> '{blogPost,wordpress}') is distinct from 'object'
       and starts_with(content #>> '{blogPost,title}', v_old);
    -- The quoted title as it sits inside the posts' JSON text (quotes and backslashes escaped).
    v_from_old := (select substr(x, 2, char_length(x) - 2) from (select to_jsonb('From "' || v_old || '"')::text as x) q);
    v_from_new := (select substr(x, 2, char_length(x) - 2) from (select to_jsonb('From "' || v_title || '"')::text as x) q);
    update public.episode_clips c set posts = replace(c.posts::text, v_from_old, v_from_new)::jsonb
     where c.episode_processing_id = v_processing.id
       and not exists (select 1 from public.scheduled_posts s where s.clip_id = c.id and s.status = 'posted');
    perform private.request_processing(v_processing.id, 'texts');
  end if;
  return jsonb_build_object('id', p_episode_id, 'title', v_title, 'titleConfirmed', true);
end
$$;
revoke execute on function private.rename_episode(uuid, text) from public, anon, service_role;
grant execute on function private.rename_episode(uuid, text) to authenticated;

create function public.rename_episode(p_episode_id uuid, p_title text)
returns jsonb
language sql
set search_path = ''
as $$ select private.rename_episode(p_episode_id, p_title) $$;
revoke execute on function public.rename_episode(uuid, text) from public, anon, service_role;
grant execute on function public.rename_episode(uuid, text) to authenticated;

-- Queues a failed episode of the caller's again: the same files and options, as a new
-- submission log whose original is the latest one. The retry is an attempt of this month: it
-- needs the gating submit_episode needs, the monthly limit counted without this episode; an
-- episode that already uses the allowance (its outputs reached the subscriber) is retried without
-- a new slot and stays in the month it is counted in.
--
--   SQLSTATE  message                 when
--   PT404     episode_not_found       no such episode of the caller's
--   PT409     episode_not_failed      the episode did not fail
--   PT409     episode_failure_permanent  its latest attempt failed for good (issue 43, item 3: a file
--                                        that is no video, a trim that leaves nothing); the detail
--                                        gives the reason and what to do instead
--   PT409     episode_files_missing   its files are no longer stored
--   22023     start_past_end          the start is not at least 1 s before the end
--   PT402     subscription_inactive   no active subscription
--   PT409     monthly_limit           no room left this month
--   PT403     <block reason>          google_drive_required, google_drive_invalid, hosting_setup
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

-- The outbox worker (deliver-submissions, over SUPABASE_DB_URL): takes up to p_limit due
-- deliveries (never a skipped one), leasing each for p_lease so a parallel worker skips it, and
-- counts the attempt. Service only.
create function private.claim_webhook_deliveries(p_limit integer default 10, p_lease interval default '5 minutes')
returns setof public.webhook_deliveries
language sql
set search_path = ''
as $$
  update public.webhook_deliveries d
     set attempts = d.attempts + 1,
         next_attempt_at = now() + p_lease
   where d.id in (
     select w.id from public.webhook_deliveries w
      where w.delivered_at is null and w.failed_at is null and w.skipped_at is null
        and w.next_attempt_at <= now()
      order by w.next_attempt_at
      limit greatest(p_limit, 0)
      for update skip locked
   )
  returning d.*
$$;
revoke execute on function private.claim_webhook_deliveries(integer, interval) from public;
grant execute on function private.claim_webhook_deliveries(integer, interval) to service_role;

-- Records the outcome of one attempt. Success marks the delivery and its log delivered
-- (a resubmission keeps its 'resubmitted' status). Failure schedules a retry after p_retry_in,
-- or, with p_give_up, marks both failed. An unknown delivery is delivery_not_found (PT404).
create function private.record_webhook_attempt(
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

-- What the automation needs besides the outbox payload, for a batch of deliveries: the
-- subscriber's brand kit (asset paths, signed by the worker), the tier's clips per episode and
-- the current postAutomatically setting. Service only.
create function private.webhook_delivery_context(p_delivery_ids uuid[])
returns table (delivery_id uuid, context jsonb)
language sql
stable
set search_path = ''
as $$
  select d.id,
         jsonb_build_object(
           'clipsPerEpisode', coalesce(pl.clips_per_episode, 3),
           'subscriptionTier', coalesce(s.tier, 'starter'),
           'postAutomatically', coalesce(p.post_automatically, (d.payload ->> 'postAutomatically')::boolean, true),
           'brandKit', jsonb_build_object(
             'brandFont', p.brand_font,
             'brandColorPrimary', p.brand_color_primary,
             'brandColorSecondary', p.brand_color_secondary,
             'brandColorTertiary', p.brand_color_tertiary,
             'podcastTitle', p.podcast_title,
             'podcastAuthor', p.podcast_author,
             'podcastLanguage', p.podcast_language,
             'podcastTimezone', p.podcast_timezone
           ),
           'brandAssetPaths', jsonb_strip_nulls(jsonb_build_object(
             'logo', p.logo_path,
             'podcastCover', p.podcast_cover_path,
             'videoIntro', p.video_intro_path,
             'videoOutro', p.video_outro_path,
             'clipIntro', p.clip_intro_path,
             'clipOutro', p.clip_outro_path
           ))
         )
    from public.webhook_deliveries d
    join public.submission_logs l on l.id = d.submission_log_id
    left join public.profiles p on p.id = l.user_id
    left join public.subscriptions s on s.user_id = l.user_id
    left join public.plans pl on pl.id = coalesce(s.tier, 'starter')
   where d.id = any (p_delivery_ids)
$$;
revoke execute on function private.webhook_delivery_context(uuid[]) from public;
grant execute on function private.webhook_delivery_context(uuid[]) to service_role;
