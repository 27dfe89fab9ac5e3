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
--   * the folder's user's stored bytes (both buckets) stay within their plan's storage quota;
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
-- Why `p_user` may not write `p_bytes` more as (p_bucket, p_name); null when it may. The
-- object's own earlier version (a replacement) does not count.
create function private.storage_write_problem(p_user uuid, p_bucket text, p_name text, p_bytes bigint)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_quota bigint;
  v_used bigint;
begin
  select pl.storage_quota_bytes into v_quota
    from public.subscriptions s
    join public.plans pl on pl.id = s.tier
   where s.user_id = p_user and s.status = 'active';
  if v_quota is null then
    return 'An active subscription is required to upload files.';
  end if;
  select coalesce(sum(case when jsonb_typeof(o.metadata -> 'size') = 'number' then (o.metadata ->> 'size')::bigint else 0 end), 0)
    into v_used
    from storage.objects o
   where o.bucket_id in ('episodes', 'brand-assets')
     and o.name like p_user::text || '/%'
     and not (o.bucket_id = p_bucket and o.name = p_name);
  if v_used + greatest(p_bytes, 0) > v_quota then
    return format('Storage quota reached: your plan keeps up to %s GB and %s GB are in use.',
                  round(v_quota / 1e9, 1), round(v_used / 1e9, 1));
  end if;
  return null;
end
$$;
revoke execute on function private.storage_write_problem(uuid, text, text, bigint) from public, anon, authenticated;
grant execute on function private.storage_write_problem(uuid, text, text, bigint) to service_role;

create function private.enforce_storage_rules()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user uuid;
  v_bytes bigint;
  v_problem text;
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
  if split_part(new.name, '/', 1) !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    raise exception 'Files belong in their owner''s folder.' using errcode = '42501';
  end if;
  v_user := split_part(new.name, '/', 1)::uuid;
  -- Concurrent uploads of one user are counted one after the other.
  perform pg_advisory_xact_lock(hashtextextended('storage-quota:' || v_user::text, 0));
  -- The stored size, or (Storage's test insert before the bytes arrive) the declared one.
  v_bytes := coalesce(
    case when jsonb_typeof(new.metadata -> 'size') = 'number' then (new.metadata ->> 'size')::bigint end,
    case when jsonb_typeof(new.metadata -> 'contentLength') = 'number' then (new.metadata ->> 'contentLength')::bigint end,
    0);
  v_problem := private.storage_write_problem(v_user, new.bucket_id, new.name, v_bytes);
  if v_problem is not null then
    raise exception '%', v_problem using errcode = '42501';
  end if;
  return new;
end
$$;
revoke execute on function private.enforce_storage_rules() from public, anon, authenticated;

create trigger enforce_storage_rules
  before insert or update on storage.objects
  for each row execute function private.enforce_storage_rules();

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
