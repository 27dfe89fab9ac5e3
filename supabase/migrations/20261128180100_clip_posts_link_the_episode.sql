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

-- It replaces the blog post's own wait (20261128110400_review_before_posting.sql).
drop function private.article_waits(uuid);

-- As in 20261128110400_review_before_posting.sql, a claimed clip now with its processing.
-- Up to p_limit due posts, claimed for ten minutes (a worker that dies mid-post leaves the post
-- due again after that), each with its clip's file and texts (and its processing, for the
-- episode's public link); the full episode with its title, show notes and Drive file; an article
-- with the episode's blog post (its title and Markdown) and whether it is published or a draft.
create or replace function private.claim_due_posts(p_limit integer)
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

-- As in 20261128110400_review_before_posting.sql; its comment names the wait it now takes.
-- Posting starts for the whole episode: every held clip not dropped, in order, and the blog post
-- at once. The episode's suggested title is accepted with it.
create or replace function private.release_episode(p_processing_id uuid, p_at timestamptz)
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
