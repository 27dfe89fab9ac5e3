-- What the processing worker accepts from a subscriber, per plan (docs/decisions.md, "Input
-- caps"): a video's picture size and frame rate, an episode's length, and how long one job may
-- run before the worker stops it. The worker reads them through private.processing_limits(), the
-- one place that decides which plan's caps apply; subscribers read them with the rest of their plan.
alter table public.plans
  add column max_video_pixels integer not null default 8294400 check (max_video_pixels > 0),
  add column max_frame_rate integer not null default 60 check (max_frame_rate > 0),
  add column max_episode_seconds integer not null default 7200 check (max_episode_seconds > 0),
  add column processing_time_limit_seconds integer not null default 14400 check (processing_time_limit_seconds > 0);

comment on column public.plans.max_video_pixels is
  'Largest picture (width x height) the worker accepts in an episode or brand video; 8294400 = 3840x2160.';
comment on column public.plans.max_frame_rate is 'Highest frame rate the worker accepts, frames per second.';
comment on column public.plans.max_episode_seconds is 'Longest episode (all uploaded parts together) the worker accepts.';
comment on column public.plans.processing_time_limit_seconds is
  'One processing attempt is stopped (its ffmpeg killed) and the episode failed after this long.';

-- Every plan takes 4K at up to 60 fps; longer episodes and more processing time on larger plans.
update public.plans set max_episode_seconds = 7200, processing_time_limit_seconds = 14400 where id = 'starter';
update public.plans set max_episode_seconds = 10800, processing_time_limit_seconds = 21600 where id = 'growth';
update public.plans set max_episode_seconds = 14400, processing_time_limit_seconds = 28800 where id = 'scale';
update public.plans set max_episode_seconds = 21600, processing_time_limit_seconds = 43200 where id = 'enterprise';

-- The caps of the subscriber's plan; without a subscription (or its plan) the starter plan's, as
-- for clips per episode.
create function private.processing_limits(p_user_id uuid)
returns table (max_video_pixels integer, max_frame_rate integer, max_episode_seconds integer, processing_time_limit_seconds integer)
language sql
stable
set search_path = ''
as $$
  select pl.max_video_pixels, pl.max_frame_rate, pl.max_episode_seconds, pl.processing_time_limit_seconds
    from public.plans pl
   where pl.id = coalesce((select s.tier from public.subscriptions s join public.plans p on p.id = s.tier where s.user_id = p_user_id), 'starter')
$$;

-- Only the worker (a server role, the function's owner) calls it.
revoke all on function private.processing_limits(uuid) from public, anon, authenticated;
grant execute on function private.processing_limits(uuid) to service_role;
