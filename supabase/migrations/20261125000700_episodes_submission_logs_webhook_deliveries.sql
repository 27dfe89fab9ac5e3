-- Episodes, the log of every submission attempt (originals and admin resubmissions) and the
-- outbox of automation-webhook deliveries. Rows are created only by submit_episode() and
-- resubmit_submission(); users and admins read them through RLS.

create table public.episodes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  title text not null check (char_length(title) between 1 and 500),
  -- Object paths in bucket `episodes`, each under `<user_id>/`.
  files text[] not null check (cardinality(files) between 1 and 10),
  start_timestamp text check (start_timestamp ~ '^([01]?[0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$'),
  end_timestamp text check (end_timestamp ~ '^([01]?[0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$'),
  add_logo boolean not null default true,
  add_intro_outro boolean not null default true,
  clip_style text not null default 'DEFAULT' check (clip_style in ('DEFAULT', 'PROFESSIONAL', 'CREATIVE')),
  days_between_clips integer not null default 1 check (days_between_clips between 1 and 30),
  submitted_at timestamptz not null default now()
);
-- Monthly counts and the recent-episodes list.
create index episodes_user_id_submitted_at_idx on public.episodes (user_id, submitted_at desc);

alter table public.episodes enable row level security;
revoke all on table public.episodes from anon, authenticated;
grant select on table public.episodes to authenticated;

create policy "Users read their own episodes; admins read all"
  on public.episodes for select
  to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

create table public.submission_logs (
  id uuid primary key default gen_random_uuid(),
  episode_id uuid references public.episodes (id) on delete set null,
  user_id uuid references public.profiles (id) on delete set null,
  user_email text not null,
  -- submitted: accepted, delivery pending; delivered: the webhook took it; failed: delivery
  -- gave up; resubmitted: an administrator sent it again (a new log row).
  status text not null default 'submitted' check (status in ('submitted', 'delivered', 'failed', 'resubmitted')),
  object_storage_files text[] not null check (cardinality(object_storage_files) >= 1),
  -- {startTimestamp, endTimestamp, clipStyle, daysBetweenClips, addLogo, addIntroOutro}
  submission_parameters jsonb not null default '{}',
  original_log_id uuid references public.submission_logs (id) on delete set null,
  -- The administrator who resubmitted (null for a user's own submission).
  submitted_by uuid references public.profiles (id) on delete set null,
  submitted_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index submission_logs_episode_id_idx on public.submission_logs (episode_id);
create index submission_logs_user_id_idx on public.submission_logs (user_id);
create index submission_logs_original_log_id_idx on public.submission_logs (original_log_id);
create index submission_logs_submitted_by_idx on public.submission_logs (submitted_by);
create index submission_logs_submitted_at_idx on public.submission_logs (submitted_at desc);

create trigger submission_logs_set_updated_at
  before update on public.submission_logs
  for each row execute function private.set_updated_at();

alter table public.submission_logs enable row level security;
revoke all on table public.submission_logs from anon, authenticated;
grant select on table public.submission_logs to authenticated;

create policy "Users read their own submission logs; admins read all"
  on public.submission_logs for select
  to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

-- Outbox: one row per webhook delivery, retried by the outbox worker (service role) until
-- delivered. Admins can see it; nobody else.
create table public.webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  submission_log_id uuid not null references public.submission_logs (id) on delete cascade,
  payload jsonb not null,
  attempts integer not null default 0 check (attempts >= 0),
  next_attempt_at timestamptz not null default now(),
  last_error text,
  last_status integer,
  delivered_at timestamptz,
  -- When the worker gave up (attempts exhausted); the log is then marked failed.
  failed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index webhook_deliveries_submission_log_id_idx on public.webhook_deliveries (submission_log_id);
create index webhook_deliveries_due_idx on public.webhook_deliveries (next_attempt_at)
  where delivered_at is null and failed_at is null;

create trigger webhook_deliveries_set_updated_at
  before update on public.webhook_deliveries
  for each row execute function private.set_updated_at();

alter table public.webhook_deliveries enable row level security;
revoke all on table public.webhook_deliveries from anon, authenticated;
grant select on table public.webhook_deliveries to authenticated;

create policy "Admins read webhook deliveries"
  on public.webhook_deliveries for select
  to authenticated
  using ((select private.is_admin()));
