-- This file: Storage. Private buckets for episode videos and brand assets. Object paths start
-- with the owner's user id:
--   episodes:      <user id>/<any folders>/<name>.mp4          (video/mp4, at most 3 GiB)
--   brand-assets:  <user id>/<slot>/<file name>.<ext>            (see private.brand_asset_slot;
--                                                                 at most 200 MiB)
-- Users read their own folder; administrators read everything. The largest brand asset is a
-- 200 MiB intro/outro video (IMAGE_MAX_BYTES and VIDEO_MAX_BYTES in the shared domain's
-- onboarding.ts); the functions enforce each slot's own limit. A brand asset is checked on its
-- bytes by POST /api/onboarding/submit-with-files, which stores it with the service role:
-- subscribers cannot write the brand-assets bucket directly.
--
-- Storage only for subscribers, within a quota, and submitted files locked. Why a trigger and
-- not (only) RLS: Supabase Storage writes the final row of every upload as its superuser, and a
-- signed upload (createSignedUploadUrl / uploadToSignedUrl) runs no RLS at all (the token carries
-- only the path, the owner and x-upsert). RLS sees at most a test insert made before any byte
-- arrives. A BEFORE INSERT OR UPDATE trigger runs for every role, superuser included, on the row
-- that really lands (with its real size), so these rules hold on hosted Supabase for REST, TUS and
-- signed uploads alike, and for the service role too. For the `episodes` and `brand-assets`
-- buckets:
--   * the folder's user must have an active subscription;
--   * the folder's user's stored bytes (both buckets) and the bytes their open uploads declared
--     stay within their plan's storage quota (kept in private.storage_usage; a replacement counts
--     its new size, not both);
--   * an episode file named by a submitted episode is never replaced, moved or renamed.
--
-- Unfinished resumable uploads count against the quota too, and a subscriber has at most ten
-- open at a time (Storage keeps an open upload for 24 hours, and the database never sees one:
-- Storage's TUS creation checks RLS with an insert it rolls back). An episode upload is opened
-- first (POST /api/objects/upload, as the caller: private.open_episode_upload), which names the
-- object, records the size the upload declares, and refuses when the subscriber already has the
-- most open uploads or their stored and declared bytes would pass the plan's quota. Storage's
-- insert policy for the episodes bucket admits only an object opened this way and still open, so
-- a client cannot skip it. An open upload ends when its object lands (the row is removed), when
-- the subscriber cancels it (private.close_episode_upload), or 24 hours after it was opened.
--
--   SQLSTATE  message                 function                   when
--   42501     not_authenticated       open/close_episode_upload  no caller
--   42501     subscription_required   open_episode_upload        no active subscription
--   22023     invalid_upload_name     open_episode_upload        not an .mp4 in the caller's folder
--   22023     invalid_upload_size     open_episode_upload        not 1 byte .. the bucket's file limit
--   PT409     too_many_open_uploads   open_episode_upload        the most open uploads already
--   PT413     storage_quota_reached   open_episode_upload        stored + open + this > quota

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('episodes', 'episodes', false, 3221225472, array['video/mp4']),
  ('brand-assets', 'brand-assets', false, 209715200, array['image/png', 'image/jpeg', 'video/mp4']);

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

-- ---------------------------------------------------------------- the quota
-- Bytes each user keeps in the two buckets, kept up to date by the trigger below: one row to
-- read and lock per upload, however many files the user has.
create table private.storage_usage (
  user_id uuid primary key,
  bytes bigint not null default 0
);
alter table private.storage_usage enable row level security;
revoke all on table private.storage_usage from public, anon, authenticated;
grant select on table private.storage_usage to service_role;

-- The size an objects row stands for: the stored size, or (Storage's test insert before the
-- bytes arrive) the declared one.
create function private.object_bytes(p_metadata jsonb)
returns bigint
language sql
immutable
set search_path = ''
as $$
  select greatest(coalesce(
    case when jsonb_typeof(p_metadata -> 'size') = 'number' then (p_metadata ->> 'size')::bigint end,
    case when jsonb_typeof(p_metadata -> 'contentLength') = 'number' then (p_metadata ->> 'contentLength')::bigint end,
    0), 0)
$$;
revoke execute on function private.object_bytes(jsonb) from public, anon, authenticated;
grant execute on function private.object_bytes(jsonb) to service_role;

-- The user an object of the two buckets belongs to (its first folder), or null.
create function private.object_user(p_bucket text, p_name text)
returns uuid
language sql
immutable
set search_path = ''
as $$
  select case
    when p_bucket in ('episodes', 'brand-assets')
     and split_part(p_name, '/', 1) ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      then split_part(p_name, '/', 1)::uuid
  end
$$;
revoke execute on function private.object_user(text, text) from public, anon, authenticated;
grant execute on function private.object_user(text, text) to service_role;

-- The storage quota of the user's active plan; null without an active subscription.
create function private.storage_quota_bytes(p_user uuid)
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select pl.storage_quota_bytes
    from public.subscriptions s
    join public.plans pl on pl.id = s.tier
   where s.user_id = p_user and s.status = 'active'
$$;
revoke execute on function private.storage_quota_bytes(uuid) from public, anon, authenticated;
grant execute on function private.storage_quota_bytes(uuid) to service_role;

-- ---------------------------------------------------------------- the rules
-- Before a row is written: submitted files stay put; files go to a subscriber's own folder.
create function private.enforce_storage_rules()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and old.bucket_id = 'episodes'
     and (new.version is distinct from old.version or new.name <> old.name or new.bucket_id <> old.bucket_id)
     and exists (select 1 from public.episodes e where e.files @> array[old.name]) then
    raise exception 'This file was submitted for processing and can no longer be replaced.'
      using errcode = '42501';
  end if;
  if new.bucket_id not in ('episodes', 'brand-assets') then
    return new;
  end if;
  if private.object_user(new.bucket_id, new.name) is null then
    raise exception 'Files belong in their owner''s folder.' using errcode = '42501';
  end if;
  if private.storage_quota_bytes(private.object_user(new.bucket_id, new.name)) is null then
    raise exception 'An active subscription is required to upload files.' using errcode = '42501';
  end if;
  return new;
end
$$;
revoke execute on function private.enforce_storage_rules() from public, anon, authenticated;

create trigger enforce_storage_rules
  before insert or update on storage.objects
  for each row execute function private.enforce_storage_rules();

-- ---------------------------------------------------------------- open uploads
create table private.open_episode_uploads (
  -- The object's name in the `episodes` bucket.
  name text primary key,
  user_id uuid not null references public.profiles (id) on delete cascade,
  declared_bytes bigint not null check (declared_bytes > 0),
  opened_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index open_episode_uploads_user_id_expires_at_idx on private.open_episode_uploads (user_id, expires_at);
alter table private.open_episode_uploads enable row level security;
revoke all on table private.open_episode_uploads from public, anon, authenticated, service_role;

-- The most uploads a subscriber may have open: one submission's files (MAX_EPISODE_FILES in
-- _shared/domain/episodes.ts; tests/db/domain-constants.test.ts holds them equal).
create function private.max_open_episode_uploads()
returns integer
language sql
immutable
set search_path = ''
as $$ select 10 $$;
revoke execute on function private.max_open_episode_uploads() from public, anon;
grant execute on function private.max_open_episode_uploads() to authenticated, service_role;

-- Bytes the user's open uploads declared, for objects not stored yet (a stored one counts in
-- private.storage_usage instead).
create function private.open_upload_bytes(p_user uuid)
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(sum(u.declared_bytes), 0)::bigint
    from private.open_episode_uploads u
   where u.user_id = p_user and u.expires_at > now()
     and not exists (select 1 from storage.objects o where o.bucket_id = 'episodes' and o.name = u.name)
