-- Each clip's score and reason (issue 42, item 4): the worker chooses clips as an editor would
-- (worker/media/clip-selection.ts) and records how good each moment is (0..1) and why it was
-- chosen, in a short sentence the podcaster reads on the review screen ("A question and its
-- answer; names 'budget' and 'savings'; ends on a pause."). Clips recorded before have neither.
-- They say why Castloop suggested the moment: a clip the subscriber moves keeps them.

alter table public.episode_clips
  add column score numeric check (score between 0 and 1),
  add column reason text check (char_length(reason) between 1 and 500);

-- As in 20261128110100_processing_state.sql, with each clip's score and reason
-- ([{position, startSeconds, endSeconds, firstSentence?, endSentence?, score?, reason?, title,
-- posts, fileName, durationSeconds, width, height}]).
create or replace function private.record_episode_clips(p_id uuid, p_clips jsonb)
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

-- As in 20261128110400_review_before_posting.sql, with the clip's score and reason.
create or replace function private.episode_clip_json(c public.episode_clips)
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
