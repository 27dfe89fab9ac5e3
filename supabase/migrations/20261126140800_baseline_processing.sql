-- Built-in processing: Castloop's own worker (worker/) turns each submission into the finished
-- episode and its clips, delivers them to the subscriber's Google Drive and schedules posts.
-- Which automation handles submissions is configuration (private.automation_settings): the
-- built-in worker (default) or the external webhook of the outbox. One automation per
-- submission, never both: the one active when a submission (or resubmission) is logged takes
-- it, in the same transaction. Switching later does not move submissions already taken.
--
-- Flow: a new submission log (submitted or resubmitted) gets an episode_processing row here, by
-- trigger, in the same transaction, and the outbox row written next is created skipped. The
-- worker's feeder moves queued rows into its job queue (pg-boss, a schema the worker installs
-- when it starts, so nothing here depends on it) and records progress and the outcome on the
-- row, which the owner and administrators read.

create table private.automation_settings (
  -- A single row.
  id boolean primary key default true check (id),
  automation text not null default 'builtin' check (automation in ('builtin', 'webhook')),
  updated_at timestamptz not null default now()
);
alter table private.automation_settings enable row level security;
revoke all on table private.automation_settings from public, anon, authenticated;
insert into private.automation_settings default values;

create trigger automation_settings_set_updated_at
  before update on private.automation_settings
  for each row execute function private.set_updated_at();

-- 'builtin' or 'webhook': which automation processes new submissions.
create function private.active_automation()
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select s.automation from private.automation_settings s), 'builtin')
$$;
revoke execute on function private.active_automation() from public;
grant execute on function private.active_automation() to service_role;

create table public.episode_processing (
  id uuid primary key default gen_random_uuid(),
  submission_log_id uuid not null unique references public.submission_logs (id) on delete cascade,
  episode_id uuid references public.episodes (id) on delete set null,
  user_id uuid references public.profiles (id) on delete cascade,
  -- queued: waiting for a worker; processing: a worker has it; delivered: every file is in the
  -- subscriber's Drive (and posts are scheduled); failed: given up, failure_reason says why.
  status text not null default 'queued' check (status in ('queued', 'processing', 'delivered', 'failed')),
  -- What the worker is doing now (downloading, analysing, rendering, uploading, scheduling).
  stage text check (char_length(stage) <= 100),
  progress integer not null default 0 check (progress between 0 and 100),
  attempts integer not null default 0 check (attempts >= 0),
  failure_reason text check (char_length(failure_reason) <= 2000),
  -- The worker (host/pid) that holds or last held the job.
  worker text check (char_length(worker) <= 200),
  -- When the worker's queue took the row (null: not yet).
  enqueued_at timestamptz,
  started_at timestamptz,
  finished_at timestamptz,
  drive_folder_id text,
  drive_folder_url text,
  -- [{name, kind: episode|clip, durationSeconds, width, height, startSeconds, driveFileId}]
  outputs jsonb not null default '[]' check (jsonb_typeof(outputs) = 'array'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index episode_processing_user_id_idx on public.episode_processing (user_id);
create index episode_processing_episode_id_idx on public.episode_processing (episode_id);
create index episode_processing_not_enqueued_idx on public.episode_processing (created_at)
  where enqueued_at is null and status = 'queued';

create trigger episode_processing_set_updated_at
  before update on public.episode_processing
  for each row execute function private.set_updated_at();

alter table public.episode_processing enable row level security;
revoke all on table public.episode_processing from anon, authenticated;
grant select on table public.episode_processing to authenticated;
grant select, insert, update, delete on table public.episode_processing to service_role;

create policy "Users read their own episode processing; admins read all"
  on public.episode_processing for select
  to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

-- Clip posts scheduled by the worker when the subscriber posts automatically: one clip every
-- daysBetweenClips days per connected platform. The worker posts them when due.
create table public.scheduled_posts (
  id uuid primary key default gen_random_uuid(),
  episode_processing_id uuid not null references public.episode_processing (id) on delete cascade,
  user_id uuid references public.profiles (id) on delete cascade,
  -- Posts go to the social providers: never to the Google Drive one.
  provider public.provider not null check (provider <> 'google'),
  clip_name text not null check (char_length(clip_name) <= 500),
  drive_file_id text not null,
  scheduled_for timestamptz not null,
  status text not null default 'scheduled' check (status in ('scheduled', 'posted', 'failed')),
  attempts integer not null default 0 check (attempts >= 0),
  -- A worker posting it (or waiting to retry) holds it until then.
  locked_until timestamptz,
  external_id text,
  last_error text check (char_length(last_error) <= 2000),
  posted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- A retried job schedules the same post once.
  unique (episode_processing_id, provider, clip_name)
);
create index scheduled_posts_user_id_idx on public.scheduled_posts (user_id);
create index scheduled_posts_due_idx on public.scheduled_posts (scheduled_for) where status = 'scheduled';

create trigger scheduled_posts_set_updated_at
  before update on public.scheduled_posts
  for each row execute function private.set_updated_at();

alter table public.scheduled_posts enable row level security;
revoke all on table public.scheduled_posts from anon, authenticated;
grant select on table public.scheduled_posts to authenticated;
grant select, insert, update, delete on table public.scheduled_posts to service_role;

create policy "Users read their own scheduled posts; admins read all"
  on public.scheduled_posts for select
  to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

-- Every new submission log becomes a processing row when the built-in automation is active;
-- workers listening on channel episode_processing pick it up at once (they also poll).
create function private.queue_episode_processing()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_id uuid;
begin
  if new.status not in ('submitted', 'resubmitted') or private.active_automation() <> 'builtin' then
    return new;
  end if;
  insert into public.episode_processing (submission_log_id, episode_id, user_id)
  values (new.id, new.episode_id, new.user_id)
  on conflict (submission_log_id) do nothing
  returning id into v_id;
  if v_id is not null then
    perform pg_notify('episode_processing', v_id::text);
  end if;
  return new;
end
$$;
revoke execute on function private.queue_episode_processing() from public;

create trigger submission_logs_queue_episode_processing
  after insert on public.submission_logs
  for each row execute function private.queue_episode_processing();

-- The outbox stands aside (skipped_at) when the built-in worker took the submission, so it
-- never posts a submission the worker is processing.
create function private.skip_delivery_taken_by_worker()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.episode_processing p where p.submission_log_id = new.submission_log_id) then
    new.skipped_at := now();
  end if;
  return new;
end
$$;
revoke execute on function private.skip_delivery_taken_by_worker() from public;

create trigger webhook_deliveries_skip_taken_by_worker
  before insert on public.webhook_deliveries
  for each row execute function private.skip_delivery_taken_by_worker();