$$;
revoke execute on function private.open_upload_bytes(uuid) from public, anon, authenticated;
grant execute on function private.open_upload_bytes(uuid) to service_role;

-- Opens an upload of p_bytes into the caller's folder; returns {name, expiresAt}. Opening a name
-- the caller already has open again (a resumed upload) renews it with the size it declares now.
create function private.open_episode_upload(p_name text, p_bytes bigint)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user uuid := (select auth.uid());
  v_quota bigint;
  v_stored bigint;
  v_limit bigint;
  v_open integer;
  v_expires timestamptz := now() + interval '24 hours';
begin
  if v_user is null then
    raise exception 'not_authenticated' using errcode = '42501', detail = 'Sign in to upload files.';
  end if;
  if p_name is null or char_length(p_name) > 1024
     or (storage.foldername(p_name))[1] is distinct from v_user::text
     or lower(storage.extension(p_name)) <> 'mp4' then
    raise exception 'invalid_upload_name' using errcode = '22023', detail = 'Episode files go to your own folder as .mp4 files.';
  end if;
  select b.file_size_limit into v_limit from storage.buckets b where b.id = 'episodes';
  if p_bytes is null or p_bytes < 1 or (v_limit is not null and p_bytes > v_limit) then
    raise exception 'invalid_upload_size' using errcode = '22023',
      detail = format('A file must be between 1 byte and %s GB.', round(coalesce(v_limit, 0) / 1024.0 ^ 3, 1));
  end if;
  v_quota := private.storage_quota_bytes(v_user);
  if v_quota is null then
    raise exception 'subscription_required' using errcode = '42501', detail = 'An active subscription is required to upload files.';
  end if;

  -- One opening at a time per user, and none while one of their uploads lands (the same row the
  -- usage trigger updates).
  insert into private.storage_usage (user_id) values (v_user) on conflict (user_id) do nothing;
  select u.bytes into v_stored from private.storage_usage u where u.user_id = v_user for update;

  delete from private.open_episode_uploads where user_id = v_user and expires_at <= now();
  delete from private.open_episode_uploads where name = p_name and user_id = v_user;

  select count(*) into v_open from private.open_episode_uploads u
   where u.user_id = v_user
     and not exists (select 1 from storage.objects o where o.bucket_id = 'episodes' and o.name = u.name);
  if v_open >= private.max_open_episode_uploads() then
    raise exception 'too_many_open_uploads' using errcode = 'PT409',
      detail = format('You already have %s uploads in progress. Let one finish, or remove it, before starting another.', v_open);
  end if;
  if v_stored + private.open_upload_bytes(v_user) + p_bytes > v_quota then
    raise exception 'storage_quota_reached' using errcode = 'PT413',
      detail = format('Storage quota reached: your plan keeps up to %s GB, and %s GB are stored or being uploaded.',
                      round(v_quota / 1e9, 1), round((v_stored + private.open_upload_bytes(v_user)) / 1e9, 1));
  end if;

  insert into private.open_episode_uploads (name, user_id, declared_bytes, expires_at)
  values (p_name, v_user, p_bytes, v_expires);
  return jsonb_build_object('name', p_name, 'expiresAt', v_expires);
