-- This file: one profile per auth user: names, brand, podcast details, post settings, onboarding
-- and hosting state, and the brand-assets object paths of the six upload slots. Also the account
-- the SPA loads (current_account) and the rules on the auth user behind it: a profile for every
-- sign-up, the e-mail kept in step, and e-mail changes by operators only.

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
  updated_at timestamptz not null default now(),

  -- When hosting setup began: as onboarding completes (private.start_hosting_setup_on_onboarding),
  -- or when an administrator starts it again (admin_mark_hosting_ready).
  hosting_setup_started_at timestamptz,

  -- Post Settings (review before posting, 12_review.sql). How long after delivery posting may
  -- start without their approval: 'none', '12h', '24h', or 'approval' (never without it). 24 hours
  -- unless they choose.
  review_window text not null default '24h' check (review_window in ('none', '12h', '24h', 'approval')),
  -- The hour of the day (in their time zone) clips are posted at.
  posting_hour smallint not null default 10 check (posting_hour between 0 and 23)
);

-- The console's queue: waiting subscribers, longest waiting first.
create index profiles_hosting_setup_waiting_idx on public.profiles (hosting_setup_started_at, id)
  where hosting_ready_at is null and hosting_setup_started_at is not null;

create trigger profiles_set_updated_at
  before update on public.profiles
  for each row execute function private.set_updated_at();

alter table public.profiles enable row level security;
revoke all on table public.profiles from anon, authenticated;
grant select on table public.profiles to authenticated;
-- What a subscriber may change; id, email, onboarding/hosting state and operator flags are not,
-- nor the brand-asset paths: POST /api/onboarding/submit-with-files checks an asset on its bytes,
-- stores it and sets its path (fields and paths in one update) with the service role.
grant update (
  first_name, last_name, profile_image_url,
  brand_font, brand_color_primary, brand_color_secondary, brand_color_tertiary,
  podcast_title, podcast_description, podcast_author, podcast_copyright, podcast_keywords,
  podcast_website, podcast_language, podcast_timezone, podcast_primary_category,
  podcast_secondary_category, post_automatically, review_window, posting_hour
) on table public.profiles to authenticated;
grant select, insert, update, delete on table public.profiles to service_role;

create policy "Users read their own profile; admins read all"
  on public.profiles for select
  to authenticated
  using (id = (select auth.uid()) or (select private.is_admin()));

create policy "Users update their own profile"
  on public.profiles for update
  to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()));

-- A profile for every new auth user, named from the sign-up metadata (at most 200 characters,
-- the column limit). Whatever the metadata holds, the sign-up goes through: if the names cannot
-- be stored the profile starts without them.
create function private.create_profile_for_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_first text := nullif(left(trim(coalesce(new.raw_user_meta_data ->> 'first_name', new.raw_user_meta_data ->> 'firstName')), 200), '');
  v_last text := nullif(left(trim(coalesce(new.raw_user_meta_data ->> 'last_name', new.raw_user_meta_data ->> 'lastName')), 200), '');
begin
  begin
    insert into public.profiles (id, email, first_name, last_name)
    values (new.id, new.email, v_first, v_last)
    on conflict (id) do nothing;
  exception when others then
    insert into public.profiles (id, email) values (new.id, new.email) on conflict (id) do nothing;
  end;
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

-- Castloop has no e-mail change screen, and with sign-up confirmations off Auth would apply an
-- e-mail change at once: a stolen session could take the account over. So Auth (PUT /user and
-- the admin API alike) can neither change an account's e-mail nor start a change; operators use
-- private.change_user_email() (docs/deploy.md, "Changing a user's e-mail").
create function private.refuse_email_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_setting('castloop.operator_email_change', true) is distinct from 'on' then
    raise exception 'email_change_not_allowed'
      using errcode = '42501', detail = 'E-mail addresses are changed by an operator; contact support.';
  end if;
  return new;
end
$$;
revoke execute on function private.refuse_email_change() from public;

create trigger refuse_email_change
  before update of email, email_change on auth.users
  for each row
  when (old.email is distinct from new.email or coalesce(new.email_change, '') not in ('', coalesce(old.email_change, '')))
  execute function private.refuse_email_change();

-- The operators' way (run as postgres, e.g. in the SQL editor): moves the account, its e-mail
-- identity and its profile to the new address. Not callable through the API. An unknown user is
-- user_not_found (PT404).
create function private.change_user_email(p_user_id uuid, p_new_email text)
returns void
language plpgsql
set search_path = ''
as $$
declare
  v_email text := lower(trim(p_new_email));
begin
  if v_email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    raise exception 'invalid_email' using errcode = '22023', detail = 'Not an e-mail address.';
  end if;
  if exists (select 1 from auth.users where lower(email) = v_email and id <> p_user_id) then
    raise exception 'email_taken' using errcode = '23505', detail = 'Another account has this e-mail address.';
  end if;
  perform set_config('castloop.operator_email_change', 'on', true);
  update auth.users set email = v_email, email_change = '', email_change_token_new = '' where id = p_user_id;
  if not found then
    raise exception 'user_not_found' using errcode = 'PT404', detail = 'No such user.';
  end if;
  update auth.identities
     set identity_data = jsonb_set(identity_data, '{email}', to_jsonb(v_email))
   where user_id = p_user_id and provider = 'email';
  perform set_config('castloop.operator_email_change', 'off', true);
end
$$;
revoke execute on function private.change_user_email(uuid, text) from public, anon, authenticated, service_role;

-- Spec section 3 "User", plus isAdmin (decided by the database from the JWT). Null when the
-- caller has no profile or the token's session ended (signed out), so /api/auth/user stays one
-- database round trip. PL/pgSQL keeps its plans for the connection.
create function public.current_account()
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
begin
  if not private.jwt_session_is_live() then
    return null;
  end if;
  return (
    select jsonb_build_object(
      'id', p.id,
      'email', coalesce(p.email, auth.jwt() ->> 'email'),
      'firstName', p.first_name,
      'lastName', p.last_name,
      'profileImageUrl', p.profile_image_url,
      'subscriptionStatus', s.status,
      'subscriptionTier', s.tier,
      'onboardingCompleted', p.onboarding_completed_at is not null,
      'stripeCustomerId', s.stripe_customer_id,
      'postAutomatically', p.post_automatically,
      'isAdmin', private.is_admin()
    )
    from public.profiles p
    left join public.subscriptions s on s.user_id = p.id
    where p.id = auth.uid()
  );
end
$$;
revoke execute on function public.current_account() from public, anon;
grant execute on function public.current_account() to authenticated, service_role;
