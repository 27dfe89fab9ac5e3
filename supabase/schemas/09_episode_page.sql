-- This file: the episode page. One read of an episode with its latest processing, its clips and
-- its posting calendar, and the subscriber's three changes to a pending post (postpone, cancel,
-- post now). Who may change what is decided here, not in the api: only the owner, only a post
-- that is still waiting (status 'scheduled') and that no worker holds right now.

-- A clip as the episode page shows it (EpisodeClip in _shared/domain/episode-clips.ts), with its
-- review state, and the score and reason of the moment Castloop suggested.
create function private.episode_clip_json(c public.episode_clips)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'id', c.id, 'position', c.position, 'startSeconds', c.start_seconds, 'endSeconds', c.end_seconds,
    'firstSentence', c.first_sentence, 'endSentence', c.end_sentence,
    'title', c.title, 'posts', c.posts, 'fileName', c.file_name, 'durationSeconds', c.duration_seconds,
    'width', c.width, 'height', c.height, 'driveFileId', c.drive_file_id, 'driveUrl', c.drive_url,
    'renderVersion', c.render_version, 'reviewState', c.review_state, 'score', c.score, 'reason', c.reason)
$$;
revoke execute on function private.episode_clip_json(public.episode_clips) from public, anon;
grant execute on function private.episode_clip_json(public.episode_clips) to authenticated, service_role;

-- A post as the episode page shows it, with its kind and its clip's id, title and file name (a
-- blog post or the full episode has no clip); `changeable`: the owner may postpone, cancel or
-- post it now.
create function private.scheduled_post_json(p public.scheduled_posts)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'id', p.id, 'provider', p.provider, 'kind', p.kind, 'clipId', p.clip_id, 'clipName', c.file_name, 'clipTitle', c.title,
    'scheduledFor', p.scheduled_for, 'status', p.status, 'postedAt', p.posted_at, 'lastError', p.last_error,
    'attempts', p.attempts, 'externalId', p.external_id,
    'changeable', p.status = 'scheduled' and (p.locked_until is null or p.locked_until <= now()))
    from (select 1) one
    left join public.episode_clips c on c.id = p.clip_id
$$;
revoke execute on function private.scheduled_post_json(public.scheduled_posts) from public, anon;
grant execute on function private.scheduled_post_json(public.scheduled_posts) to authenticated, service_role;

-- The caller's own episode (never another's, not even for an admin: the page is the owner's),
-- read as the caller so RLS applies too; null when there is none. With the title's state and the
-- guests, whether a failure is permanent, the review (why it waits, until when, since when it
-- posts, the owner's edits under way), the transcript's version and confidence, and the calendar
-- by kind (the full episode, the clips in their order, then the blog post).
create function public.episode_page(p_episode_id uuid)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'id', e.id, 'title', e.title, 'titleConfirmed', e.title_confirmed, 'guests', to_jsonb(e.guests), 'submittedAt', e.submitted_at,
    'processing', (
      select jsonb_build_object(
        'id', p.id, 'status', p.status, 'stage', p.stage, 'progress', p.progress,
        'failureReason', p.failure_reason, 'failurePermanent', p.failure_permanent, 'updatedAt', p.updated_at, 'startedAt', p.started_at,
        'finishedAt', p.finished_at, 'driveFolderUrl', p.drive_folder_url, 'outputs', p.outputs,
        'review', jsonb_build_object('hold', p.review_hold, 'dueAt', p.review_due_at, 'releasedAt', p.released_at,
                                     'transcriptVersion', t.version, 'transcriptConfidence', t.confidence,
                                     'timeZone', pr.podcast_timezone, 'postingHour', pr.posting_hour,
                                     'postAutomatically', pr.post_automatically,
                                     'edits', private.pending_edits(p.id)),
        'clips', coalesce((select jsonb_agg(private.episode_clip_json(c) order by c.position)
                             from public.episode_clips c
                            where c.episode_processing_id = p.id and c.user_id = (select auth.uid())), '[]'::jsonb),
        'posts', coalesce((select jsonb_agg(private.scheduled_post_json(s) order by s.kind desc, c.position, s.scheduled_for, s.provider)
                             from public.scheduled_posts s
                             left join public.episode_clips c on c.id = s.clip_id
                            where s.episode_processing_id = p.id and s.user_id = (select auth.uid())), '[]'::jsonb))
        from public.episode_processing p
        join public.profiles pr on pr.id = p.user_id
        left join public.episode_transcripts t on t.episode_processing_id = p.id
       where p.episode_id = e.id and p.user_id = (select auth.uid())
       order by p.created_at desc
       limit 1))
    from public.episodes e
   where e.id = p_episode_id and e.user_id = (select auth.uid())
