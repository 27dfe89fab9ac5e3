-- This file: built-in processing. Castloop's own worker (worker/) turns each submission into the
-- finished episode and its clips, delivers them to the subscriber's Google Drive and schedules
-- posts.
-- Which automation handles submissions is configuration (private.automation_settings): the
-- built-in worker (default) or the external webhook of the outbox. One automation per
-- submission, never both: the one active when a submission (or resubmission) is logged takes
-- it, in the same transaction. Switching later does not move submissions already taken.
--
-- Flow: a new submission log (submitted or resubmitted) gets an episode_processing row here, by
-- trigger, in the same transaction, and the outbox row written next is created skipped. The
-- worker's feeder moves queued rows into its job queue (pg-boss, a schema the worker installs
-- when it starts, so nothing here depends on it) and records progress and the outcome on the
-- row, which the owner and administrators read.

create table private.automation_settings (
  -- A single row.
  id boolean primary key default true check (id),
  automation text not null default 'builtin' check (automation in ('builtin', 'webhook')),
  updated_at timestamptz not null default now()
);
alter table private.automation_settings enable row level security;
revoke all on table private.automation_settings from public, anon, authenticated;
insert into private.automation_settings default values;

create trigger automation_settings_set_updated_at
  before update on private.automation_settings
  for each row execute function private.set_updated_at();

-- 'builtin' or 'webhook': which automation processes new submissions.
create function private.active_automation()
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select s.automation from private.automation_settings s), 'builtin')
$$;
revoke execute on function private.active_automation() from public;
grant execute on function private.active_automation() to service_role;

