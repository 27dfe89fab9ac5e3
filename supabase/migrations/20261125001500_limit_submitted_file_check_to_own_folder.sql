-- private.is_submitted_episode_file answered for any path, which let a signed-in user probe
-- whether someone else's path belongs to an episode. Answer only for the caller's own folder
-- (the storage policies call it only there anyway).

create or replace function private.is_submitted_episode_file(object_name text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select split_part(object_name, '/', 1) = (select auth.uid())::text
     and exists (select 1 from public.episodes e where e.files @> array[object_name])
$$;