$$;
revoke execute on function public.episode_page(uuid) from public, anon;
grant execute on function public.episode_page(uuid) to authenticated;

-- One change to one pending post of the caller's: 'postpone' to p_scheduled_for (in the future,
-- within a year), 'cancel', or 'post_now' (due at once: the worker's poster takes it on its next
-- round, within seconds). The row is locked first, so a worker claiming it (skip locked) and this
-- change never interleave; a post a worker holds (being posted, or waiting to retry) is refused.
create function private.change_scheduled_post(p_post_id uuid, p_action text, p_scheduled_for timestamptz default null)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_post public.scheduled_posts;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  select * into v_post from public.scheduled_posts where id = p_post_id and user_id = v_uid for update;
  if not found then
    raise exception 'post_not_found' using errcode = 'PT404', detail = 'Scheduled post not found.';
  end if;
  if v_post.status <> 'scheduled' then
    raise exception 'post_not_pending' using errcode = 'PT409',
      detail = format('This post is %s and can no longer be changed.', v_post.status);
  end if;
  if v_post.locked_until is not null and v_post.locked_until > now() then
    raise exception 'post_in_progress' using errcode = 'PT409',
      detail = 'This post is being published or waits to be retried; try again in a few minutes.';
  end if;
  case p_action
    when 'postpone' then
      if p_scheduled_for is null or p_scheduled_for <= now() then
        raise exception 'date_not_in_future' using errcode = '22023', detail = 'Choose a date and time in the future.';
      end if;
      if p_scheduled_for > now() + interval '1 year' then
        raise exception 'date_too_far' using errcode = '22023', detail = 'Choose a date within a year from now.';
      end if;
      update public.scheduled_posts set scheduled_for = p_scheduled_for where id = p_post_id returning * into v_post;
    when 'cancel' then
      update public.scheduled_posts set status = 'canceled' where id = p_post_id returning * into v_post;
    when 'post_now' then
      update public.scheduled_posts set scheduled_for = now() where id = p_post_id returning * into v_post;
    else
      raise exception 'unknown_action' using errcode = '22023', detail = format('Unknown change %L.', p_action);
  end case;
  return private.scheduled_post_json(v_post);
end
$$;
revoke execute on function private.change_scheduled_post(uuid, text, timestamptz) from public, anon;
grant execute on function private.change_scheduled_post(uuid, text, timestamptz) to authenticated;

create function public.postpone_scheduled_post(p_post_id uuid, p_scheduled_for timestamptz)
returns jsonb
language sql
set search_path = ''
as $$
  select private.change_scheduled_post(p_post_id, 'postpone', p_scheduled_for)
$$;
revoke execute on function public.postpone_scheduled_post(uuid, timestamptz) from public, anon;
grant execute on function public.postpone_scheduled_post(uuid, timestamptz) to authenticated;

create function public.cancel_scheduled_post(p_post_id uuid)
returns jsonb
language sql
set search_path = ''
as $$
  select private.change_scheduled_post(p_post_id, 'cancel')
$$;
revoke execute on function public.cancel_scheduled_post(uuid) from public, anon;
grant execute on function public.cancel_scheduled_post(uuid) to authenticated;

create function public.post_scheduled_post_now(p_post_id uuid)
returns jsonb
language sql
set search_path = ''
as $$
  select private.change_scheduled_post(p_post_id, 'post_now')
$$;
revoke execute on function public.post_scheduled_post_now(uuid) from public, anon;
grant execute on function public.post_scheduled_post_now(uuid) to authenticated;