create table public.episode_processing (
  id uuid primary key default gen_random_uuid(),
  submission_log_id uuid not null unique references public.submission_logs (id) on delete cascade,
  episode_id uuid references public.episodes (id) on delete set null,
  user_id uuid references public.profiles (id) on delete cascade,
  -- queued: waiting for a worker; processing: a worker has it; delivered: every file is in the
  -- subscriber's Drive (and posts are scheduled); failed: given up, failure_reason says why.
  status text not null default 'queued' check (status in ('queued', 'processing', 'delivered', 'failed')),
  -- What the worker is doing now (downloading, analysing, rendering, uploading, scheduling).
  stage text check (char_length(stage) <= 100),
  progress integer not null default 0 check (progress between 0 and 100),
  attempts integer not null default 0 check (attempts >= 0),
  failure_reason text check (char_length(failure_reason) <= 2000),
  -- The worker (host/pid) that holds or last held the job.
  worker text check (char_length(worker) <= 200),
  -- When the worker's queue took the row (null: not yet).
  enqueued_at timestamptz,
  started_at timestamptz,
  finished_at timestamptz,
  drive_folder_id text,
  drive_folder_url text,
  -- [{name, kind: episode|clip, durationSeconds, width, height, startSeconds, driveFileId}]
  outputs jsonb not null default '[]' check (jsonb_typeof(outputs) = 'array'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- What the worker made from the episode's words: the transcript's text, language and engine,
  -- the show notes, the blog post (and where WordPress has it), and for each part that could not
  -- be made, why. Read by the owner through the row's RLS policy (GET /api/episodes/:id/content);
  -- written only by the worker.
  content jsonb check (content is null or jsonb_typeof(content) = 'object'),
  -- Whether trying again can help (issue 43, item 3): false for a failure a retry may mend (a
  -- platform refusing a request for a moment), true for one it cannot (a file that is no video, a
  -- trim that leaves nothing: ProcessingFailure.permanent). The episode page and the list say
  -- which; retry_episode refuses an episode whose latest attempt failed for good.
  failure_permanent boolean not null default false,
  -- Review before posting (issue 41; 12_review.sql). Posting may start without approval at this
  -- time (null: only with approval, or released).
  review_due_at timestamptz,
  -- Why it waits for approval whatever the window: 'approval' (their setting), 'title' (the title
  -- is only suggested), 'low_confidence' (the transcript may be wrong). Null: the window decides.
  review_hold text check (review_hold in ('approval', 'title', 'low_confidence')),
  -- When posting started (approval, or the window's end).
  released_at timestamptz
);
create index episode_processing_user_id_idx on public.episode_processing (user_id);
create index episode_processing_episode_id_idx on public.episode_processing (episode_id);
create index episode_processing_not_enqueued_idx on public.episode_processing (created_at)
  where enqueued_at is null and status = 'queued';

-- 'total' (episode_stats_for): delivered episodes per subscriber.
create index episode_processing_user_id_delivered_idx on public.episode_processing (user_id, episode_id) where status = 'delivered';
-- The episodes whose review window passes (private.release_due_reviews).
create index episode_processing_review_due_idx on public.episode_processing (review_due_at)
  where review_due_at is not null and released_at is null and review_hold is null;

comment on column public.episode_processing.content is
  'Transcript, show notes, blog post and the reasons for what was not made (EpisodeContent in _shared/domain/episode-content.ts).';

create trigger episode_processing_set_updated_at
  before update on public.episode_processing
  for each row execute function private.set_updated_at();

alter table public.episode_processing enable row level security;
revoke all on table public.episode_processing from anon, authenticated;
grant select on table public.episode_processing to authenticated;
grant select, insert, update, delete on table public.episode_processing to service_role;

create policy "Users read their own episode processing; admins read all"
  on public.episode_processing for select
  to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

-- Clips as records: each clip is a row with an id that posts point at (scheduled_posts.clip_id);
-- the clip's Drive file is on the clip, so a clip rendered again after an edit replaces the file
-- every post not yet out uses. The owner reads their clips through RLS and the episode page
-- (public.episode_page: `clips`). The worker writes them through private.record_episode_clips and
-- private.record_clip_file.
create table public.episode_clips (
  id uuid primary key default gen_random_uuid(),
  episode_processing_id uuid not null references public.episode_processing (id) on delete cascade,
  episode_id uuid references public.episodes (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  -- 1 for the episode's first clip, in the episode's order.
  position integer not null check (position between 1 and 100),
  -- The moment, in seconds of the trimmed episode.
  start_seconds numeric not null check (start_seconds >= 0),
  end_seconds numeric not null,
  -- Chosen from the transcript: the first sentence's index and one past the last.
  first_sentence integer check (first_sentence >= 0),
  end_sentence integer,
  title text not null check (char_length(title) between 1 and 500),
  -- Each platform's post (ClipPosts in _shared/domain/episode-clips.ts).
  posts jsonb not null check (jsonb_typeof(posts) = 'object'),
  -- The rendered file, its name in Drive, and the Drive file once delivered.
  file_name text not null check (char_length(file_name) between 1 and 500),
  duration_seconds numeric not null default 0 check (duration_seconds >= 0),
  width integer not null default 0 check (width >= 0),
  height integer not null default 0 check (height >= 0),
  drive_file_id text check (char_length(drive_file_id) <= 500),
  drive_url text check (char_length(drive_url) <= 2000),
  -- 1 for the first render; each render after an edit adds one.
  render_version integer not null default 1 check (render_version >= 1),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint episode_clips_moment_check check (end_seconds > start_seconds),
  constraint episode_clips_sentences_check check ((first_sentence is null) = (end_sentence is null) and (end_sentence is null or end_sentence > first_sentence)),
  unique (episode_processing_id, position),
  -- The subscriber's review (12_review.sql): a dropped clip is not posted.
  review_state text not null default 'pending' check (review_state in ('pending', 'approved', 'dropped')),
  -- How good the moment is (0..1) and why the worker chose it (issue 42, item 4: it chooses clips
  -- as an editor would, worker/media/clip-selection.ts), in a short sentence the podcaster reads on
  -- the review screen ("A question and its answer; names 'budget' and 'savings'; ends on a
  -- pause."). Clips recorded before have neither. They say why Castloop suggested the moment: a
  -- clip the subscriber moves loses them (private.set_clip_moment).
  score numeric check (score between 0 and 1),
  reason text check (char_length(reason) between 1 and 500)
);
create index episode_clips_user_id_idx on public.episode_clips (user_id);
create index episode_clips_episode_id_idx on public.episode_clips (episode_id);

create trigger episode_clips_set_updated_at
  before update on public.episode_clips
  for each row execute function private.set_updated_at();

alter table public.episode_clips enable row level security;
revoke all on table public.episode_clips from anon, authenticated;
grant select on table public.episode_clips to authenticated;
grant select, insert, update, delete on table public.episode_clips to service_role;

create policy "Users read their own clips"
  on public.episode_clips for select
  to authenticated
  using (user_id = (select auth.uid()));

-- Clip posts scheduled by the worker when the subscriber posts automatically: one clip every
-- daysBetweenClips days per connected platform. The worker posts them when due. A post waits for
-- review ('held', 12_review.sql) before it is scheduled. The blog post is a post too: to
-- WordPress, of kind 'article', without a clip; the full episode goes to YouTube once, of kind
-- 'episode' (issue 42, item 6).
create table public.scheduled_posts (
  id uuid primary key default gen_random_uuid(),
  episode_processing_id uuid not null references public.episode_processing (id) on delete cascade,
  user_id uuid references public.profiles (id) on delete cascade,
  -- Posts go to the social providers: never to the Google Drive one.
  provider public.provider not null check (provider <> 'google'),
  scheduled_for timestamptz not null,
  -- A canceled post stays on the calendar (the subscriber sees what was canceled); the worker's
  -- poster claims only 'scheduled' rows, so it never takes one, nor a 'held' one.
  status text not null default 'scheduled' check (status in ('held', 'scheduled', 'posted', 'failed', 'canceled')),
  attempts integer not null default 0 check (attempts >= 0),
  -- A worker posting it (or waiting to retry) holds it until then.
  locked_until timestamptz,
  external_id text,
  last_error text check (char_length(last_error) <= 2000),
  posted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- The clip it posts (its title, post texts and Drive file are the clip's); none for an article
  -- or the full episode.
  clip_id uuid references public.episode_clips (id) on delete cascade,
  kind text not null default 'clip' check (kind in ('clip', 'article', 'episode')),
  -- An article: published (postAutomatically) or a draft, as released.
  publish boolean not null default true,
  -- A retried job schedules the same post once.
  unique (clip_id, provider),
  constraint scheduled_posts_clip_or_article_check check (
    (kind = 'clip') = (clip_id is not null) and (kind <> 'article' or provider = 'wordpress') and (kind <> 'episode' or provider = 'youtube'))
);
create index scheduled_posts_user_id_idx on public.scheduled_posts (user_id);
-- The calendar reads a processing row's posts.
create index scheduled_posts_episode_processing_id_idx on public.scheduled_posts (episode_processing_id);
create index scheduled_posts_due_idx on public.scheduled_posts (scheduled_for) where status = 'scheduled';
create unique index scheduled_posts_one_article_idx on public.scheduled_posts (episode_processing_id) where kind = 'article';
-- The full episode goes to YouTube once (issue 42, item 6).
create unique index scheduled_posts_one_episode_idx on public.scheduled_posts (episode_processing_id) where kind = 'episode';

create trigger scheduled_posts_set_updated_at
  before update on public.scheduled_posts
  for each row execute function private.set_updated_at();

alter table public.scheduled_posts enable row level security;
revoke all on table public.scheduled_posts from anon, authenticated;
grant select on table public.scheduled_posts to authenticated;
grant select, insert, update, delete on table public.scheduled_posts to service_role;

create policy "Users read their own scheduled posts; admins read all"
  on public.scheduled_posts for select
  to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

-- Every new submission log becomes a processing row when the built-in automation is active;
-- workers listening on channel episode_processing pick it up at once (they also poll).
create function private.queue_episode_processing()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_id uuid;
begin
  if new.status not in ('submitted', 'resubmitted') or private.active_automation() <> 'builtin' then
    return new;
  end if;
  insert into public.episode_processing (submission_log_id, episode_id, user_id)
  values (new.id, new.episode_id, new.user_id)
  on conflict (submission_log_id) do nothing
  returning id into v_id;
  if v_id is not null then
    perform pg_notify('episode_processing', v_id::text);
  end if;
  return new;
end
$$;
revoke execute on function private.queue_episode_processing() from public;

create trigger submission_logs_queue_episode_processing
  after insert on public.submission_logs
  for each row execute function private.queue_episode_processing();

-- The outbox stands aside (skipped_at) when the built-in worker took the submission, so it
-- never posts a submission the worker is processing.
create function private.skip_delivery_taken_by_worker()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.episode_processing p where p.submission_log_id = new.submission_log_id) then
    new.skipped_at := now();
  end if;
  return new;
end
$$;
revoke execute on function private.skip_delivery_taken_by_worker() from public;

create trigger webhook_deliveries_skip_taken_by_worker
  before insert on public.webhook_deliveries
  for each row execute function private.skip_delivery_taken_by_worker();

-- The plan's input caps (public.plans) for the subscriber; without a subscription (or its plan)
-- the starter plan's, as for clips per episode. Only the worker (a server role) calls it.
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
revoke all on function private.processing_limits(uuid) from public, anon, authenticated;
grant execute on function private.processing_limits(uuid) to service_role;

-- One submission's work in pieces any worker takes from the queue (issue 28, worker/pieces.ts):
-- the submission job analyses the episode and writes its plan here with the pieces' jobs (one
-- transaction); each piece's file goes to the private processing-pieces bucket and its row to
-- processing_pieces_done; the piece that finds every row there queues the join, once (its job id
-- is the plan id). Server-only: the worker connects as the database owner; nobody else reads them.
--   processing-pieces:  <processing id>/<plan id>/<piece file>   (video/mp4 or audio/mp4)
-- No size limit of its own: a segment of an episode is smaller than the episode (the project's
-- global upload limit applies).

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('processing-pieces', 'processing-pieces', false, null, array['video/mp4', 'audio/mp4']);

create table private.processing_plans (
  processing_id uuid primary key references public.episode_processing (id) on delete cascade,
  -- The join's job id too; a submission job run again makes a new plan, and the pieces of the
  -- old one see it and stop.
  plan_id uuid not null unique,
  plan jsonb not null,
  pieces integer not null check (pieces > 0),
  created_at timestamptz not null default now()
);
alter table private.processing_plans enable row level security;
revoke all on table private.processing_plans from public, anon, authenticated, service_role;

create table private.processing_pieces_done (
  plan_id uuid not null references private.processing_plans (plan_id) on delete cascade,
  piece integer not null check (piece >= 0),
  done_at timestamptz not null default now(),
  primary key (plan_id, piece)
);
alter table private.processing_pieces_done enable row level security;
revoke all on table private.processing_pieces_done from public, anon, authenticated, service_role;

-- Pieces older than p_age that no plan under way names (its plan is gone, or its submission
-- delivered or failed): `storage-cleanup` deletes them through the Storage API. The join removes
-- a delivered plan's files, but a plan that failed, was replaced by a new attempt, or whose join
-- could not remove them would leave them there for good.
create function private.stale_processing_pieces(p_age interval, p_limit integer)
returns setof text
language sql
stable
security definer
set search_path = ''
as $$
  select o.name
    from storage.objects o
   where o.bucket_id = 'processing-pieces'
     and o.created_at < now() - p_age
     and not exists (
       select 1
         from private.processing_plans p
         join public.episode_processing e on e.id = p.processing_id
        where p.plan_id::text = split_part(o.name, '/', 2)
          and e.status in ('queued', 'processing'))
   order by o.created_at
   limit p_limit
$$;
revoke execute on function private.stale_processing_pieces(interval, integer) from public, anon, authenticated;
grant execute on function private.stale_processing_pieces(interval, integer) to service_role;

-- ---------------------------------------------------------------- the worker's state changes
-- The worker changes state through SQL functions, as the api does: each change is one function
-- here, tested in tests/db/processing-state.test.ts, and the worker reads a job through one
-- function whose answer it parses (ProcessingJob in _shared/domain-server/processing-job.ts). The
-- episode's options are normalised once, by SQL (private.normalize_episode_options), and the
-- worker reads the result. Only servers call these (the worker and the functions connect as the
-- database owner).

-- ---------------------------------------------------------------- reading a job

-- Everything a job of processing row p_id needs, or null when there is no such row.
create function private.processing_job(p_id uuid)
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

-- Audio-only episodes (issue 44, item 3): the worker draws an audiogram for an upload with sound
-- and no picture, with the podcast's artwork on it. The artwork's path (brand-assets bucket) of the
-- processing's subscriber; null without one. The worker's.
create function private.podcast_artwork_path(p_processing_id uuid)
returns text
language sql
stable
set search_path = ''
as $$
  select pr.podcast_cover_path
    from public.episode_processing p
    join public.profiles pr on pr.id = p.user_id
   where p.id = p_processing_id
$$;
revoke execute on function private.podcast_artwork_path(uuid) from public, anon, authenticated;
grant execute on function private.podcast_artwork_path(uuid) to service_role;

-- ---------------------------------------------------------------- the processing row

-- A worker took the submission job: an attempt begins (its progress from 0).
create function private.processing_started(p_id uuid, p_worker text)
returns void
language sql
set search_path = ''
as $$
  update public.episode_processing
     set status = 'processing', stage = 'starting', progress = 0, worker = left(p_worker, 200),
         attempts = attempts + 1, started_at = coalesce(started_at, now()), failure_reason = null
   where id = p_id and status in ('queued', 'processing')
$$;
revoke execute on function private.processing_started(uuid, text) from public, anon, authenticated;
grant execute on function private.processing_started(uuid, text) to service_role;

-- A piece or the join started on p_worker; one run again after its worker was lost (p_retry) is
-- another attempt, as a submission job run again is.
create function private.processing_piece_started(p_id uuid, p_worker text, p_stage text, p_retry boolean)
returns void
language sql
set search_path = ''
as $$
  update public.episode_processing
     set stage = left(p_stage, 100), worker = left(p_worker, 200), attempts = attempts + case when p_retry then 1 else 0 end,
         failure_reason = null
   where id = p_id and status = 'processing'
$$;
revoke execute on function private.processing_piece_started(uuid, text, text, boolean) from public, anon, authenticated;
grant execute on function private.processing_piece_started(uuid, text, text, boolean) to service_role;

-- The stage under way and how far the attempt has come: the figure only rises (the picture's
-- pieces run beside the submission job's later stages).
create function private.processing_progress(p_id uuid, p_stage text, p_progress integer)
returns void
language sql
set search_path = ''
as $$
  update public.episode_processing
     set stage = left(p_stage, 100), progress = greatest(progress, least(100, greatest(0, p_progress)))
   where id = p_id and status = 'processing'
$$;
revoke execute on function private.processing_progress(uuid, text, integer) from public, anon, authenticated;
grant execute on function private.processing_progress(uuid, text, integer) to service_role;

-- An attempt failed and will be retried: the row says why until the next one starts.
create function private.processing_attempt_failed(p_id uuid, p_reason text)
returns void
language sql
set search_path = ''
as $$
  update public.episode_processing set stage = 'waiting to retry', failure_reason = left(p_reason, 2000)
   where id = p_id and status = 'processing'
$$;
revoke execute on function private.processing_attempt_failed(uuid, text) from public, anon, authenticated;
grant execute on function private.processing_attempt_failed(uuid, text) to service_role;

-- Given up: the reason is what the subscriber and the administrators read, and whether trying
-- again can help (p_permanent). True when the row was still under way (a delivered or failed row
-- stays as it is).
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

-- The episode's Drive folder.
create function private.record_drive_folder(p_id uuid, p_folder_id text, p_url text)
returns void
language sql
set search_path = ''
as $$
  update public.episode_processing set drive_folder_id = p_folder_id, drive_folder_url = p_url where id = p_id
$$;
revoke execute on function private.record_drive_folder(uuid, text, text) from public, anon, authenticated;
grant execute on function private.record_drive_folder(uuid, text, text) to service_role;

-- What the worker made from the words (EpisodeContent in _shared/domain/episode-content.ts).
create function private.record_episode_content(p_id uuid, p_content jsonb)
returns void
language plpgsql
set search_path = ''
as $$
begin
  if jsonb_typeof(p_content) is distinct from 'object' then
    raise exception 'invalid_content' using errcode = '22023', detail = 'The content must be an object.';
  end if;
  update public.episode_processing set content = p_content where id = p_id;
end
$$;
revoke execute on function private.record_episode_content(uuid, jsonb) from public, anon, authenticated;
grant execute on function private.record_episode_content(uuid, jsonb) to service_role;

-- One delivered file (or one about to be), replacing the output of the same name. The outputs
-- are kept in the delivery's order whatever order they reach Drive in (the clips' pieces deliver
-- side by side, before the join): the episode, the clips by name (numbered from 01), then the
-- rest in the order first recorded.
create function private.record_output(p_id uuid, p_output jsonb)
returns void
language plpgsql
set search_path = ''
as $$
begin
  if jsonb_typeof(p_output) is distinct from 'object' or jsonb_typeof(p_output -> 'name') is distinct from 'string'
     or jsonb_typeof(p_output -> 'kind') is distinct from 'string' then
    raise exception 'invalid_output' using errcode = '22023', detail = 'An output needs a name and a kind.';
  end if;
  update public.episode_processing p
     set outputs = (
       select coalesce(jsonb_agg(s.o order by case s.o ->> 'kind' when 'episode' then 0 when 'clip' then 1 else 2 end,
                                            case when s.o ->> 'kind' = 'clip' then s.o ->> 'name' end, s.ord), '[]'::jsonb)
         from (select case when a.o ->> 'name' = p_output ->> 'name' then p_output else a.o end as o, a.ord
                 from jsonb_array_elements(p.outputs) with ordinality as a (o, ord)
               union all
               select p_output, jsonb_array_length(p.outputs) + 1
                where not exists (select 1 from jsonb_array_elements(p.outputs) x where x ->> 'name' = p_output ->> 'name')) s)
   where p.id = p_id;
end
$$;
revoke execute on function private.record_output(uuid, jsonb) from public, anon, authenticated;
grant execute on function private.record_output(uuid, jsonb) to service_role;

-- ---------------------------------------------------------------- clips

-- The processing's clips as the join names them ([{position, startSeconds, endSeconds,
-- firstSentence?, endSentence?, score?, reason?, title, posts, fileName, durationSeconds, width,
-- height}]),
-- written or rewritten by position (a retried join finds its clips, with their Drive files
-- kept when their file names did not change); answers [{id, position}].
create function private.record_episode_clips(p_id uuid, p_clips jsonb)
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  v_processing public.episode_processing;
begin
  select * into v_processing from public.episode_processing where id = p_id;
  if not found or v_processing.user_id is null then
    raise exception 'processing_not_found' using errcode = 'PT404', detail = 'No such processing.';
  end if;
  if jsonb_typeof(p_clips) is distinct from 'array' then
    raise exception 'invalid_clips' using errcode = '22023', detail = 'The clips must be an array.';
  end if;
  insert into public.episode_clips as c (episode_processing_id, episode_id, user_id, position, start_seconds, end_seconds,
                                         first_sentence, end_sentence, score, reason, title, posts, file_name, duration_seconds, width, height)
  select p_id, v_processing.episode_id, v_processing.user_id, (x ->> 'position')::integer,
         (x ->> 'startSeconds')::numeric, (x ->> 'endSeconds')::numeric,
         (x ->> 'firstSentence')::integer, (x ->> 'endSentence')::integer,
         (x ->> 'score')::numeric, nullif(x ->> 'reason', ''),
         x ->> 'title', x -> 'posts', x ->> 'fileName',
         coalesce((x ->> 'durationSeconds')::numeric, 0), coalesce((x ->> 'width')::integer, 0), coalesce((x ->> 'height')::integer, 0)
    from jsonb_array_elements(p_clips) x
  on conflict (episode_processing_id, position) do update
     set start_seconds = excluded.start_seconds, end_seconds = excluded.end_seconds,
         first_sentence = excluded.first_sentence, end_sentence = excluded.end_sentence,
         score = excluded.score, reason = excluded.reason,
         title = excluded.title, posts = excluded.posts, duration_seconds = excluded.duration_seconds,
         width = excluded.width, height = excluded.height, file_name = excluded.file_name,
         drive_file_id = case when c.file_name = excluded.file_name then c.drive_file_id end,
         drive_url = case when c.file_name = excluded.file_name then c.drive_url end;
  return coalesce((select jsonb_agg(jsonb_build_object('id', c.id, 'position', c.position) order by c.position)
                     from public.episode_clips c where c.episode_processing_id = p_id), '[]'::jsonb);
