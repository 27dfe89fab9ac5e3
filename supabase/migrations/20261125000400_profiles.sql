-- One profile per auth user: names, brand, podcast details, post settings, onboarding and
-- hosting state, and the brand-assets object paths of the six upload slots.

-- Which upload slot a brand-assets object belongs to, from its path
-- `<user id>/<slot>/<file name>.<ext>`: logo (.png), podcastCover (.jpg/.jpeg), videoIntro,
-- videoOutro, clipIntro, clipOutro (.mp4). Null when the path fits no slot.
create function private.brand_asset_slot(object_name text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when array_length(string_to_array(object_name, '/'), 1) <> 3
      or split_part(object_name, '/', 1) = ''
      or split_part(object_name, '/', 3) !~ '^[^/]+\.[A-Za-z0-9]+$'
      or left(split_part(object_name, '/', 3), 1) = '.'
      then null
    when split_part(object_name, '/', 2) = 'logo'
      and lower(storage.extension(object_name)) = 'png' then 'logo'
    when split_part(object_name, '/', 2) = 'podcastCover'
      and lower(storage.extension(object_name)) in ('jpg', 'jpeg') then 'podcastCover'
    when split_part(object_name, '/', 2) in ('videoIntro', 'videoOutro', 'clipIntro', 'clipOutro')
      and lower(storage.extension(object_name)) = 'mp4' then split_part(object_name, '/', 2)
  end
$$;
revoke execute on function private.brand_asset_slot(text) from public;
grant execute on function private.brand_asset_slot(text) to authenticated, service_role;

create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  email text,
  first_name text check (char_length(first_name) <= 200),
  last_name text check (char_length(last_name) <= 200),
  profile_image_url text check (char_length(profile_image_url) <= 2000),

  brand_font text check (char_length(brand_font) <= 200),
  brand_color_primary text check (brand_color_primary ~ '^[0-9A-Fa-f]{6}$'),
  brand_color_secondary text check (brand_color_secondary ~ '^[0-9A-Fa-f]{6}$'),
  brand_color_tertiary text check (brand_color_tertiary ~ '^[0-9A-Fa-f]{6}$'),

  podcast_title text check (char_length(podcast_title) <= 500),
  podcast_description text check (char_length(podcast_description) <= 10000),
  podcast_author text check (char_length(podcast_author) <= 500),
  podcast_copyright text check (char_length(podcast_copyright) <= 500),
  podcast_keywords text check (char_length(podcast_keywords) <= 2000),
  podcast_website text check (char_length(podcast_website) <= 2000),
  podcast_language text check (podcast_language in ('en', 'es', 'fr', 'de', 'it', 'pt', 'ru', 'ja', 'ko', 'zh', 'ar', 'hi')),
  podcast_timezone text check (char_length(podcast_timezone) <= 50),
  podcast_primary_category text check (char_length(podcast_primary_category) <= 200),
  podcast_secondary_category text check (char_length(podcast_secondary_category) <= 200),

  post_automatically boolean not null default true,

  -- brand-assets object paths, one per upload slot; each must sit in the owner's folder and
  -- the slot's sub-folder with the slot's file type.
  logo_path text constraint profiles_logo_path_check check (
    logo_path is null or (split_part(logo_path, '/', 1) = id::text and private.brand_asset_slot(logo_path) is not distinct from 'logo')),
  podcast_cover_path text constraint profiles_podcast_cover_path_check check (
    podcast_cover_path is null or (split_part(podcast_cover_path, '/', 1) = id::text and private.brand_asset_slot(podcast_cover_path) is not distinct from 'podcastCover')),
  video_intro_path text constraint profiles_video_intro_path_check check (
    video_intro_path is null or (split_part(video_intro_path, '/', 1) = id::text and private.brand_asset_slot(video_intro_path) is not distinct from 'videoIntro')),
  video_outro_path text constraint profiles_video_outro_path_check check (
    video_outro_path is null or (split_part(video_outro_path, '/', 1) = id::text and private.brand_asset_slot(video_outro_path) is not distinct from 'videoOutro')),
  clip_intro_path text constraint profiles_clip_intro_path_check check (
    clip_intro_path is null or (split_part(clip_intro_path, '/', 1) = id::text and private.brand_asset_slot(clip_intro_path) is not distinct from 'clipIntro')),
  clip_outro_path text constraint profiles_clip_outro_path_check check (
    clip_outro_path is null or (split_part(clip_outro_path, '/', 1) = id::text and private.brand_asset_slot(clip_outro_path) is not distinct from 'clipOutro')),

  -- Set by complete_onboarding() only.
  onboarding_completed_at timestamptz,
  -- Set by the operator (service role) once podcast hosting is configured.
  hosting_ready_at timestamptz,
  -- Operator flag: the internal test account may use every social provider.
  is_internal_test_account boolean not null default false,

  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create trigger profiles_set_updated_at
  before update on public.profiles
  for each row execute function private.set_updated_at();

alter table public.profiles enable row level security;
revoke all on table public.profiles from anon, authenticated;
grant select on table public.profiles to authenticated;
-- What a subscriber may change; id, email, onboarding/hosting state and operator flags are not.
grant update (
  first_name, last_name, profile_image_url,
  brand_font, brand_color_primary, brand_color_secondary, brand_color_tertiary,
  podcast_title, podcast_description, podcast_author, podcast_copyright, podcast_keywords,
  podcast_website, podcast_language, podcast_timezone, podcast_primary_category,
  podcast_secondary_category, post_automatically,
  logo_path, podcast_cover_path, video_intro_path, video_outro_path, clip_intro_path, clip_outro_path
) on table public.profiles to authenticated;

create policy "Users read their own profile; admins read all"
  on public.profiles for select
  to authenticated
  using (id = (select auth.uid()) or (select private.is_admin()));

create policy "Users update their own profile"
  on public.profiles for update
  to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()));

-- A profile for every new auth user, named from the sign-up metadata.
create function private.create_profile_for_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.profiles (id, email, first_name, last_name)
  values (
    new.id,
    new.email,
    nullif(trim(coalesce(new.raw_user_meta_data ->> 'first_name', new.raw_user_meta_data ->> 'firstName')), ''),
    nullif(trim(coalesce(new.raw_user_meta_data ->> 'last_name', new.raw_user_meta_data ->> 'lastName')), '')
  )
  on conflict (id) do nothing;
  return new;
end
$$;
revoke execute on function private.create_profile_for_new_user() from public;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function private.create_profile_for_new_user();

-- The profile's e-mail follows the account's.
create function private.sync_profile_email()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.profiles set email = new.email where id = new.id;
  return new;
end
$$;
revoke execute on function private.sync_profile_email() from public;

create trigger on_auth_user_email_changed
  after update of email on auth.users
  for each row
  when (old.email is distinct from new.email)
  execute function private.sync_profile_email();
