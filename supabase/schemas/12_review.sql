-- This file: review before posting (issue 41). Nothing goes out that the subscriber would not
-- sign. Delivery no longer posts: every post of an episode is held (scheduled_posts.status 'held')
-- until the subscriber approves it or the review window they chose in Post Settings
-- (profiles.review_window, posting_hour) has passed, and never before approval when the episode's
-- title is only the worker's suggestion, the transcript's confidence is low, or their window is
-- "until I approve" (episode_processing.review_hold). A released clip is posted at the
-- subscriber's posting hour in their time zone, daysBetweenClips apart. The blog post reaches
-- WordPress only when released, as a draft or published. Every edit (a clip's title and texts,
-- its moment, a drop, the blog post, the show notes, the transcript) is a function here: the
-- owner's only, never of a post that is out, within each platform's limits. Edits to words
-- re-render the clips they touch through the worker's queue (private.processing_requests).
--
--   SQLSTATE  message                 when
--   42501     not_authenticated       no caller
--   PT404     episode_not_found       no such episode of the caller's (or not processed yet)
--   PT404     clip_not_found          no such clip of the caller's
--   PT409     not_delivered           the episode is not delivered yet
--   PT409     post_already_out        the text or clip of a post that is out
--   PT409     transcript_changed      the transcript was saved since it was read (its version)
--   PT409     blog_post_out           the blog post is on WordPress already
--   22023     text_too_long           a platform's text past its limit (the detail names it)
--   22023     invalid_clip            a moment that is not whole sentences of the transcript, or too short or long
--   22023     invalid_transcript      words that are not the transcript's

