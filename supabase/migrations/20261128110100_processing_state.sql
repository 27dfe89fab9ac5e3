-- The worker changes state through SQL functions, as the api does (issue 40, item 4). It wrote 22
-- statements straight into 6 tables; each change is now one function here, tested in
-- tests/db/processing-state.test.ts, and the worker reads a job through one function whose answer
-- it parses (ProcessingJob in _shared/domain-server/processing-job.ts). The episode's options are
-- normalised once, by SQL (private.normalize_episode_options), and the worker reads the result.
-- The OAuth refresh the worker and the functions both run is recorded by one pair of functions.
-- Only servers call these (the worker and the functions connect as the database owner).

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

-- An attempt failed and will be retried: the row says why until the next one starts.
create function private.processing_attempt_failed(p_id uuid, p_reason text)
returns void
language sql
set search_path = ''
as $$
  update public.episode_processing set stage = 'waiting to retry', failure_reason = left(p_reason, 2000)
   where id = p_id and status = 'processing'
$$;

-- Given up: the reason is what the subscriber and the administrators read. True when the row was
-- still under way (a delivered or failed row stays as it is).
create function private.processing_failed(p_id uuid, p_reason text)
returns boolean
language plpgsql
set search_path = ''
as $$
begin
  update public.episode_processing
     set status = 'failed', stage = null, finished_at = now(), failure_reason = left(p_reason, 2000)
   where id = p_id and status in ('queued', 'processing');
  return found;
end
$$;

-- The episode's Drive folder.
create function private.record_drive_folder(p_id uuid, p_folder_id text, p_url text)
returns void
language sql
set search_path = ''
as $$
  update public.episode_processing set drive_folder_id = p_folder_id, drive_folder_url = p_url where id = p_id
$$;

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

-- One delivered file (or one about to be), replacing the output of the same name: the outputs
-- keep the order they were first recorded in.
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
     set outputs = case
           when exists (select 1 from jsonb_array_elements(p.outputs) o where o ->> 'name' = p_output ->> 'name')
             then (select jsonb_agg(case when o ->> 'name' = p_output ->> 'name' then p_output else o end order by ord)
                     from jsonb_array_elements(p.outputs) with ordinality as a (o, ord))
           else p.outputs || jsonb_build_array(p_output)
         end
   where p.id = p_id;
end
$$;

-- ---------------------------------------------------------------- clips

-- The processing's clips as the join names them ([{position, startSeconds, endSeconds,
-- firstSentence?, endSentence?, title, posts, fileName, durationSeconds, width, height}]),
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
                                         first_sentence, end_sentence, title, posts, file_name, duration_seconds, width, height)
  select p_id, v_processing.episode_id, v_processing.user_id, (x ->> 'position')::integer,
         (x ->> 'startSeconds')::numeric, (x ->> 'endSeconds')::numeric,
         (x ->> 'firstSentence')::integer, (x ->> 'endSentence')::integer,
         x ->> 'title', x -> 'posts', x ->> 'fileName',
         coalesce((x ->> 'durationSeconds')::numeric, 0), coalesce((x ->> 'width')::integer, 0), coalesce((x ->> 'height')::integer, 0)
    from jsonb_array_elements(p_clips) x
  on conflict (episode_processing_id, position) do update
     set start_seconds = excluded.start_seconds, end_seconds = excluded.end_seconds,
         first_sentence = excluded.first_sentence, end_sentence = excluded.end_sentence,
         title = excluded.title, posts = excluded.posts, duration_seconds = excluded.duration_seconds,
         width = excluded.width, height = excluded.height, file_name = excluded.file_name,
         drive_file_id = case when c.file_name = excluded.file_name then c.drive_file_id end,
         drive_url = case when c.file_name = excluded.file_name then c.drive_url end;
  return coalesce((select jsonb_agg(jsonb_build_object('id', c.id, 'position', c.position) order by c.position)
                     from public.episode_clips c where c.episode_processing_id = p_id), '[]'::jsonb);
end
$$;

-- The clip's file is in Drive.
create function private.record_clip_file(p_clip_id uuid, p_drive_file_id text, p_drive_url text)
returns void
language sql
set search_path = ''
as $$
  update public.episode_clips set drive_file_id = p_drive_file_id, drive_url = p_drive_url where id = p_clip_id
$$;

-- The platforms the worker posts clips to, in the order a clip goes out: those every subscriber
-- may connect (POSTING_PROVIDERS in _shared/domain/connection-status.ts; tests/db/domain-constants.test.ts
-- holds them equal).
create function private.posting_providers()
returns public.provider[]
language sql
immutable
set search_path = ''
as $$ select array['youtube', 'x', 'linkedin', 'wordpress']::public.provider[] $$;

-- ---------------------------------------------------------------- delivered

-- Every file is in the subscriber's Drive: the submission is delivered, and with
-- postAutomatically each clip is scheduled on every connected platform the worker posts to,
-- clip k (from 1) due (k - 1) * daysBetweenClips days on. One transaction: a delivered row always
-- has its posts.
create function private.processing_delivered(p_id uuid)
returns void
language plpgsql
set search_path = ''
as $$
declare
  v_job jsonb := private.processing_job(p_id);
