-- Private buckets for episode videos and brand assets. Object paths start with the owner's
-- user id:
--   episodes:      <user id>/<any folders>/<name>.mp4          (video/mp4, at most 3 GiB)
--   brand-assets:  <user id>/<slot>/<file name>.<ext>            (see private.brand_asset_slot;
--                                                                 at most 200 MiB)
-- Users manage only their own folder; administrators read everything. The largest brand asset
-- is a 200 MiB intro/outro video (IMAGE_MAX_BYTES and VIDEO_MAX_BYTES in the shared domain's
-- onboarding.ts); the functions enforce each slot's own limit.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('episodes', 'episodes', false, 3221225472, array['video/mp4']),
  ('brand-assets', 'brand-assets', false, 209715200, array['image/png', 'image/jpeg', 'video/mp4'])
on conflict (id) do update
  set public = excluded.public,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;

-- Episode files already handed to processing must stay put until processed.
create function private.is_submitted_episode_file(object_name text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  -- Only for the caller's own folder: nobody may probe another user's paths.
  select split_part(object_name, '/', 1) = (select auth.uid())::text
     and exists (select 1 from public.episodes e where e.files @> array[object_name])
$$;
revoke execute on function private.is_submitted_episode_file(text) from public;
grant execute on function private.is_submitted_episode_file(text) to authenticated, service_role;

-- ---------------------------------------------------------------- episodes bucket
create policy "Episode videos: owners and admins read"
  on storage.objects for select
  to authenticated
  using (
    bucket_id = 'episodes'
    and ((storage.foldername(name))[1] = (select auth.uid())::text or (select private.is_admin()))
  );

create policy "Episode videos: owners upload MP4s to their folder"
  on storage.objects for insert
  to authenticated
  with check (
    bucket_id = 'episodes'
    and (storage.foldername(name))[1] = (select auth.uid())::text
    and lower(storage.extension(name)) = 'mp4'
  );

create policy "Episode videos: owners replace unsubmitted files"
  on storage.objects for update
  to authenticated
  using (
    bucket_id = 'episodes'
    and (storage.foldername(name))[1] = (select auth.uid())::text
    and not private.is_submitted_episode_file(name)
  )
  with check (
    bucket_id = 'episodes'
    and (storage.foldername(name))[1] = (select auth.uid())::text
    and lower(storage.extension(name)) = 'mp4'
  );

create policy "Episode videos: owners delete unsubmitted files"
  on storage.objects for delete
  to authenticated
  using (
    bucket_id = 'episodes'
    and (storage.foldername(name))[1] = (select auth.uid())::text
    and not private.is_submitted_episode_file(name)
  );

-- ---------------------------------------------------------------- brand-assets bucket
create policy "Brand assets: owners and admins read"
  on storage.objects for select
  to authenticated
  using (
    bucket_id = 'brand-assets'
    and ((storage.foldername(name))[1] = (select auth.uid())::text or (select private.is_admin()))
  );

create policy "Brand assets: owners upload to a slot of their folder"
  on storage.objects for insert
  to authenticated
  with check (
    bucket_id = 'brand-assets'
    and (storage.foldername(name))[1] = (select auth.uid())::text
    and private.brand_asset_slot(name) is not null
  );

create policy "Brand assets: owners replace their files"
  on storage.objects for update
  to authenticated
  using (
    bucket_id = 'brand-assets'
    and (storage.foldername(name))[1] = (select auth.uid())::text
  )
  with check (
    bucket_id = 'brand-assets'
    and (storage.foldername(name))[1] = (select auth.uid())::text
    and private.brand_asset_slot(name) is not null
  );

create policy "Brand assets: owners delete their files"
  on storage.objects for delete
  to authenticated
  using (
    bucket_id = 'brand-assets'
    and (storage.foldername(name))[1] = (select auth.uid())::text
  );
