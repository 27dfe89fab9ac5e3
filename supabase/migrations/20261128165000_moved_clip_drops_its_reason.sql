-- A clip the subscriber moved is their choice: the score and reason of the moment Castloop
-- suggested (20261128160000_clip_scores_and_reasons.sql) no longer describe it. As in
-- 20261128110400_review_before_posting.sql otherwise.
create or replace function private.set_clip_moment(p_clip_id uuid, p_first_sentence integer, p_end_sentence integer)
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