begin
  if v_job is null then
    raise exception 'processing_not_found' using errcode = 'PT404', detail = 'No such processing.';
  end if;
  if (v_job ->> 'postAutomatically')::boolean then
    insert into public.scheduled_posts (episode_processing_id, user_id, provider, clip_id, scheduled_for)
    select p_id, c.user_id, k.provider, c.id, now() + (c.position - 1) * make_interval(days => (v_job #>> '{options,daysBetweenClips}')::integer)
      from public.episode_clips c
      join public.oauth_connections k on k.user_id = c.user_id and k.connected and k.provider = any (private.posting_providers())
     where c.episode_processing_id = p_id and c.drive_file_id is not null
    on conflict (clip_id, provider) do nothing;
  end if;
  update public.episode_processing
     set status = 'delivered', stage = null, progress = 100, finished_at = now(), failure_reason = null
   where id = p_id;
end
$$;

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

-- The row's current plan when it is p_plan_id (a piece of a replaced plan has nothing to do), else null.
create function private.processing_plan(p_id uuid, p_plan_id uuid)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select plan from private.processing_plans where processing_id = p_id and plan_id = p_plan_id
$$;

create function private.drop_processing_plan(p_id uuid)
returns void
language sql
set search_path = ''
as $$
  delete from private.processing_plans where processing_id = p_id
$$;

-- A piece done; answers {done, total} for its plan (null when the plan is gone). The count runs
-- after the piece's insert commits (a separate call), so the last piece to count sees them all.
create function private.record_piece_done(p_plan_id uuid, p_piece integer)
returns void
language sql
set search_path = ''
as $$
  insert into private.processing_pieces_done (plan_id, piece) values (p_plan_id, p_piece) on conflict do nothing
$$;

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

create function private.processing_enqueued(p_id uuid)
returns void
language sql
set search_path = ''
as $$
  update public.episode_processing set enqueued_at = now() where id = p_id
$$;

-- ---------------------------------------------------------------- posting

-- Up to p_limit due posts, claimed for ten minutes (a worker that dies mid-post leaves the post
-- due again after that), each with its clip's file and texts.
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
  select jsonb_build_object('id', p.id, 'userId', p.user_id, 'provider', p.provider, 'attempts', p.attempts,
                            'clipId', c.id, 'title', c.title, 'posts', c.posts, 'fileName', c.file_name,
                            'driveFileId', c.drive_file_id)
    from claimed p join public.episode_clips c on c.id = p.clip_id
$$;

create function private.post_published(p_post_id uuid, p_external_id text)
returns void
language sql
set search_path = ''
as $$
  update public.scheduled_posts
     set status = 'posted', posted_at = now(), external_id = left(p_external_id, 500), last_error = null, locked_until = null
   where id = p_post_id
$$;

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

-- ---------------------------------------------------------------- OAuth refreshes

-- A refresh the provider answered with new tokens (sealed by the caller): the token row and the
-- connection, in one transaction. created_at is when the current token set was issued
-- (docs/decisions.md), so a connection the daily refresh keeps alive never ages into 'failed'.
create function private.record_token_refresh(p_connection_id uuid, p_access text, p_refresh text, p_key_id text,
                                             p_scope text, p_expires_at timestamptz)
returns void
language plpgsql
set search_path = ''
as $$
begin
  update private.oauth_tokens
     set access_token_encrypted = p_access, refresh_token_encrypted = p_refresh, key_id = p_key_id,
         scope = coalesce(p_scope, scope), refresh_lease_until = null, last_refresh_at = now(), last_refresh_error = null
   where connection_id = p_connection_id;
  update public.oauth_connections set expires_at = p_expires_at, status = 'connected', connected = true, created_at = now()
   where id = p_connection_id;
end
$$;

-- A refresh that failed: with p_grant_gone the grant is gone (revoked, expired) and only
-- reconnecting helps; otherwise the next refresh tries again.
create function private.record_token_refresh_failure(p_connection_id uuid, p_error text, p_grant_gone boolean)
returns void
language plpgsql
set search_path = ''
as $$
begin
  update private.oauth_tokens
     set refresh_token_encrypted = case when p_grant_gone then null else refresh_token_encrypted end,
         refresh_lease_until = null, last_refresh_at = now(), last_refresh_error = left(p_error, 1000)
   where connection_id = p_connection_id;
  if p_grant_gone then
    update public.oauth_connections set status = 'failed' where id = p_connection_id;
  end if;
end
$$;

-- ---------------------------------------------------------------- grants: the servers only
do $$
declare
  v_function regprocedure;
begin
  for v_function in
    select p.oid::regprocedure from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
     where n.nspname = 'private' and p.proname in (
       'processing_job', 'processing_started', 'processing_piece_started', 'processing_progress',
       'processing_attempt_failed', 'processing_failed', 'record_drive_folder', 'record_episode_content',
       'record_output', 'record_episode_clips', 'record_clip_file', 'posting_providers', 'processing_delivered',
       'save_processing_plan', 'processing_plan', 'drop_processing_plan', 'record_piece_done', 'pieces_done',
       'processing_to_enqueue', 'processing_enqueued', 'claim_due_posts', 'post_published', 'post_attempt_failed',
       'record_token_refresh', 'record_token_refresh_failure')
  loop
    execute format('revoke execute on function %s from public, anon, authenticated', v_function);
    execute format('grant execute on function %s to service_role', v_function);
  end loop;
end
$$;
