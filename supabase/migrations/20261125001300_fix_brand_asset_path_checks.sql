-- The brand-asset path checks of public.profiles let through a path of the wrong type:
-- `private.brand_asset_slot(path) = 'logo'` is null (so the check passes) when the path fits
-- no slot. Replace them with checks that are false for such paths.

-- Postgres named them profiles_check, profiles_check1, ... (each names two columns).
do $$
declare
  v_name text;
begin
  for v_name in
    select c.conname from pg_catalog.pg_constraint c
     where c.conrelid = 'public.profiles'::regclass
       and c.contype = 'c'
       and pg_catalog.pg_get_constraintdef(c.oid) like '%brand_asset_slot%'
  loop
    execute format('alter table public.profiles drop constraint %I', v_name);
  end loop;
end
$$;

alter table public.profiles
  add constraint profiles_logo_path_check check (
    logo_path is null or (split_part(logo_path, '/', 1) = id::text and private.brand_asset_slot(logo_path) is not distinct from 'logo')),
  add constraint profiles_podcast_cover_path_check check (
    podcast_cover_path is null or (split_part(podcast_cover_path, '/', 1) = id::text and private.brand_asset_slot(podcast_cover_path) is not distinct from 'podcastCover')),
  add constraint profiles_video_intro_path_check check (
    video_intro_path is null or (split_part(video_intro_path, '/', 1) = id::text and private.brand_asset_slot(video_intro_path) is not distinct from 'videoIntro')),
  add constraint profiles_video_outro_path_check check (
    video_outro_path is null or (split_part(video_outro_path, '/', 1) = id::text and private.brand_asset_slot(video_outro_path) is not distinct from 'videoOutro')),
  add constraint profiles_clip_intro_path_check check (
    clip_intro_path is null or (split_part(clip_intro_path, '/', 1) = id::text and private.brand_asset_slot(clip_intro_path) is not distinct from 'clipIntro')),
  add constraint profiles_clip_outro_path_check check (
    clip_outro_path is null or (split_part(clip_outro_path, '/', 1) = id::text and private.brand_asset_slot(clip_outro_path) is not distinct from 'clipOutro'));
