-- Episode files are MP4 on their bytes on every path to submit_episode() (issue 23, item 10).
-- The database cannot read an object's bytes; POST /api/episodes/submit-direct-storage reads the
-- first bytes of each file from Storage and, when they are an MP4's, records here the object at
-- the version it was before the read. A subscriber's submission (public.submit_episode, also
-- when called straight as rpc/submit_episode) refuses any file without such a record for the
-- object's current version: a direct call skips the byte check and is refused, and a file
-- replaced after its check (Storage gives every write a new `version`) must be checked again.
-- Admin resubmission (check_episode_files without an owner) reuses files already submitted, and
-- so checked and locked against replacement (migration 20261126151000): unchanged.
--
--   SQLSTATE  message            HTTP (PostgREST and the api)
--   PT415     file_not_checked   415

-- Written only by the functions' direct connection (as postgres), read only by submit_episode()
-- (security definer): no API role sees it. A record stands for its object's version (a double
-- click may submit a checked file twice, as before); records over a day old are removed by the
-- next check.
create table private.checked_episode_files (
  object_id uuid primary key,
  version text,
  checked_at timestamptz not null default now()
);
alter table private.checked_episode_files enable row level security;
create index checked_episode_files_checked_at on private.checked_episode_files (checked_at);
revoke all on table private.checked_episode_files from public, anon, authenticated, service_role;

-- As before, and for a subscriber's own submission (p_owner given): each file checked at its
-- current version. The object row is locked for share until the submission commits, so an
-- upload replacing it waits and then meets the lock on submitted files.
create or replace function private.check_episode_files(p_files text[], p_owner uuid)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_file text;
begin
  if p_files is null or cardinality(p_files) = 0 then
    raise exception 'no_files' using errcode = '22023', detail = 'Please upload at least one video file before submitting.';
  end if;
  if cardinality(p_files) > 10 then
    raise exception 'too_many_files' using errcode = '22023', detail = 'At most 10 files can be submitted at once.';
  end if;
  if array_position(p_files, null) is not null then
    raise exception 'no_files' using errcode = '22023', detail = 'A file path is empty.';
  end if;
  if (select count(distinct f) from unnest(p_files) f) <> cardinality(p_files) then
    raise exception 'duplicate_file' using errcode = '22023', detail = 'The same file was listed twice.';
  end if;
  foreach v_file in array p_files loop
    if p_owner is not null and split_part(v_file, '/', 1) <> p_owner::text then
      raise exception 'file_not_owned' using errcode = '42501', detail = 'Only your own uploaded files can be submitted.';
    end if;
    perform 1
      from storage.objects o
     where o.bucket_id = 'episodes' and o.name = v_file
       for share;
    if not found then
      raise exception 'file_not_found' using errcode = '22023', detail = format('File %s was not found in storage.', v_file);
    end if;
  end loop;
  if p_owner is null then
    return;
  end if;
  foreach v_file in array p_files loop
    if not exists (select 1
                     from storage.objects o
                     join private.checked_episode_files c on c.object_id = o.id and c.version is not distinct from o.version
                    where o.bucket_id = 'episodes' and o.name = v_file) then
      raise exception 'file_not_checked' using errcode = 'PT415',
        detail = format('Only MP4 video files can be submitted: submit %s through the app, which checks it.', v_file);
    end if;
  end loop;
end
$$;
revoke execute on function private.check_episode_files(text[], uuid) from public, anon, authenticated, service_role;
