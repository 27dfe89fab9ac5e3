-- Storage only for subscribers, within a quota, and submitted files locked (issue 23, items 6,
-- 10 and 11).
--
-- Why a trigger and not (only) RLS: Supabase Storage writes the final row of every upload as its
-- superuser, and a signed upload (createSignedUploadUrl / uploadToSignedUrl) runs no RLS at all
-- (the token carries only the path, the owner and x-upsert). RLS sees at most a test insert made
-- before any byte arrives. A BEFORE INSERT OR UPDATE trigger runs for every role, superuser
-- included, on the row that really lands (with its real size), so these rules hold on hosted
-- Supabase for REST, TUS and signed uploads alike, and for the service role too.
--
-- Rules, for the `episodes` and `brand-assets` buckets (object names start with the user id):
--   * the folder's user must have an active subscription;
--   * the folder's user's stored bytes (both buckets) stay within their plan's storage quota
--     (kept in private.storage_usage; a replacement counts its new size, not both);
--   * an episode file named by a submitted episode is never replaced, moved or renamed.

-- ---------------------------------------------------------------- quota per plan
alter table public.plans
  add column storage_quota_bytes bigint not null default 53687091200 check (storage_quota_bytes > 0);
comment on column public.plans.storage_quota_bytes is
  'Bytes a subscriber on this plan may keep in Storage (episode uploads and brand assets). See docs/decisions.md.';

-- A submission is at most 10 files of 3 GiB: every plan holds a few full submissions.
update public.plans set storage_quota_bytes = case id
  when 'starter' then 50::bigint * 1024 * 1024 * 1024
  when 'growth' then 100::bigint * 1024 * 1024 * 1024
  when 'scale' then 250::bigint * 1024 * 1024 * 1024
  when 'enterprise' then 1024::bigint * 1024 * 1024 * 1024
  else storage_quota_bytes
end;

-- ---------------------------------------------------------------- the rules
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

-- After each statement that writes or removes rows: the users' usage follows (one update per
-- user, however many rows), and a statement that grows a user's usage past the quota fails
-- (undoing it). The usage row's lock serializes one user's concurrent uploads.
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

  select u.user_id, u.bytes, d.delta, private.storage_quota_bytes(u.user_id) as quota into v_over
    from (select user_id, sum(bytes) as delta from pg_temp.storage_usage_delta where user_id is not null group by user_id) d
    join private.storage_usage u on u.user_id = d.user_id
   where d.delta > 0 and u.bytes > coalesce(private.storage_quota_bytes(u.user_id), 0)
   limit 1;
  if found then
    raise exception 'Storage quota reached: your plan keeps up to % GB and % GB are in use.',
      round(coalesce(v_over.quota, 0) / 1e9, 1), round((v_over.bytes - v_over.delta) / 1e9, 1)
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

-- The usage of the files stored so far.
insert into private.storage_usage (user_id, bytes)
select private.object_user(bucket_id, name), sum(private.object_bytes(metadata))
  from storage.objects
 where private.object_user(bucket_id, name) is not null
 group by 1;

-- ---------------------------------------------------------------- brand assets: the api only
-- A brand asset is checked on its bytes by POST /api/onboarding/submit-with-files, which stores
-- it and sets its path with the service role. Subscribers can no longer write either directly.
drop policy "Brand assets: owners upload to a slot of their folder" on storage.objects;
drop policy "Brand assets: owners replace their files" on storage.objects;
revoke update (logo_path, podcast_cover_path, video_intro_path, video_outro_path, clip_intro_path, clip_outro_path)
  on table public.profiles from authenticated;
-- The api writes a save with files (fields and paths in one update) with the service role.
grant select, update on table public.profiles to service_role;
grant select on table public.plans, public.subscriptions, public.episodes to service_role;

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

select cron.schedule(
  'storage-cleanup',
  '17 * * * *',
  $$ select private.invoke_edge_function('storage-cleanup') $$
);