end
$$;
revoke execute on function private.open_episode_upload(text, bigint) from public, anon, service_role;
grant execute on function private.open_episode_upload(text, bigint) to authenticated;

-- Ends the caller's open upload of p_name (they cancelled it); nothing when there is none.
create function private.close_episode_upload(p_name text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if (select auth.uid()) is null then
    raise exception 'not_authenticated' using errcode = '42501', detail = 'Sign in to upload files.';
  end if;
  delete from private.open_episode_uploads where name = p_name and user_id = (select auth.uid());
end
$$;
revoke execute on function private.close_episode_upload(text) from public, anon, service_role;
grant execute on function private.close_episode_upload(text) to authenticated;

-- POST /rest/v1/rpc/open_episode_upload {name, bytes}: {name, expiresAt}.
create function public.open_episode_upload(name text, bytes bigint)
returns jsonb
language sql
set search_path = ''
as $$ select private.open_episode_upload(name, bytes) $$;
revoke execute on function public.open_episode_upload(text, bigint) from public, anon, service_role;
grant execute on function public.open_episode_upload(text, bigint) to authenticated;

-- POST /rest/v1/rpc/close_episode_upload {name}.
create function public.close_episode_upload(name text)
returns void
language sql
set search_path = ''
as $$ select private.close_episode_upload(name) $$;
revoke execute on function public.close_episode_upload(text) from public, anon, service_role;
grant execute on function public.close_episode_upload(text) to authenticated;

-- Whether the caller has p_name open for an object of its size (for Storage's insert policy:
-- its test insert at a TUS creation, which carries the declared size, a signed upload's signing
-- and a plain upload alike; a row that says no size passes on the name).
create function private.is_open_episode_upload(p_name text, p_metadata jsonb)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from private.open_episode_uploads u
                  where u.name = p_name and u.user_id = (select auth.uid()) and u.expires_at > now()
                    and private.object_bytes(p_metadata) <= u.declared_bytes)
$$;
revoke execute on function private.is_open_episode_upload(text, jsonb) from public, anon, service_role;
grant execute on function private.is_open_episode_upload(text, jsonb) to authenticated;

-- ---------------------------------------------------------------- episodes bucket
create policy "Episode videos: owners and admins read"
  on storage.objects for select
  to authenticated
  using (
    bucket_id = 'episodes'
    and ((storage.foldername(name))[1] = (select auth.uid())::text or (select private.is_admin()))
  );

