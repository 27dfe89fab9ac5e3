-- One submission's work in pieces any worker takes from the queue (issue 28, worker/pieces.ts):
-- the submission job analyses the episode and writes its plan here with the pieces' jobs (one
-- transaction); each piece's file goes to the private processing-pieces bucket and its row to
-- processing_pieces_done; the piece that finds every row there queues the join, once (its job id
-- is the plan id). Server-only: the worker connects as the database owner; nobody else reads them.
--   processing-pieces:  <processing id>/<plan id>/<piece file>   (video/mp4 or audio/mp4)
-- No size limit of its own: a segment of an episode is smaller than the episode (the project's
-- global upload limit applies).

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('processing-pieces', 'processing-pieces', false, null, array['video/mp4', 'audio/mp4'])
on conflict (id) do update
  set public = excluded.public,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;

create table private.processing_plans (
  processing_id uuid primary key references public.episode_processing (id) on delete cascade,
  -- The join's job id too; a submission job run again makes a new plan, and the pieces of the
  -- old one see it and stop.
  plan_id uuid not null unique,
  plan jsonb not null,
  pieces integer not null check (pieces > 0),
  created_at timestamptz not null default now()
);
alter table private.processing_plans enable row level security;
revoke all on table private.processing_plans from public, anon, authenticated, service_role;

create table private.processing_pieces_done (
  plan_id uuid not null references private.processing_plans (plan_id) on delete cascade,
  piece integer not null check (piece >= 0),
  done_at timestamptz not null default now(),
  primary key (plan_id, piece)
);
alter table private.processing_pieces_done enable row level security;
revoke all on table private.processing_pieces_done from public, anon, authenticated, service_role;