-- ---------------------------------------------------------------- the transcript, kept
create table public.episode_transcripts (
  episode_processing_id uuid primary key references public.episode_processing (id) on delete cascade,
  episode_id uuid references public.episodes (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  engine text not null check (char_length(engine) <= 100),
  language text not null check (char_length(language) <= 20),
  duration_seconds numeric not null check (duration_seconds >= 0),
  -- The domain's Transcript: words with times and confidence, sentences by word indexes.
  words jsonb not null check (jsonb_typeof(words) = 'array'),
  sentences jsonb not null check (jsonb_typeof(sentences) = 'array'),
  -- The mean confidence of its words as the engine reported it (0..1), null when it reports none.
  confidence numeric check (confidence between 0 and 1),
  -- 1 as recognised; each save of the subscriber's corrections adds one.
  version integer not null default 1 check (version >= 1),
  edited_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index episode_transcripts_user_id_idx on public.episode_transcripts (user_id);
create index episode_transcripts_episode_id_idx on public.episode_transcripts (episode_id);
create trigger episode_transcripts_set_updated_at
  before update on public.episode_transcripts
  for each row execute function private.set_updated_at();
alter table public.episode_transcripts enable row level security;
revoke all on table public.episode_transcripts from anon, authenticated;
grant select on table public.episode_transcripts to authenticated;
grant select, insert, update, delete on table public.episode_transcripts to service_role;
create policy "Users read their own transcripts"
  on public.episode_transcripts for select
  to authenticated
  using (user_id = (select auth.uid()));

-- Below this mean word confidence a transcript is not trusted to post without the subscriber's look.
create function private.low_transcript_confidence()
returns numeric
language sql
immutable
set search_path = ''
as $$ select 0.7::numeric $$;
revoke execute on function private.low_transcript_confidence() from public, anon;
grant execute on function private.low_transcript_confidence() to authenticated, service_role;

-- The worker's transcript (Transcript in _shared/domain/transcript.ts), replacing an earlier attempt's.
create function private.record_transcript(p_processing_id uuid, p_transcript jsonb)
returns void
language plpgsql
set search_path = ''
as $$
declare
  v_processing public.episode_processing;
begin
  select * into v_processing from public.episode_processing where id = p_processing_id;
  if not found or v_processing.user_id is null then
    raise exception 'processing_not_found' using errcode = 'PT404', detail = 'No such processing.';
  end if;
  insert into public.episode_transcripts (episode_processing_id, episode_id, user_id, engine, language, duration_seconds, words, sentences, confidence)
  values (p_processing_id, v_processing.episode_id, v_processing.user_id, p_transcript ->> 'engine', p_transcript ->> 'language',
          (p_transcript ->> 'durationSeconds')::numeric, p_transcript -> 'words', p_transcript -> 'sentences',
          (select avg((w ->> 'confidence')::numeric) from jsonb_array_elements(p_transcript -> 'words') w where w ? 'confidence'))
  on conflict (episode_processing_id) do update
     set engine = excluded.engine, language = excluded.language, duration_seconds = excluded.duration_seconds,
         words = excluded.words, sentences = excluded.sentences, confidence = excluded.confidence, version = 1, edited_at = null;
end
$$;
revoke execute on function private.record_transcript(uuid, jsonb) from public, anon, authenticated;
grant execute on function private.record_transcript(uuid, jsonb) to service_role;

-- The transcript of the episode's latest processing, as the transcript editor reads it (the
-- owner's only; null when there is none).
create function public.episode_transcript(p_episode_id uuid)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object('engine', t.engine, 'language', t.language, 'durationSeconds', t.duration_seconds,
                            'words', t.words, 'sentences', t.sentences, 'version', t.version,
                            'confidence', t.confidence, 'editedAt', t.edited_at)
    from (select p.id from public.episode_processing p
           where p.episode_id = p_episode_id and p.user_id = (select auth.uid())
           order by p.created_at desc limit 1) latest
    join public.episode_transcripts t on t.episode_processing_id = latest.id
$$;
revoke execute on function public.episode_transcript(uuid) from public, anon, service_role;
grant execute on function public.episode_transcript(uuid) to authenticated;

-- ---------------------------------------------------------------- releasing posts

-- The next posting time after p_after: the subscriber's posting hour in their time zone ('UTC+01:00').
create function private.next_posting_time(p_user uuid, p_after timestamptz)
returns timestamptz
language plpgsql
stable
set search_path = ''
as $$
declare
  v_zone text;
  v_hour integer;
  v_offset interval := interval '0';
  v_local timestamp;
  v_candidate timestamp;
begin
  select p.podcast_timezone, p.posting_hour into v_zone, v_hour from public.profiles p where p.id = p_user;
  if v_zone ~ '^UTC[+-][0-9]{2}:[0-9]{2}$' then
    v_offset := (case when substr(v_zone, 4, 1) = '-' then -1 else 1 end)
                * make_interval(hours => substr(v_zone, 5, 2)::integer, mins => substr(v_zone, 8, 2)::integer);
  end if;
  v_local := (p_after at time zone 'UTC') + v_offset;
  v_candidate := date_trunc('day', v_local) + make_interval(hours => coalesce(v_hour, 10));
  if v_candidate < v_local then
    v_candidate := v_candidate + interval '1 day';
  end if;
  return (v_candidate - v_offset) at time zone 'UTC';
end
$$;
revoke execute on function private.next_posting_time(uuid, timestamptz) from public, anon;
grant execute on function private.next_posting_time(uuid, timestamptz) to authenticated, service_role;

-- The posts of clips p_clip_ids (held, not dropped) scheduled from p_at on: each clip at the next
-- free slot, daysBetweenClips after the latest clip of the episode already scheduled or out.
create function private.release_clips(p_processing_id uuid, p_clip_ids uuid[], p_at timestamptz)
returns integer
language plpgsql
set search_path = ''
as $$
declare
  v_user uuid;
  v_days integer;
  v_slot timestamptz;
  v_last timestamptz;
  v_clip record;
  v_released integer := 0;
begin
  select p.user_id, coalesce((private.processing_job(p.id) #>> '{options,daysBetweenClips}')::integer, 1)
    into v_user, v_days
    from public.episode_processing p where p.id = p_processing_id;
  v_slot := private.next_posting_time(v_user, p_at);
  for v_clip in
    select c.id from public.episode_clips c
     where c.id = any (p_clip_ids) and c.review_state <> 'dropped'
       and exists (select 1 from public.scheduled_posts s where s.clip_id = c.id and s.status = 'held')
     order by c.position
  loop
    select max(s.scheduled_for) into v_last
      from public.scheduled_posts s
     where s.episode_processing_id = p_processing_id and s.kind = 'clip' and s.status in ('scheduled', 'posted', 'failed');
    if v_last is not null and v_last + make_interval(days => v_days) > v_slot then
      v_slot := v_last + make_interval(days => v_days);
    end if;
    update public.scheduled_posts set status = 'scheduled', scheduled_for = v_slot where clip_id = v_clip.id and status = 'held';
    v_released := v_released + 1;
  end loop;
  return v_released;
end
$$;
revoke execute on function private.release_clips(uuid, uuid[], timestamptz) from public, anon, authenticated;
grant execute on function private.release_clips(uuid, uuid[], timestamptz) to service_role;

-- Posting starts for the whole episode: every held clip not dropped, in order, and the blog post
-- at once. The episode's suggested title is accepted with it.
create function private.release_episode(p_processing_id uuid, p_at timestamptz)
returns void
language plpgsql
set search_path = ''
as $$
begin
  perform private.release_clips(
    p_processing_id,
    (select coalesce(array_agg(c.id), '{}') from public.episode_clips c where c.episode_processing_id = p_processing_id and c.review_state <> 'dropped'),
    p_at);
  -- The full episode and the blog post go out at once, the blog post a second after (it links to
  -- the YouTube episode: a worker takes it after the video, and else it waits, private.post_waits_for_video).
  update public.scheduled_posts set status = 'scheduled', scheduled_for = p_at + case kind when 'article' then interval '1 second' else interval '0' end
   where episode_processing_id = p_processing_id and kind in ('article', 'episode') and status = 'held';
  update public.episode_processing set released_at = coalesce(released_at, p_at), review_hold = null where id = p_processing_id;
  update public.episodes e set title_confirmed = true
    from public.episode_processing p where p.id = p_processing_id and e.id = p.episode_id;
end
$$;
revoke execute on function private.release_episode(uuid, timestamptz) from public, anon, authenticated;
grant execute on function private.release_episode(uuid, timestamptz) to service_role;

-- The episodes whose review window has passed (and that nothing holds): their posting starts.
-- Run by the worker's poster before it takes due posts; answers how many were released.
create function private.release_due_reviews()
returns integer
language plpgsql
set search_path = ''
as $$
declare
  v_id uuid;
  v_count integer := 0;
begin
  for v_id in
    select p.id from public.episode_processing p
     where p.review_due_at <= now() and p.released_at is null and p.review_hold is null and p.status = 'delivered'
     order by p.review_due_at
     limit 50
     for update skip locked
  loop
    perform private.release_episode(v_id, now());
    v_count := v_count + 1;
  end loop;
  return v_count;
end
$$;
revoke execute on function private.release_due_reviews() from public, anon, authenticated;
grant execute on function private.release_due_reviews() to service_role;

-- ---------------------------------------------------------------- the worker's queue for edits

-- What the subscriber's edits ask the worker to do again: re-render clips (their moment or their
-- words changed) and write the words' files again (the transcript, its captions, the show notes).
create table private.processing_requests (
  id uuid primary key default gen_random_uuid(),
  episode_processing_id uuid not null references public.episode_processing (id) on delete cascade,
  kind text not null check (kind in ('rerender', 'texts')),
  clip_ids uuid[] not null default '{}',
  created_at timestamptz not null default now(),
  enqueued_at timestamptz,
  done_at timestamptz,
  -- Why it could not be done (the episode stays as it was).
  failure_reason text check (char_length(failure_reason) <= 2000)
);
create index processing_requests_not_enqueued_idx on private.processing_requests (created_at) where enqueued_at is null;
create index processing_requests_episode_processing_id_idx on private.processing_requests (episode_processing_id);
alter table private.processing_requests enable row level security;
revoke all on table private.processing_requests from public, anon, authenticated, service_role;

-- Queues a request and wakes the workers (they also poll).
create function private.request_processing(p_processing_id uuid, p_kind text, p_clip_ids uuid[] default '{}')
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.processing_requests (episode_processing_id, kind, clip_ids) values (p_processing_id, p_kind, coalesce(p_clip_ids, '{}'));
  perform pg_notify('episode_processing', p_processing_id::text);
end
$$;
revoke execute on function private.request_processing(uuid, text, uuid[]) from public, anon, authenticated, service_role;

create function private.requests_to_enqueue(p_limit integer)
returns table (id uuid, episode_processing_id uuid, kind text, clip_ids uuid[], user_id uuid)
language sql
set search_path = ''
as $$
  select r.id, r.episode_processing_id, r.kind, r.clip_ids, p.user_id
    from private.processing_requests r join public.episode_processing p on p.id = r.episode_processing_id
   where r.enqueued_at is null
   order by r.created_at
   limit p_limit
     for update of r skip locked
$$;
revoke execute on function private.requests_to_enqueue(integer) from public, anon, authenticated;
grant execute on function private.requests_to_enqueue(integer) to service_role;

create function private.request_enqueued(p_request_id uuid)
returns void
language sql
set search_path = ''
as $$ update private.processing_requests set enqueued_at = now() where id = p_request_id $$;
revoke execute on function private.request_enqueued(uuid) from public, anon, authenticated;
grant execute on function private.request_enqueued(uuid) to service_role;

create function private.request_done(p_request_id uuid)
returns void
language sql
set search_path = ''
as $$ update private.processing_requests set done_at = now() where id = p_request_id $$;
revoke execute on function private.request_done(uuid) from public, anon, authenticated;
grant execute on function private.request_done(uuid) to service_role;

create function private.request_failed(p_request_id uuid, p_reason text)
returns void
language sql
set search_path = ''
as $$ update private.processing_requests set done_at = now(), failure_reason = left(p_reason, 2000) where id = p_request_id $$;
revoke execute on function private.request_failed(uuid, text) from public, anon, authenticated;
grant execute on function private.request_failed(uuid, text) to service_role;

-- The delivered episode's plan (kept after the join): what a clip rendered again is rendered from.
create function private.delivered_plan(p_processing_id uuid)
returns jsonb
language sql
stable
set search_path = ''
as $$ select plan from private.processing_plans where processing_id = p_processing_id $$;
revoke execute on function private.delivered_plan(uuid) from public, anon, authenticated;
grant execute on function private.delivered_plan(uuid) to service_role;

-- A clip rendered again: its new file, one render more.
create function private.record_clip_render(p_clip_id uuid, p_drive_file_id text, p_drive_url text, p_duration_seconds numeric)
returns void
language sql
set search_path = ''
as $$
  update public.episode_clips
     set drive_file_id = p_drive_file_id, drive_url = p_drive_url, duration_seconds = p_duration_seconds,
         render_version = render_version + 1
   where id = p_clip_id
$$;
revoke execute on function private.record_clip_render(uuid, text, text, numeric) from public, anon, authenticated;
grant execute on function private.record_clip_render(uuid, text, text, numeric) to service_role;

-- The owner's edits the worker has not finished: the clips being rendered again, whether the
-- words' files are being written again, and why the latest edit could not be done (after the last
-- that was). Definer: the requests are the server's; it answers only for the caller's own episode.
create function private.pending_edits(p_processing_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'renderingClipIds', coalesce((select jsonb_agg(distinct c) from private.processing_requests r, unnest(r.clip_ids) c
                                   where r.episode_processing_id = p.id and r.kind = 'rerender' and r.done_at is null and r.failure_reason is null), '[]'::jsonb),
    'writingTexts', exists (select 1 from private.processing_requests r
                             where r.episode_processing_id = p.id and r.kind = 'texts' and r.done_at is null and r.failure_reason is null),
    'failure', (select r.failure_reason from private.processing_requests r
                 where r.episode_processing_id = p.id and r.failure_reason is not null
                   and r.created_at > coalesce((select max(d.created_at) from private.processing_requests d
                                                 where d.episode_processing_id = p.id and d.done_at is not null and d.failure_reason is null), '-infinity')
                 order by r.created_at desc limit 1))
    from public.episode_processing p
   where p.id = p_processing_id and p.user_id = (select auth.uid())
$$;
revoke execute on function private.pending_edits(uuid) from public, anon, service_role;
grant execute on function private.pending_edits(uuid) to authenticated;

-- ---------------------------------------------------------------- the owner's episode, for edits

-- The caller's delivered episode's latest processing, locked for the change; raises as the API answers.
create function private.own_delivered_processing(p_episode_id uuid)
returns public.episode_processing
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_processing public.episode_processing;
begin
  if (select auth.uid()) is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  select p.* into v_processing
    from public.episode_processing p
    join public.episodes e on e.id = p.episode_id
   where p.episode_id = p_episode_id and e.user_id = (select auth.uid())
   order by p.created_at desc
   limit 1
     for update of p;
  if not found then
    raise exception 'episode_not_found' using errcode = 'PT404', detail = 'No such episode.';
  end if;
  if v_processing.status <> 'delivered' then
    raise exception 'not_delivered' using errcode = 'PT409', detail = 'The episode is still being processed: edits open once it is delivered.';
  end if;
  return v_processing;
end
$$;
revoke execute on function private.own_delivered_processing(uuid) from public, anon, authenticated, service_role;

-- The caller's clip (of a delivered episode), locked; raises as the API answers.
create function private.own_clip(p_clip_id uuid)
returns public.episode_clips
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_clip public.episode_clips;
begin
  if (select auth.uid()) is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  select * into v_clip from public.episode_clips where id = p_clip_id and user_id = (select auth.uid()) for update;
  if not found then
    raise exception 'clip_not_found' using errcode = 'PT404', detail = 'No such clip.';
  end if;
  return v_clip;
end
$$;
revoke execute on function private.own_clip(uuid) from public, anon, authenticated, service_role;

-- ---------------------------------------------------------------- review actions

-- 'approve': the clip's posts are scheduled now; 'drop': its posts not out are canceled; 'restore':
-- a dropped clip waits for review again.
create function private.review_clip(p_clip_id uuid, p_action text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_clip public.episode_clips := private.own_clip(p_clip_id);
begin
  case p_action
    when 'approve' then
      update public.episode_clips set review_state = 'approved' where id = p_clip_id;
      perform private.release_clips(v_clip.episode_processing_id, array[p_clip_id], now());
    when 'drop' then
      update public.episode_clips set review_state = 'dropped' where id = p_clip_id;
      update public.scheduled_posts set status = 'canceled'
       where clip_id = p_clip_id and status in ('held', 'scheduled') and (locked_until is null or locked_until <= now());
    when 'restore' then
      if v_clip.review_state <> 'dropped' then
        raise exception 'clip_not_dropped' using errcode = 'PT409', detail = 'Only a dropped clip can be restored.';
      end if;
      update public.episode_clips set review_state = 'pending' where id = p_clip_id;
      update public.scheduled_posts set status = 'held' where clip_id = p_clip_id and status = 'canceled';
    else
      raise exception 'unknown_action' using errcode = '22023', detail = format('Unknown review action %L.', p_action);
  end case;
  return (select private.episode_clip_json(c) from public.episode_clips c where c.id = p_clip_id);
end
$$;
revoke execute on function private.review_clip(uuid, text) from public, anon, service_role;
grant execute on function private.review_clip(uuid, text) to authenticated;

-- The whole episode approved: its title as it stands, and posting starts for every clip not dropped.
create function private.approve_episode(p_episode_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_processing public.episode_processing := private.own_delivered_processing(p_episode_id);
begin
  update public.episode_clips set review_state = 'approved' where episode_processing_id = v_processing.id and review_state = 'pending';
  perform private.release_episode(v_processing.id, now());
end
$$;
revoke execute on function private.approve_episode(uuid) from public, anon, service_role;
grant execute on function private.approve_episode(uuid) to authenticated;

-- Every post of the episode not out yet (held or scheduled, no worker holding it): moved p_days
-- later, or canceled.
create function private.change_episode_posts(p_episode_id uuid, p_action text, p_days integer default null)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_processing public.episode_processing := private.own_delivered_processing(p_episode_id);
  v_count integer;
begin
  case p_action
    when 'postpone' then
      if p_days is null or p_days not between 1 and 365 then
        raise exception 'invalid_days' using errcode = '22023', detail = 'Postpone by 1 to 365 days.';
      end if;
      update public.scheduled_posts set scheduled_for = scheduled_for + make_interval(days => p_days)
       where episode_processing_id = v_processing.id and status in ('held', 'scheduled') and (locked_until is null or locked_until <= now());
    when 'cancel' then
      update public.scheduled_posts set status = 'canceled'
       where episode_processing_id = v_processing.id and status in ('held', 'scheduled') and (locked_until is null or locked_until <= now());
    else
      raise exception 'unknown_action' using errcode = '22023', detail = format('Unknown change %L.', p_action);
  end case;
  get diagnostics v_count = row_count;
  return v_count;
end
$$;
revoke execute on function private.change_episode_posts(uuid, text, integer) from public, anon, service_role;
grant execute on function private.change_episode_posts(uuid, text, integer) to authenticated;

-- ---------------------------------------------------------------- edits

-- X's weighted length (xLength in _shared/domain/episode-clips.ts): most Latin, punctuation and
-- symbols count 1, other characters (CJK, emoji) 2.
create function private.x_length(p_text text)
returns integer
language sql
immutable
set search_path = ''
as $$
  select coalesce(sum(case when c <= 4351 or c between 8192 and 8205 or c between 8208 and 8223 or c between 8242 and 8247 then 1 else 2 end), 0)::integer
    from (select ascii(ch) as c from regexp_split_to_table(coalesce(p_text, ''), '') ch where ch <> '') chars
$$;
revoke execute on function private.x_length(text) from public, anon;
grant execute on function private.x_length(text) to authenticated, service_role;

-- A clip's title and each platform's text (ClipPosts), checked against the platforms' limits
-- (PLATFORM_TEXT_LIMITS in _shared/domain/episode-clips.ts); the text of a post already out stays.
create function private.update_clip_texts(p_clip_id uuid, p_title text, p_posts jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_clip public.episode_clips := private.own_clip(p_clip_id);
  v_title text := trim(coalesce(p_title, ''));
  v_check record;
  v_out public.provider;
begin
  if jsonb_typeof(p_posts) is distinct from 'object' then
    raise exception 'invalid_posts' using errcode = '22023', detail = 'Each platform''s text is needed.';
  end if;
  for v_check in
    select * from (values
      ('The title', v_title, 1, 70, false),
      ('The YouTube title', p_posts #>> '{youtube,title}', 1, 100, false),
      ('The YouTube description', coalesce(p_posts #>> '{youtube,description}', ''), 0, 5000, false),
      ('The X post', p_posts #>> '{x,text}', 1, 280, true),
      ('The LinkedIn post', p_posts #>> '{linkedin,text}', 1, 3000, false),
      ('The WordPress title', p_posts #>> '{wordpress,title}', 1, 200, false),
      ('The WordPress text', coalesce(p_posts #>> '{wordpress,content}', ''), 0, 20000, false)
    ) as t (label, value, least_chars, most_chars, weighted)
  loop
    if v_check.value is null or char_length(trim(v_check.value)) < v_check.least_chars then
      raise exception 'text_missing' using errcode = '22023', detail = format('%s cannot be empty.', v_check.label);
    end if;
    if (case when v_check.weighted then private.x_length(v_check.value) else char_length(v_check.value) end) > v_check.most_chars then
      raise exception 'text_too_long' using errcode = '22023',
        detail = format('%s can be at most %s characters (%s now).', v_check.label, v_check.most_chars,
                        case when v_check.weighted then private.x_length(v_check.value) else char_length(v_check.value) end);
    end if;
  end loop;
  -- A platform whose post is out keeps the text it went out with.
  for v_out in select s.provider from public.scheduled_posts s where s.clip_id = p_clip_id and s.status = 'posted' loop
    if (v_out = 'youtube' and (p_posts -> 'youtube') is distinct from (v_clip.posts -> 'youtube'))
       or (v_out = 'x' and (p_posts -> 'x') is distinct from (v_clip.posts -> 'x'))
       or (v_out = 'linkedin' and (p_posts -> 'linkedin') is distinct from (v_clip.posts -> 'linkedin'))
       or (v_out = 'wordpress' and (p_posts -> 'wordpress') is distinct from (v_clip.posts -> 'wordpress')) then
      raise exception 'post_already_out' using errcode = 'PT409',
        detail = format('The %s post is already out: its text can no longer change.', initcap(v_out::text));
    end if;
  end loop;
  update public.episode_clips
     set title = v_title,
         posts = jsonb_build_object(
           'youtube', jsonb_build_object('title', p_posts #>> '{youtube,title}', 'description', coalesce(p_posts #>> '{youtube,description}', '')),
           'x', jsonb_build_object('text', p_posts #>> '{x,text}'),
           'linkedin', jsonb_build_object('text', p_posts #>> '{linkedin,text}'),
           'wordpress', jsonb_build_object('title', p_posts #>> '{wordpress,title}', 'content', coalesce(p_posts #>> '{wordpress,content}', '')))
   where id = p_clip_id;
  return (select private.episode_clip_json(c) from public.episode_clips c where c.id = p_clip_id);
end
$$;
revoke execute on function private.update_clip_texts(uuid, text, jsonb) from public, anon, service_role;
grant execute on function private.update_clip_texts(uuid, text, jsonb) to authenticated;

-- The clip's moment as whole sentences of the transcript [p_first_sentence, p_end_sentence): from
-- 5 to 90 seconds, before any of its posts is out; the clip is rendered again. A clip the
-- subscriber moved is their choice: the score and reason of the moment Castloop suggested no
-- longer describe it, so they are cleared.
create function private.set_clip_moment(p_clip_id uuid, p_first_sentence integer, p_end_sentence integer)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_clip public.episode_clips := private.own_clip(p_clip_id);
  v_sentences jsonb;
  v_start numeric;
  v_end numeric;
begin
  select t.sentences into v_sentences from public.episode_transcripts t where t.episode_processing_id = v_clip.episode_processing_id;
  if v_sentences is null or p_first_sentence is null or p_end_sentence is null or p_first_sentence < 0
     or p_end_sentence <= p_first_sentence or p_end_sentence > jsonb_array_length(v_sentences) then
    raise exception 'invalid_clip' using errcode = '22023', detail = 'Choose the clip''s first and last sentences from the transcript.';
  end if;
  v_start := (v_sentences -> p_first_sentence ->> 'start')::numeric;
  v_end := (v_sentences -> (p_end_sentence - 1) ->> 'end')::numeric;
  if v_end - v_start < 5 or v_end - v_start > 90 then
    raise exception 'invalid_clip' using errcode = '22023',
      detail = format('A clip runs from 5 to 90 seconds; these sentences run %s.', round(v_end - v_start, 1) || ' s');
  end if;
  if exists (select 1 from public.scheduled_posts s where s.clip_id = p_clip_id and s.status = 'posted') then
    raise exception 'post_already_out' using errcode = 'PT409', detail = 'A post of this clip is already out: its moment can no longer change.';
  end if;
  update public.episode_clips
     set first_sentence = p_first_sentence, end_sentence = p_end_sentence, start_seconds = v_start, end_seconds = v_end,
         score = null, reason = null
   where id = p_clip_id;
  perform private.request_processing(v_clip.episode_processing_id, 'rerender', array[p_clip_id]);
  return (select private.episode_clip_json(c) from public.episode_clips c where c.id = p_clip_id);
end
$$;
revoke execute on function private.set_clip_moment(uuid, integer, integer) from public, anon, service_role;
grant execute on function private.set_clip_moment(uuid, integer, integer) to authenticated;

-- The blog post's title and Markdown, before it reaches WordPress.
create function private.update_blog_post(p_episode_id uuid, p_title text, p_markdown text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_processing public.episode_processing := private.own_delivered_processing(p_episode_id);
begin
  if v_processing.content -> 'blogPost' is null or jsonb_typeof(v_processing.content -> 'blogPost') <> 'object' then
    raise exception 'no_blog_post' using errcode = 'PT404', detail = 'This episode has no blog post.';
  end if;
  if char_length(trim(coalesce(p_title, ''))) not between 1 and 200 or char_length(coalesce(p_markdown, '')) not between 1 and 100000 then
    raise exception 'invalid_blog_post' using errcode = '22023', detail = 'The blog post needs a title of at most 200 characters and a text.';
  end if;
  if v_processing.content #> '{blogPost,wordpress}' is not null and jsonb_typeof(v_processing.content #> '{blogPost,wordpress}') = 'object' then
    raise exception 'blog_post_out' using errcode = 'PT409', detail = 'The blog post is on WordPress already: edit it there.';
  end if;
  update public.episode_processing
     set content = jsonb_set(jsonb_set(content, '{blogPost,title}', to_jsonb(trim(p_title))), '{blogPost,markdown}', to_jsonb(p_markdown))
   where id = v_processing.id;
  perform private.request_processing(v_processing.id, 'texts');
  return (select content -> 'blogPost' from public.episode_processing where id = v_processing.id);
end
$$;
revoke execute on function private.update_blog_post(uuid, text, text) from public, anon, service_role;
grant execute on function private.update_blog_post(uuid, text, text) to authenticated;

-- The show notes' summary, chapter titles (by index) and keywords; their file in Drive is written again.
create function private.update_show_notes(p_episode_id uuid, p_summary text, p_chapter_titles jsonb, p_keywords jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_processing public.episode_processing := private.own_delivered_processing(p_episode_id);
  v_notes jsonb := v_processing.content -> 'showNotes';
begin
  if v_notes is null or jsonb_typeof(v_notes) <> 'object' then
    raise exception 'no_show_notes' using errcode = 'PT404', detail = 'This episode has no show notes.';
  end if;
  if char_length(coalesce(p_summary, '')) not between 1 and 5000
     or jsonb_typeof(p_chapter_titles) is distinct from 'array' or jsonb_array_length(p_chapter_titles) <> jsonb_array_length(v_notes -> 'chapters')
     or exists (select 1 from jsonb_array_elements(p_chapter_titles) t where jsonb_typeof(t) <> 'string' or char_length(t #>> '{}') not between 1 and 200)
     or jsonb_typeof(p_keywords) is distinct from 'array' or jsonb_array_length(p_keywords) > 20
     or exists (select 1 from jsonb_array_elements(p_keywords) k where jsonb_typeof(k) <> 'string' or char_length(k #>> '{}') not between 1 and 60) then
    raise exception 'invalid_show_notes' using errcode = '22023',
      detail = 'A summary of at most 5,000 characters, a title of at most 200 for each chapter, and at most 20 keywords.';
  end if;
  v_notes := jsonb_set(v_notes, '{summary}', to_jsonb(p_summary));
  v_notes := jsonb_set(v_notes, '{keywords}', p_keywords);
  v_notes := jsonb_set(v_notes, '{chapters}', (
    select coalesce(jsonb_agg(jsonb_set(c, '{title}', p_chapter_titles -> (i::integer - 1)) order by i), '[]'::jsonb)
      from jsonb_array_elements(v_notes -> 'chapters') with ordinality as x (c, i)));
  update public.episode_processing set content = jsonb_set(content, '{showNotes}', v_notes) where id = v_processing.id;
  perform private.request_processing(v_processing.id, 'texts');
  return v_notes;
end
$$;
revoke execute on function private.update_show_notes(uuid, text, jsonb, jsonb) from public, anon, service_role;
grant execute on function private.update_show_notes(uuid, text, jsonb, jsonb) to authenticated;

-- The subscriber's corrections of the transcript: [{index, text}] for the words that change, on
-- version p_version (another save since answers transcript_changed). Each word keeps its times;
-- each sentence's text follows its words. The clips whose words changed are rendered again (unless
-- a post of theirs is out) and the transcript's files written again; answers {version, clipIds}.
create function private.save_transcript(p_episode_id uuid, p_version integer, p_words jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_processing public.episode_processing := private.own_delivered_processing(p_episode_id);
  v_transcript public.episode_transcripts;
  v_words jsonb;
  v_changed integer[];
  v_clips uuid[];
begin
  select * into v_transcript from public.episode_transcripts where episode_processing_id = v_processing.id for update;
  if not found then
    raise exception 'episode_not_found' using errcode = 'PT404', detail = 'This episode has no transcript.';
  end if;
  if v_transcript.version <> p_version then
    raise exception 'transcript_changed' using errcode = 'PT409',
      detail = 'The transcript was saved since you opened it. Reload it to see the latest words, then make your changes again.';
  end if;
  if jsonb_typeof(p_words) is distinct from 'array' or jsonb_array_length(p_words) > 100000
     or exists (select 1 from jsonb_array_elements(p_words) w
                 where jsonb_typeof(w -> 'index') <> 'number' or jsonb_typeof(w -> 'text') <> 'string'
                    or (w ->> 'index')::integer not between 0 and jsonb_array_length(v_transcript.words) - 1
                    or char_length(trim(w ->> 'text')) not between 1 and 100) then
    raise exception 'invalid_transcript' using errcode = '22023', detail = 'Each corrected word needs its place in the transcript and 1 to 100 characters.';
  end if;
  select coalesce(array_agg(distinct (w ->> 'index')::integer), '{}') into v_changed
    from jsonb_array_elements(p_words) w
   where trim(w ->> 'text') <> v_transcript.words -> ((w ->> 'index')::integer) ->> 'text';
  if cardinality(v_changed) = 0 then
    return jsonb_build_object('version', v_transcript.version, 'clipIds', '[]'::jsonb);
  end if;
  select jsonb_agg(case when i - 1 = any (v_changed)
                        then jsonb_set(w, '{text}', to_jsonb(trim((select x ->> 'text' from jsonb_array_elements(p_words) x where (x ->> 'index')::integer = i - 1 limit 1))))
                        else w end order by i)
    into v_words
    from jsonb_array_elements(v_transcript.words) with ordinality as a (w, i);
  update public.episode_transcripts
     set words = v_words,
         sentences = (select jsonb_agg(jsonb_set(s, '{text}', to_jsonb(
                        (select string_agg(v_words -> k ->> 'text', ' ' order by k)
                           from generate_series((s ->> 'firstWord')::integer, (s ->> 'endWord')::integer - 1) k))) order by i)
                        from jsonb_array_elements(sentences) with ordinality as b (s, i)),
         version = version + 1, edited_at = now()
   where episode_processing_id = v_processing.id;
  -- The clips whose moment holds a changed word, and none of whose posts is out.
  select coalesce(array_agg(c.id order by c.position), '{}') into v_clips
    from public.episode_clips c
   where c.episode_processing_id = v_processing.id and c.review_state <> 'dropped'
     and exists (select 1 from unnest(v_changed) k
                  where (v_words -> k ->> 'start')::numeric < c.end_seconds and (v_words -> k ->> 'end')::numeric > c.start_seconds)
     and not exists (select 1 from public.scheduled_posts s where s.clip_id = c.id and s.status = 'posted');
  if cardinality(v_clips) > 0 then
    perform private.request_processing(v_processing.id, 'rerender', v_clips);
  end if;
  perform private.request_processing(v_processing.id, 'texts');
  return jsonb_build_object('version', v_transcript.version + 1, 'clipIds', to_jsonb(v_clips));
end
$$;
revoke execute on function private.save_transcript(uuid, integer, jsonb) from public, anon, service_role;
grant execute on function private.save_transcript(uuid, integer, jsonb) to authenticated;

-- ---------------------------------------------------------------- the API's doors (PostgREST RPCs)

create function public.review_clip(p_clip_id uuid, p_action text) returns jsonb language sql set search_path = ''
as $$ select private.review_clip(p_clip_id, p_action) $$;
revoke execute on function public.review_clip(uuid, text) from public, anon, service_role;
grant execute on function public.review_clip(uuid, text) to authenticated;

create function public.approve_episode(p_episode_id uuid) returns void language sql set search_path = ''
as $$ select private.approve_episode(p_episode_id) $$;
revoke execute on function public.approve_episode(uuid) from public, anon, service_role;
grant execute on function public.approve_episode(uuid) to authenticated;

create function public.change_episode_posts(p_episode_id uuid, p_action text, p_days integer default null) returns integer language sql set search_path = ''
as $$ select private.change_episode_posts(p_episode_id, p_action, p_days) $$;
revoke execute on function public.change_episode_posts(uuid, text, integer) from public, anon, service_role;
grant execute on function public.change_episode_posts(uuid, text, integer) to authenticated;

create function public.update_clip_texts(p_clip_id uuid, p_title text, p_posts jsonb) returns jsonb language sql set search_path = ''
as $$ select private.update_clip_texts(p_clip_id, p_title, p_posts) $$;
revoke execute on function public.update_clip_texts(uuid, text, jsonb) from public, anon, service_role;
grant execute on function public.update_clip_texts(uuid, text, jsonb) to authenticated;

create function public.set_clip_moment(p_clip_id uuid, p_first_sentence integer, p_end_sentence integer) returns jsonb language sql set search_path = ''
as $$ select private.set_clip_moment(p_clip_id, p_first_sentence, p_end_sentence) $$;
revoke execute on function public.set_clip_moment(uuid, integer, integer) from public, anon, service_role;
grant execute on function public.set_clip_moment(uuid, integer, integer) to authenticated;

create function public.update_blog_post(p_episode_id uuid, p_title text, p_markdown text) returns jsonb language sql set search_path = ''
as $$ select private.update_blog_post(p_episode_id, p_title, p_markdown) $$;
revoke execute on function public.update_blog_post(uuid, text, text) from public, anon, service_role;
grant execute on function public.update_blog_post(uuid, text, text) to authenticated;

create function public.update_show_notes(p_episode_id uuid, p_summary text, p_chapter_titles jsonb, p_keywords jsonb) returns jsonb language sql set search_path = ''
as $$ select private.update_show_notes(p_episode_id, p_summary, p_chapter_titles, p_keywords) $$;
revoke execute on function public.update_show_notes(uuid, text, jsonb, jsonb) from public, anon, service_role;
grant execute on function public.update_show_notes(uuid, text, jsonb, jsonb) to authenticated;

create function public.save_transcript(p_episode_id uuid, p_version integer, p_words jsonb) returns jsonb language sql set search_path = ''
as $$ select private.save_transcript(p_episode_id, p_version, p_words) $$;
revoke execute on function public.save_transcript(uuid, integer, jsonb) from public, anon, service_role;
grant execute on function public.save_transcript(uuid, integer, jsonb) to authenticated;