end
$$;
revoke execute on function private.record_episode_clips(uuid, jsonb) from public, anon, authenticated;
grant execute on function private.record_episode_clips(uuid, jsonb) to service_role;

-- The clip's file is in Drive.
create function private.record_clip_file(p_clip_id uuid, p_drive_file_id text, p_drive_url text)
returns void
language sql
set search_path = ''
as $$
  update public.episode_clips set drive_file_id = p_drive_file_id, drive_url = p_drive_url where id = p_clip_id
$$;
revoke execute on function private.record_clip_file(uuid, text, text) from public, anon, authenticated;
grant execute on function private.record_clip_file(uuid, text, text) to service_role;

-- The platforms the worker posts clips to, in the order a clip goes out: those every subscriber
-- may connect (POSTING_PROVIDERS in _shared/domain/connection-status.ts; tests/db/domain-constants.test.ts
-- holds them equal).
create function private.posting_providers()
returns public.provider[]
language sql
immutable
set search_path = ''
as $$ select array['youtube', 'x', 'linkedin', 'wordpress']::public.provider[] $$;
revoke execute on function private.posting_providers() from public, anon, authenticated;
grant execute on function private.posting_providers() to service_role;

-- ---------------------------------------------------------------- delivered

-- Every file is in the subscriber's Drive: the submission is delivered, and its posts are held
-- for review (12_review.sql): with postAutomatically each clip on every connected platform the
-- worker posts to (clip k, from 1, due (k - 1) * daysBetweenClips days on until released), the
-- full episode to a connected YouTube (issue 42, item 6, with its chapters), and the blog post to
-- a connected WordPress (published with postAutomatically, else a draft). The window or the hold
-- decides when posting may start; with no window and nothing holding it, at once. One
-- transaction: a delivered row always has its posts.
create function private.processing_delivered(p_id uuid)
returns void
language plpgsql
set search_path = ''
as $$
declare
  v_job jsonb := private.processing_job(p_id);
  v_user uuid;
  v_window text;
  v_hold text;
  v_confidence numeric;