create policy "Episode videos: owners upload the MP4s they opened"
  on storage.objects for insert
  to authenticated
  with check (
    bucket_id = 'episodes'
    and (storage.foldername(name))[1] = (select auth.uid())::text
    and lower(storage.extension(name)) = 'mp4'
    and private.is_open_episode_upload(name, metadata)
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
-- Read and delete only: uploads and replacements go through the api (see above).
create policy "Brand assets: owners and admins read"
  on storage.objects for select
  to authenticated
  using (
    bucket_id = 'brand-assets'
    and ((storage.foldername(name))[1] = (select auth.uid())::text or (select private.is_admin()))
  );

create policy "Brand assets: owners delete their files"
  on storage.objects for delete
  to authenticated
  using (
    bucket_id = 'brand-assets'
    and (storage.foldername(name))[1] = (select auth.uid())::text
  );

-- ---------------------------------------------------------------- usage
-- After each statement that writes or removes rows: the users' usage follows (one update per
-- user, however many rows), and a statement that grows a user's usage, with what their open
-- uploads declared (private.open_upload_bytes), past the quota fails (undoing it). The usage
-- row's lock serializes one user's concurrent uploads.
create function private.account_storage_usage()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_over record;
begin
  -- Transition tables exist per event: old_rows for UPDATE/DELETE, new_rows for INSERT/UPDATE.
  create temporary table if not exists pg_temp.storage_usage_delta (user_id uuid, bytes bigint) on commit drop;
  truncate pg_temp.storage_usage_delta;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into pg_temp.storage_usage_delta
    select private.object_user(bucket_id, name), private.object_bytes(metadata) from new_rows;
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    insert into pg_temp.storage_usage_delta
    select private.object_user(bucket_id, name), -private.object_bytes(metadata) from old_rows;
  end if;

  insert into private.storage_usage as u (user_id, bytes)
  select user_id, greatest(sum(bytes), 0) from pg_temp.storage_usage_delta where user_id is not null group by user_id
  on conflict (user_id) do update set bytes = greatest(u.bytes + (
    select sum(d.bytes) from pg_temp.storage_usage_delta d where d.user_id = excluded.user_id), 0);

  select u.user_id, u.bytes, d.delta, private.storage_quota_bytes(u.user_id) as quota,
         private.open_upload_bytes(u.user_id) as open_bytes into v_over
    from (select user_id, sum(bytes) as delta from pg_temp.storage_usage_delta where user_id is not null group by user_id) d
    join private.storage_usage u on u.user_id = d.user_id
   where d.delta > 0 and u.bytes + private.open_upload_bytes(u.user_id) > coalesce(private.storage_quota_bytes(u.user_id), 0)
   limit 1;
  if found then
    raise exception 'Storage quota reached: your plan keeps up to % GB and % GB are in use.',
      round(coalesce(v_over.quota, 0) / 1e9, 1), round((v_over.bytes + v_over.open_bytes - v_over.delta) / 1e9, 1)
      using errcode = '42501';
  end if;
  return null;
end
$$;
revoke execute on function private.account_storage_usage() from public, anon, authenticated;

create trigger account_storage_usage_insert
  after insert on storage.objects
  referencing new table as new_rows
  for each statement execute function private.account_storage_usage();
create trigger account_storage_usage_update
  after update on storage.objects
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.account_storage_usage();
create trigger account_storage_usage_delete
  after delete on storage.objects
  referencing old table as old_rows
  for each statement execute function private.account_storage_usage();

-- A landed object's upload is no longer open: its bytes count in storage_usage from now on.
create function private.end_open_episode_upload()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from private.open_episode_uploads u using new_rows n where n.bucket_id = 'episodes' and u.name = n.name;
  return null;
end
$$;
revoke execute on function private.end_open_episode_upload() from public, anon, authenticated, service_role;

create trigger end_open_episode_upload
  after insert on storage.objects
  referencing new table as new_rows
  for each statement execute function private.end_open_episode_upload();

-- ---------------------------------------------------------------- unsubmitted uploads
-- Episode files no episode names, older than p_age: the `storage-cleanup` function deletes them
-- through the Storage API (hosted Supabase refuses SQL deletes on storage.objects).
create function private.stale_episode_uploads(p_age interval, p_limit integer)
returns setof text
language sql
stable
security definer
set search_path = ''
as $$
  select o.name
    from storage.objects o
   where o.bucket_id = 'episodes'
     and o.created_at < now() - p_age
     and not exists (select 1 from public.episodes e where e.files @> array[o.name])
   order by o.created_at
   limit p_limit
$$;
revoke execute on function private.stale_episode_uploads(interval, integer) from public, anon, authenticated;
grant execute on function private.stale_episode_uploads(interval, integer) to service_role;
