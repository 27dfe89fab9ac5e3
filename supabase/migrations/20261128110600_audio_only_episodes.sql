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
