-- Clips as records (issue 40, item 3). A clip was a file name: its title and each platform's post
-- text lived twice in jsonb (the processing row's outputs and the plan), and posts pointed at it by
-- file name. Now each clip is a row of public.episode_clips with an id that posts point at
-- (scheduled_posts.clip_id); the clip's Drive file is on the clip, so a clip rendered again after an
-- edit replaces the file every post not yet out uses. The owner reads their clips through RLS and
-- the episode page (public.episode_page: `clips`). The worker writes them through
-- private.record_episode_clips and private.record_clip_file (20261128110100_processing_state.sql).

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
  unique (episode_processing_id, position)
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

-- The clips the worker recorded so far, from each processing row's outputs (the clip files in
-- the order delivered; their title and posts when the row kept them).
insert into public.episode_clips (episode_processing_id, episode_id, user_id, position, start_seconds, end_seconds,
                                  title, posts, file_name, duration_seconds, width, height, drive_file_id, drive_url)
select p.id, p.episode_id, p.user_id, c.position::integer,
       coalesce((c.o ->> 'startSeconds')::numeric, 0),
       coalesce((c.o ->> 'startSeconds')::numeric, 0) + greatest(coalesce((c.o ->> 'durationSeconds')::numeric, 0), 0.01),
       left(coalesce(nullif(c.o ->> 'title', ''), regexp_replace(c.o ->> 'name', '\.mp4$', '')), 500),
       coalesce(c.o -> 'posts', jsonb_build_object(
         'youtube', jsonb_build_object('title', regexp_replace(c.o ->> 'name', '\.mp4$', ''), 'description', ''),
         'x', jsonb_build_object('text', regexp_replace(c.o ->> 'name', '\.mp4$', '')),
         'linkedin', jsonb_build_object('text', regexp_replace(c.o ->> 'name', '\.mp4$', '')),
         'wordpress', jsonb_build_object('title', regexp_replace(c.o ->> 'name', '\.mp4$', ''), 'content', ''))),
       c.o ->> 'name', coalesce((c.o ->> 'durationSeconds')::numeric, 0),
       coalesce((c.o ->> 'width')::integer, 0), coalesce((c.o ->> 'height')::integer, 0),
       c.o ->> 'driveFileId', c.o ->> 'driveUrl'
  from public.episode_processing p
 cross join lateral (
   select o, row_number() over (order by ord) as position
     from jsonb_array_elements(p.outputs) with ordinality as e (o, ord)
    where o ->> 'kind' = 'clip'
 ) c
 where p.user_id is not null;

-- Posts point at their clip. A post whose clip the outputs no longer name keeps a clip of its own.
alter table public.scheduled_posts add column clip_id uuid references public.episode_clips (id) on delete cascade;
update public.scheduled_posts s
   set clip_id = c.id
  from public.episode_clips c
 where c.episode_processing_id = s.episode_processing_id and c.file_name = s.clip_name;
insert into public.episode_clips (episode_processing_id, episode_id, user_id, position, start_seconds, end_seconds,
                                  title, posts, file_name, drive_file_id)
select distinct on (s.episode_processing_id, s.clip_name)
       s.episode_processing_id, p.episode_id, p.user_id,
       (select coalesce(max(c.position), 0) from public.episode_clips c where c.episode_processing_id = s.episode_processing_id)
         + dense_rank() over (partition by s.episode_processing_id order by s.clip_name),
       0, 0.01, left(regexp_replace(s.clip_name, '\.mp4$', ''), 500),
       jsonb_build_object(
         'youtube', jsonb_build_object('title', regexp_replace(s.clip_name, '\.mp4$', ''), 'description', ''),
         'x', jsonb_build_object('text', regexp_replace(s.clip_name, '\.mp4$', '')),
         'linkedin', jsonb_build_object('text', regexp_replace(s.clip_name, '\.mp4$', '')),
         'wordpress', jsonb_build_object('title', regexp_replace(s.clip_name, '\.mp4$', ''), 'content', '')),
       s.clip_name, s.drive_file_id
  from public.scheduled_posts s
  join public.episode_processing p on p.id = s.episode_processing_id
 where s.clip_id is null and p.user_id is not null;
update public.scheduled_posts s
   set clip_id = c.id
  from public.episode_clips c
 where s.clip_id is null and c.episode_processing_id = s.episode_processing_id and c.file_name = s.clip_name;
delete from public.scheduled_posts where clip_id is null;

alter table public.scheduled_posts
  alter column clip_id set not null,
  drop constraint scheduled_posts_episode_processing_id_provider_clip_name_key,
  drop column clip_name,
  drop column drive_file_id,
  add constraint scheduled_posts_clip_id_provider_key unique (clip_id, provider);
-- The calendar reads a processing row's posts; the foreign key's own index went with the old unique key.
create index scheduled_posts_episode_processing_id_idx on public.scheduled_posts (episode_processing_id);

-- A clip as the episode page shows it (EpisodeClip in _shared/domain/episode-clips.ts).
create function private.episode_clip_json(c public.episode_clips)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'id', c.id, 'position', c.position, 'startSeconds', c.start_seconds, 'endSeconds', c.end_seconds,
    'title', c.title, 'posts', c.posts, 'fileName', c.file_name, 'durationSeconds', c.duration_seconds,
    'width', c.width, 'height', c.height, 'driveFileId', c.drive_file_id, 'driveUrl', c.drive_url,
    'renderVersion', c.render_version)
$$;
revoke execute on function private.episode_clip_json(public.episode_clips) from public, anon;
grant execute on function private.episode_clip_json(public.episode_clips) to authenticated, service_role;

-- As in 20261126180000_episode_page.sql, with the post's clip: its id, title and file name.
create or replace function private.scheduled_post_json(p public.scheduled_posts)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'id', p.id, 'provider', p.provider, 'clipId', p.clip_id, 'clipName', c.file_name, 'clipTitle', c.title,
    'scheduledFor', p.scheduled_for, 'status', p.status, 'postedAt', p.posted_at, 'lastError', p.last_error,
    'attempts', p.attempts,
    'changeable', p.status = 'scheduled' and (p.locked_until is null or p.locked_until <= now()))
    from public.episode_clips c
   where c.id = p.clip_id
$$;

-- As in 20261126180000_episode_page.sql, with the processing's clips, and the calendar in the
-- clips' order.
create or replace function public.episode_page(p_episode_id uuid)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'id', e.id, 'title', e.title, 'submittedAt', e.submitted_at,
    'processing', (
      select jsonb_build_object(
        'id', p.id, 'status', p.status, 'stage', p.stage, 'progress', p.progress,
        'failureReason', p.failure_reason, 'updatedAt', p.updated_at, 'startedAt', p.started_at,
        'finishedAt', p.finished_at, 'driveFolderUrl', p.drive_folder_url, 'outputs', p.outputs,
        'clips', coalesce((select jsonb_agg(private.episode_clip_json(c) order by c.position)
                             from public.episode_clips c
                            where c.episode_processing_id = p.id and c.user_id = (select auth.uid())), '[]'::jsonb),
        'posts', coalesce((select jsonb_agg(private.scheduled_post_json(s) order by s.scheduled_for, c.position, s.provider)
                             from public.scheduled_posts s
                             join public.episode_clips c on c.id = s.clip_id
                            where s.episode_processing_id = p.id and s.user_id = (select auth.uid())), '[]'::jsonb))
        from public.episode_processing p
       where p.episode_id = e.id and p.user_id = (select auth.uid())
       order by p.created_at desc
       limit 1))
    from public.episodes e
   where e.id = p_episode_id and e.user_id = (select auth.uid())
$$;
