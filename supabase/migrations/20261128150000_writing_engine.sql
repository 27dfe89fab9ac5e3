-- The writing engine (issue 42, items 1 and 2; docs/decisions.md "The writing engine").
--
-- private.processing_job answers the profile's podcast details too (its title, description,
-- author and keywords), which the writing engine writes with and the transcription engine that
-- can take a vocabulary hears the names with. Otherwise as in 20261128110100_processing_state.sql.
--
-- private.writing_usage: what each episode's writing cost, one row per time the worker wrote an
-- episode's texts (a retried submission writes again): the engine, its requests, the tokens it
-- used and their price from the worker's settings, and whether the offline engine had to take
-- over. Server-only: operators read it with SQL (docs/operations.md).

create or replace function private.processing_job(p_id uuid)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'id', p.id,
    'status', p.status,
    'userId', p.user_id,
    'episodeId', coalesce(p.episode_id, l.episode_id),
    'submissionLogId', p.submission_log_id,
    'title', coalesce(e.title, 'Episode'),
    -- The subscriber gave or accepted the title (else the worker may suggest one), and the guests.
    'titleConfirmed', coalesce(e.title_confirmed, false),
    'guests', to_jsonb(coalesce(e.guests, '{}')),
    'files', to_jsonb(l.object_storage_files),
    -- The attempt's own options (a resubmission's may differ from the episode's), normalised here,
    -- with every style an administrator may choose.
    'options', private.normalize_episode_options(l.submission_parameters,
                 array['DEFAULT', 'PROFESSIONAL', 'CREATIVE', 'PORTRAIT', 'LANDSCAPE'], 365),
    'clipsPerEpisode', coalesce(pl.clips_per_episode, (select d.clips_per_episode from public.plans d where d.id = 'starter'), 3),
    'postAutomatically', coalesce(pr.post_automatically, true),
    'brand', jsonb_build_object(
      'font', pr.brand_font,
      'primary', pr.brand_color_primary,
      'secondary', pr.brand_color_secondary,
      'tertiary', pr.brand_color_tertiary,
      'logoPath', pr.logo_path,
      'videoIntroPath', pr.video_intro_path,
      'videoOutroPath', pr.video_outro_path,
      'clipIntroPath', pr.clip_intro_path,
      'clipOutroPath', pr.clip_outro_path),
    -- What the writing engine writes with: the show's own words about itself (blank is null).
    'podcast', jsonb_build_object(
      'title', nullif(trim(pr.podcast_title), ''),
      'description', nullif(trim(pr.podcast_description), ''),
      'author', nullif(trim(pr.podcast_author), ''),
      'keywords', nullif(trim(pr.podcast_keywords), '')),
    'limits', jsonb_build_object(
      'maxVideoPixels', lim.max_video_pixels,
      'maxFrameRate', lim.max_frame_rate,
      'maxEpisodeSeconds', lim.max_episode_seconds,
      'timeLimitSeconds', lim.processing_time_limit_seconds),
    'driveFolderId', p.drive_folder_id,
    'outputs', p.outputs,
    'submittedAt', l.submitted_at,
    'language', coalesce(pr.podcast_language, 'en'),
    'content', p.content)
    from public.episode_processing p
    join public.submission_logs l on l.id = p.submission_log_id
    left join lateral private.processing_limits(p.user_id) lim on true
    left join public.episodes e on e.id = coalesce(p.episode_id, l.episode_id)
    left join public.profiles pr on pr.id = p.user_id
    left join public.subscriptions s on s.user_id = p.user_id
    left join public.plans pl on pl.id = s.tier
   where p.id = p_id
$$;
revoke execute on function private.processing_job(uuid) from public, anon, authenticated;
grant execute on function private.processing_job(uuid) to service_role;

create table private.writing_usage (
  id uuid primary key default gen_random_uuid(),
  episode_processing_id uuid not null references public.episode_processing (id) on delete cascade,
  -- `extractive`, or `openai <model>`.
  engine text not null check (char_length(engine) between 1 and 200),
  requests integer not null check (requests >= 0),
  prompt_tokens integer not null check (prompt_tokens >= 0),
  completion_tokens integer not null check (completion_tokens >= 0),
  -- US dollars, at the worker's configured prices per million tokens.
  cost_usd numeric(12, 6) not null check (cost_usd >= 0),
  -- The configured engine could not answer and the offline one wrote the texts.
  fell_back boolean not null,
  created_at timestamptz not null default now()
);
create index writing_usage_episode_processing_id_idx on private.writing_usage (episode_processing_id);
alter table private.writing_usage enable row level security;
revoke all on table private.writing_usage from public, anon, authenticated, service_role;

-- One writing of an episode's texts: {engine, requests, promptTokens, completionTokens, costUsd, fellBack}.
create function private.record_writing_usage(p_processing_id uuid, p_usage jsonb)
returns void
language plpgsql
set search_path = ''
as $$
begin
  if jsonb_typeof(p_usage) is distinct from 'object' or jsonb_typeof(p_usage -> 'engine') is distinct from 'string'
     or jsonb_typeof(p_usage -> 'requests') is distinct from 'number' or jsonb_typeof(p_usage -> 'promptTokens') is distinct from 'number'
     or jsonb_typeof(p_usage -> 'completionTokens') is distinct from 'number' or jsonb_typeof(p_usage -> 'costUsd') is distinct from 'number'
     or jsonb_typeof(p_usage -> 'fellBack') is distinct from 'boolean' then
    raise exception 'invalid_usage' using errcode = '22023',
      detail = 'The usage needs engine, requests, promptTokens, completionTokens, costUsd and fellBack.';
  end if;
  insert into private.writing_usage (episode_processing_id, engine, requests, prompt_tokens, completion_tokens, cost_usd, fell_back)
  values (p_processing_id, p_usage ->> 'engine', (p_usage ->> 'requests')::integer, (p_usage ->> 'promptTokens')::integer,
          (p_usage ->> 'completionTokens')::integer, round((p_usage ->> 'costUsd')::numeric, 6), (p_usage ->> 'fellBack')::boolean);
end
$$;
revoke execute on function private.record_writing_usage(uuid, jsonb) from public, anon, authenticated;
grant execute on function private.record_writing_usage(uuid, jsonb) to service_role;
