-- GET /api/airtable/user-data in one query: the caller's profile with each upload slot as
-- {exists, filename}, or null when no profile data was ever saved. Runs with the caller's rights,
-- so storage RLS decides which objects it can see.

grant execute on function private.brand_asset_exists(text, text[]) to authenticated;

create function private.attachment_state(p_path text, p_mime_types text[])
returns jsonb
language sql
stable
set search_path = ''
as $$
  select case
    when private.brand_asset_exists(p_path, p_mime_types)
      -- the object name's last segment without its 12-character unique prefix
      then jsonb_build_object('exists', true, 'filename', regexp_replace(split_part(p_path, '/', 3), '^[0-9a-f]{12}-', ''))
    else jsonb_build_object('exists', false, 'filename', null)
  end
$$;
revoke execute on function private.attachment_state(text, text[]) from public;
grant execute on function private.attachment_state(text, text[]) to authenticated;

create function public.onboarding_profile()
returns jsonb
language sql
stable
set search_path = ''
as $$
  select case
    when p.id is null then null
    when private.is_blank(p.brand_font) and private.is_blank(p.brand_color_primary)
      and private.is_blank(p.brand_color_secondary) and private.is_blank(p.brand_color_tertiary)
      and private.is_blank(p.podcast_title) and private.is_blank(p.podcast_description)
      and private.is_blank(p.podcast_author) and private.is_blank(p.podcast_primary_category)
      and p.logo_path is null and p.podcast_cover_path is null and p.video_intro_path is null
      and p.video_outro_path is null and p.clip_intro_path is null and p.clip_outro_path is null
      then null
    else jsonb_build_object(
      'firstName', p.first_name,
      'lastName', p.last_name,
      'emailAddress', p.email,
      'brandFont', p.brand_font,
      'brandColorPrimary', p.brand_color_primary,
      'brandColorSecondary', p.brand_color_secondary,
      'brandColorTertiary', p.brand_color_tertiary,
      'podcastTitle', p.podcast_title,
      'podcastDescription', p.podcast_description,
      'podcastAuthor', p.podcast_author,
      'podcastCopyright', p.podcast_copyright,
      'podcastKeywords', p.podcast_keywords,
      'podcastWebsite', p.podcast_website,
      'podcastLanguage', p.podcast_language,
      'podcastTimezone', p.podcast_timezone,
      'podcastPrimaryCategory', p.podcast_primary_category,
      'podcastSecondaryCategory', p.podcast_secondary_category,
      'postAutomatically', p.post_automatically,
      'lastUpdated', p.updated_at,
      'logo', private.attachment_state(p.logo_path, array['image/png']),
      'podcastCover', private.attachment_state(p.podcast_cover_path, array['image/jpeg', 'image/jpg']),
      'introVideoClip', private.attachment_state(p.video_intro_path, array['video/mp4']),
      'outroVideoClip', private.attachment_state(p.video_outro_path, array['video/mp4']),
      'introAudioClip', private.attachment_state(p.clip_intro_path, array['video/mp4']),
      'outroAudioClip', private.attachment_state(p.clip_outro_path, array['video/mp4'])
    )
  end
  from (select (select auth.uid()) as uid) caller
  left join public.profiles p on p.id = caller.uid
$$;
revoke execute on function public.onboarding_profile() from public, anon;
grant execute on function public.onboarding_profile() to authenticated;

-- The largest brand asset is a 200 MiB intro/outro video (IMAGE_MAX_BYTES and VIDEO_MAX_BYTES in
-- the shared domain's onboarding.ts); the functions enforce each slot's own limit.
update storage.buckets set file_size_limit = 209715200 where id = 'brand-assets';