begin
  if v_job is null then
    raise exception 'processing_not_found' using errcode = 'PT404', detail = 'No such processing.';
  end if;
  v_user := (v_job ->> 'userId')::uuid;
  if (v_job ->> 'postAutomatically')::boolean then
    insert into public.scheduled_posts (episode_processing_id, user_id, provider, clip_id, scheduled_for, status)
    select p_id, c.user_id, k.provider, c.id, now() + (c.position - 1) * make_interval(days => (v_job #>> '{options,daysBetweenClips}')::integer), 'held'
      from public.episode_clips c
      join public.oauth_connections k on k.user_id = c.user_id and k.connected and k.provider = any (private.posting_providers())
     where c.episode_processing_id = p_id and c.drive_file_id is not null
    on conflict (clip_id, provider) do nothing;
  end if;
  -- The full episode on YouTube (issue 42, item 6), with its chapters, when posting automatically.
  if (v_job ->> 'postAutomatically')::boolean
     and exists (select 1 from jsonb_array_elements(v_job -> 'outputs') o where o ->> 'kind' = 'episode' and o ->> 'driveFileId' is not null)
     and exists (select 1 from public.oauth_connections k where k.user_id = v_user and k.provider = 'youtube' and k.connected) then
    insert into public.scheduled_posts (episode_processing_id, user_id, provider, kind, scheduled_for, status)
    values (p_id, v_user, 'youtube', 'episode', now(), 'held')
    on conflict do nothing;
  end if;
  if v_job #> '{content,blogPost}' is not null and jsonb_typeof(v_job #> '{content,blogPost}') = 'object'
     and exists (select 1 from public.oauth_connections k where k.user_id = v_user and k.provider = 'wordpress' and k.connected) then
    insert into public.scheduled_posts (episode_processing_id, user_id, provider, kind, publish, scheduled_for, status)
    values (p_id, v_user, 'wordpress', 'article', (v_job ->> 'postAutomatically')::boolean, now(), 'held')
    on conflict do nothing;
  end if;

  select p.review_window into v_window from public.profiles p where p.id = v_user;
  select t.confidence into v_confidence from public.episode_transcripts t where t.episode_processing_id = p_id;
  v_hold := case
    when v_window = 'approval' then 'approval'
    when not (v_job ->> 'titleConfirmed')::boolean then 'title'
    when v_confidence < private.low_transcript_confidence() then 'low_confidence'
  end;
  update public.episode_processing
     set status = 'delivered', stage = null, progress = 100, finished_at = now(), failure_reason = null,
         review_hold = v_hold,
         review_due_at = case when v_hold is null then now() + case coalesce(v_window, '24h') when 'none' then interval '0' when '12h' then interval '12 hours' else interval '24 hours' end end
   where id = p_id;
  if v_hold is null and coalesce(v_window, '24h') = 'none' then
    perform private.release_episode(p_id, now());
  end if;
end
$$;
revoke execute on function private.processing_delivered(uuid) from public, anon, authenticated;
grant execute on function private.processing_delivered(uuid) to service_role;

-- ---------------------------------------------------------------- the plan and its pieces

-- The submission's plan (replacing an earlier one of the same row) and how many pieces it counts.
create function private.save_processing_plan(p_id uuid, p_plan_id uuid, p_plan jsonb, p_pieces integer)
returns void
language sql
set search_path = ''
as $$
  insert into private.processing_plans (processing_id, plan_id, plan, pieces) values (p_id, p_plan_id, p_plan, p_pieces)
  on conflict (processing_id) do update set plan_id = excluded.plan_id, plan = excluded.plan, pieces = excluded.pieces, created_at = now()
$$;
revoke execute on function private.save_processing_plan(uuid, uuid, jsonb, integer) from public, anon, authenticated;
grant execute on function private.save_processing_plan(uuid, uuid, jsonb, integer) to service_role;

-- The row's current plan when it is p_plan_id (a piece of a replaced plan has nothing to do), else null.
create function private.processing_plan(p_id uuid, p_plan_id uuid)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select plan from private.processing_plans where processing_id = p_id and plan_id = p_plan_id
$$;
revoke execute on function private.processing_plan(uuid, uuid) from public, anon, authenticated;
grant execute on function private.processing_plan(uuid, uuid) to service_role;

create function private.drop_processing_plan(p_id uuid)
returns void
language sql
set search_path = ''
as $$
  delete from private.processing_plans where processing_id = p_id
$$;
revoke execute on function private.drop_processing_plan(uuid) from public, anon, authenticated;
grant execute on function private.drop_processing_plan(uuid) to service_role;

-- A piece done; answers {done, total} for its plan (null when the plan is gone). The count runs
-- after the piece's insert commits (a separate call), so the last piece to count sees them all.
create function private.record_piece_done(p_plan_id uuid, p_piece integer)
returns void
language sql
set search_path = ''
as $$
  insert into private.processing_pieces_done (plan_id, piece) values (p_plan_id, p_piece) on conflict do nothing
$$;
revoke execute on function private.record_piece_done(uuid, integer) from public, anon, authenticated;
grant execute on function private.record_piece_done(uuid, integer) to service_role;

create function private.pieces_done(p_plan_id uuid)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
           'done', (select count(*) from private.processing_pieces_done d where d.plan_id = p.plan_id),
           'total', p.pieces)
    from private.processing_plans p where p.plan_id = p_plan_id
$$;
revoke execute on function private.pieces_done(uuid) from public, anon, authenticated;
grant execute on function private.pieces_done(uuid) to service_role;

-- Nothing thrown away (issue 43, item 2). A retry plans the episode again; each piece whose inputs
-- are the same as a piece an earlier attempt of the same episode rendered (its fingerprint: a hash
-- of everything the piece's file depends on, worker/pipeline/plan.ts pieceFingerprint) is copied
-- from that attempt's file instead of rendered again, as long as the file is still in the
-- processing-pieces bucket (the sweep keeps a failed attempt's pieces for
-- ORPHAN_PIECE_RETENTION_HOURS). Server-only: the worker records and asks.
create table private.processing_piece_results (
  episode_id uuid not null references public.episodes (id) on delete cascade,
  fingerprint text not null check (fingerprint ~ '^[0-9a-f]{64}$'),
  processing_id uuid not null references public.episode_processing (id) on delete cascade,
  -- In the processing-pieces bucket.
  object_path text not null check (char_length(object_path) <= 1024),
  -- Copied from an earlier attempt's file rather than rendered.
  reused boolean not null default false,
  created_at timestamptz not null default now(),
  primary key (episode_id, fingerprint)
);
create index processing_piece_results_processing_id_idx on private.processing_piece_results (processing_id);
alter table private.processing_piece_results enable row level security;
revoke all on table private.processing_piece_results from public, anon, authenticated, service_role;

-- A piece rendered for processing p_processing_id, stored at p_object_path: the latest one of its
-- fingerprint for the episode.
create function private.record_piece_result(p_processing_id uuid, p_fingerprint text, p_object_path text, p_reused boolean)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into private.processing_piece_results (episode_id, fingerprint, processing_id, object_path, reused)
  select p.episode_id, p_fingerprint, p.id, p_object_path, p_reused
    from public.episode_processing p
   where p.id = p_processing_id and p.episode_id is not null
  on conflict (episode_id, fingerprint) do update
    set processing_id = excluded.processing_id, object_path = excluded.object_path, reused = excluded.reused, created_at = now()
$$;
revoke execute on function private.record_piece_result(uuid, text, text, boolean) from public, anon, authenticated;
grant execute on function private.record_piece_result(uuid, text, text, boolean) to service_role;

-- The stored file of an earlier attempt's piece with this fingerprint, still in the bucket; null
-- when there is none (then the piece is rendered).
create function private.reusable_piece(p_processing_id uuid, p_fingerprint text)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select r.object_path
    from public.episode_processing p
    join private.processing_piece_results r on r.episode_id = p.episode_id and r.fingerprint = p_fingerprint
   where p.id = p_processing_id and r.processing_id <> p.id
     and exists (select 1 from storage.objects o where o.bucket_id = 'processing-pieces' and o.name = r.object_path)
$$;
revoke execute on function private.reusable_piece(uuid, text) from public, anon, authenticated;
grant execute on function private.reusable_piece(uuid, text) to service_role;

-- ---------------------------------------------------------------- the feeder

-- Queued rows not yet in the worker's queue, oldest first, locked for the caller's transaction
-- (skip locked: two feeders never take the same row), with the plan's time limit and how many
-- jobs of the same subscriber are already in the queue.
create function private.processing_to_enqueue(p_limit integer)
returns table (id uuid, user_id uuid, time_limit_seconds integer, enqueued_before integer)
language sql
set search_path = ''
as $$
  select p.id, p.user_id, lim.processing_time_limit_seconds,
         (select count(*)::integer from public.episode_processing q
           where q.user_id = p.user_id and q.enqueued_at is not null and q.status in ('queued', 'processing'))
    from public.episode_processing p
    left join lateral private.processing_limits(p.user_id) lim on true
   where p.enqueued_at is null and p.status = 'queued'
   order by p.created_at
   limit p_limit
     for update of p skip locked
$$;
revoke execute on function private.processing_to_enqueue(integer) from public, anon, authenticated;
grant execute on function private.processing_to_enqueue(integer) to service_role;

create function private.processing_enqueued(p_id uuid)
returns void
language sql
set search_path = ''
as $$
  update public.episode_processing set enqueued_at = now() where id = p_id
$$;
revoke execute on function private.processing_enqueued(uuid) from public, anon, authenticated;
grant execute on function private.processing_enqueued(uuid) to service_role;

-- ---------------------------------------------------------------- posting

-- Up to p_limit due posts, claimed for ten minutes (a worker that dies mid-post leaves the post
-- due again after that), each with its clip's file and texts (and its processing, for the
-- episode's public link); the full episode with its title, show notes and Drive file; an article
-- with the episode's blog post (its title and Markdown) and whether it is published or a draft.
create function private.claim_due_posts(p_limit integer)
returns setof jsonb
language sql
set search_path = ''
as $$
  with claimed as (
    update public.scheduled_posts p
       set attempts = p.attempts + 1, locked_until = now() + interval '10 minutes'
     where p.id in (select s.id from public.scheduled_posts s
                     where s.status = 'scheduled' and s.scheduled_for <= now()
                       and (s.locked_until is null or s.locked_until <= now())
                     order by s.scheduled_for limit p_limit for update skip locked)
    returning p.*
  )
  select case p.kind
    when 'clip' then jsonb_build_object('kind', 'clip', 'id', p.id, 'userId', p.user_id, 'provider', p.provider, 'attempts', p.attempts,
                                        'clipId', c.id, 'episodeProcessingId', p.episode_processing_id, 'title', c.title, 'posts', c.posts, 'fileName', c.file_name,
                                        'driveFileId', c.drive_file_id)
    when 'episode' then jsonb_build_object('kind', 'episode', 'id', p.id, 'userId', p.user_id, 'provider', p.provider, 'attempts', p.attempts,
                                           'title', ep.title, 'showNotes', e.content -> 'showNotes',
                                           'driveFileId', (select o ->> 'driveFileId' from jsonb_array_elements(e.outputs) o where o ->> 'kind' = 'episode' limit 1))
    else jsonb_build_object('kind', 'article', 'id', p.id, 'userId', p.user_id, 'provider', p.provider, 'attempts', p.attempts,
                            'episodeProcessingId', p.episode_processing_id, 'publish', p.publish,
                            'title', e.content #>> '{blogPost,title}', 'markdown', e.content #>> '{blogPost,markdown}',
                            'episodeDriveFileId', (select o ->> 'driveFileId' from jsonb_array_elements(e.outputs) o where o ->> 'kind' = 'episode' limit 1))
  end
    from claimed p
    left join public.episode_clips c on c.id = p.clip_id
    left join public.episode_processing e on e.id = p.episode_processing_id
    left join public.episodes ep on ep.id = e.episode_id
$$;
revoke execute on function private.claim_due_posts(integer) from public, anon, authenticated;
grant execute on function private.claim_due_posts(integer) to service_role;

-- A claimed blog post, or a clip's post on X or LinkedIn (each ends with a link to the full
-- episode: worker/content/platform-text.ts), waits while its full episode is still going to
-- YouTube, so it links to the video; asked again in 20 seconds. Answers whether it waits; its
-- claim's attempt is given back.
create function private.post_waits_for_video(p_post_id uuid)
returns boolean
language plpgsql
set search_path = ''
as $$
begin
  update public.scheduled_posts a
     set scheduled_for = now() + interval '20 seconds', locked_until = null, attempts = greatest(a.attempts - 1, 0)
   where a.id = p_post_id and (a.kind = 'article' or (a.kind = 'clip' and a.provider in ('x', 'linkedin')))
     and exists (select 1 from public.scheduled_posts v
                  where v.episode_processing_id = a.episode_processing_id and v.kind = 'episode' and v.status = 'scheduled');
  return found;
end
$$;
revoke execute on function private.post_waits_for_video(uuid) from public, anon, authenticated;
grant execute on function private.post_waits_for_video(uuid) to service_role;

-- The blog post is on WordPress: the post and the episode's content say where.
create function private.article_published(p_post_id uuid, p_wordpress_post_id bigint, p_link text)
returns void
language plpgsql
set search_path = ''
as $$
declare
  v_post public.scheduled_posts;
begin
  update public.scheduled_posts
     set status = 'posted', posted_at = now(), external_id = p_wordpress_post_id::text, last_error = null, locked_until = null
   where id = p_post_id and kind = 'article'
  returning * into v_post;
  if found then
    update public.episode_processing
       set content = jsonb_set(content, '{blogPost,wordpress}', jsonb_build_object(
             'postId', p_wordpress_post_id, 'link', p_link, 'status', case when v_post.publish then 'publish' else 'draft' end))
     where id = v_post.episode_processing_id and jsonb_typeof(content -> 'blogPost') = 'object';
  end if;
end
$$;
revoke execute on function private.article_published(uuid, bigint, text) from public, anon, authenticated;
grant execute on function private.article_published(uuid, bigint, text) to service_role;

-- Where anyone can watch or hear the episode (issue 42, item 6): its YouTube upload once out,
-- else its sound in the public podcast-feeds bucket (a path the worker turns into the bucket's
-- public address); null when neither exists. Never a Drive file: those are private.
create function private.public_episode_link(p_processing_id uuid)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select coalesce(
    (select jsonb_build_object('youtubeVideoId', s.external_id) from public.scheduled_posts s
      where s.episode_processing_id = p_processing_id and s.kind = 'episode' and s.status = 'posted' and s.external_id is not null),
    (select jsonb_build_object('audioPath', f.audio_path) from public.podcast_episode_files f where f.episode_processing_id = p_processing_id))
$$;
revoke execute on function private.public_episode_link(uuid) from public, anon, authenticated;
grant execute on function private.public_episode_link(uuid) to service_role;

create function private.post_published(p_post_id uuid, p_external_id text)
returns void
language sql
set search_path = ''
as $$
  update public.scheduled_posts
     set status = 'posted', posted_at = now(), external_id = left(p_external_id, 500), last_error = null, locked_until = null
   where id = p_post_id
$$;
revoke execute on function private.post_published(uuid, text) from public, anon, authenticated;
grant execute on function private.post_published(uuid, text) to service_role;

-- A failed try: given up (failed), or due again after p_retry_seconds times its attempts.
create function private.post_attempt_failed(p_post_id uuid, p_error text, p_give_up boolean, p_retry_seconds double precision)
returns void
language sql
set search_path = ''
as $$
  update public.scheduled_posts
     set status = case when p_give_up then 'failed' else status end, last_error = left(p_error, 2000),
         locked_until = case when p_give_up then null else now() + make_interval(secs => p_retry_seconds * attempts) end
   where id = p_post_id
$$;
revoke execute on function private.post_attempt_failed(uuid, text, boolean, double precision) from public, anon, authenticated;
grant execute on function private.post_attempt_failed(uuid, text, boolean, double precision) to service_role;
