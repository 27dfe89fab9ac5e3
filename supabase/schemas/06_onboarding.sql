-- This file: onboarding. complete_onboarding() checks spec section 5's first-time required fields
-- on the server, then records the completion time; onboarding_profile() reads the caller's profile
-- with each upload slot as {exists, filename} (GET /api/airtable/user-data in one query).
-- complete_onboarding refuses with SQLSTATE 22023, message 'onboarding_incomplete', detail = the
-- missing fields, e.g. 'brandFont, logo' (spec field names, in form order). An uploaded file counts
-- only when its path points at an existing brand-assets object of the slot's type. A value of 'not
-- provided' counts as empty (private.is_blank).

-- Whether a brand-assets object exists at this path with an acceptable type. Runs with the
-- caller's rights, so storage RLS decides which objects the caller can see.
create function private.brand_asset_exists(p_path text, p_mime_types text[])
returns boolean
language sql
stable
set search_path = ''
as $$
  select p_path is not null and exists (
    select 1 from storage.objects o
     where o.bucket_id = 'brand-assets'
       and o.name = p_path
       and (o.metadata ->> 'mimetype' is null or split_part(o.metadata ->> 'mimetype', ';', 1) = any (p_mime_types))
  )
$$;
revoke execute on function private.brand_asset_exists(text, text[]) from public;
grant execute on function private.brand_asset_exists(text, text[]) to authenticated;

-- The spec field names still missing for first-time onboarding, in form order.
create function private.missing_onboarding_fields(p_user uuid)
returns text[]
language plpgsql
stable
set search_path = ''
as $$
declare
  p public.profiles;
  v_missing text[] := '{}';
begin
  select * into p from public.profiles where id = p_user;
  if private.is_blank(p.brand_font) then v_missing := array_append(v_missing, 'brandFont'); end if;
  if private.is_blank(p.brand_color_primary) then v_missing := array_append(v_missing, 'brandColorPrimary'); end if;
  if private.is_blank(p.brand_color_secondary) then v_missing := array_append(v_missing, 'brandColorSecondary'); end if;
  if private.is_blank(p.brand_color_tertiary) then v_missing := array_append(v_missing, 'brandColorTertiary'); end if;
  if private.is_blank(p.podcast_title) then v_missing := array_append(v_missing, 'podcastTitle'); end if;
  if private.is_blank(p.podcast_description) then v_missing := array_append(v_missing, 'podcastDescription'); end if;
  if private.is_blank(p.podcast_primary_category) then v_missing := array_append(v_missing, 'podcastPrimaryCategory'); end if;
  if private.is_blank(p.podcast_author) then v_missing := array_append(v_missing, 'podcastAuthor'); end if;
  if not private.brand_asset_exists(p.logo_path, array['image/png']) then v_missing := array_append(v_missing, 'logo'); end if;
  if not private.brand_asset_exists(p.podcast_cover_path, array['image/jpeg', 'image/jpg']) then
    v_missing := array_append(v_missing, 'podcastCover');
  end if;
  return v_missing;
end
$$;
revoke execute on function private.missing_onboarding_fields(uuid) from public;

create function private.complete_onboarding()
returns timestamptz
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user uuid := (select auth.uid());
  v_missing text[];
  v_completed_at timestamptz;
begin
  if v_user is null then
    raise exception 'not_authenticated' using errcode = '42501', detail = 'Sign in to complete onboarding.';
  end if;
  perform 1 from public.profiles where id = v_user for update;
  if not found then
    raise exception 'not_authenticated' using errcode = '42501', detail = 'No profile for this account.';
  end if;

  v_missing := private.missing_onboarding_fields(v_user);
  if cardinality(v_missing) > 0 then
    raise exception 'onboarding_incomplete'
      using errcode = '22023',
            detail = array_to_string(v_missing, ', '),
            hint = 'Complete all required fields marked with *.';
  end if;

  update public.profiles
     set onboarding_completed_at = coalesce(onboarding_completed_at, now())
   where id = v_user
  returning onboarding_completed_at into v_completed_at;
  return v_completed_at;
end
$$;
revoke execute on function private.complete_onboarding() from public;
grant execute on function private.complete_onboarding() to authenticated;

-- POST /rest/v1/rpc/complete_onboarding: returns current_account() afterwards.
create function public.complete_onboarding()
returns jsonb
language plpgsql
set search_path = ''
as $$
begin
  perform private.complete_onboarding();
  return public.current_account();
end
$$;
revoke execute on function public.complete_onboarding() from public, anon;
grant execute on function public.complete_onboarding() to authenticated;

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

-- The caller's profile for the onboarding form (and the Post Settings section: the review window
-- and the posting hour), or null when no profile data was ever saved.
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
      'reviewWindow', p.review_window,
      'postingHour', p.posting_hour,
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

-- Hosting setup starts when onboarding completes, unless hosting is already ready.
create function private.start_hosting_setup_on_onboarding()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.onboarding_completed_at is null and new.onboarding_completed_at is not null
     and new.hosting_ready_at is null and new.hosting_setup_started_at is null then
    new.hosting_setup_started_at := new.onboarding_completed_at;
  end if;
  return new;
end
$$;
revoke execute on function private.start_hosting_setup_on_onboarding() from public, anon, authenticated, service_role;

create trigger profiles_start_hosting_setup
  before update of onboarding_completed_at on public.profiles
  for each row execute function private.start_hosting_setup_on_onboarding();
