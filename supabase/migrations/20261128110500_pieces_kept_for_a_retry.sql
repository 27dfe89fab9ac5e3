-- Nothing thrown away (issue 43, item 2). A retry plans the episode again; each piece whose inputs
-- are the same as a piece an earlier attempt of the same episode rendered (its fingerprint: a hash
-- of everything the piece's file depends on, worker/pipeline/plan.ts pieceFingerprint) is copied
-- from that attempt's file instead of rendered again, as long as the file is still in the
-- processing-pieces bucket (the sweep keeps a failed attempt's pieces for
-- ORPHAN_PIECE_RETENTION_HOURS). Server-only: the worker records and asks.

create table private.processing_piece_results (
  episode_id uuid not null references public.episodes (id) on delete cascade,
  fingerprint text not null check (fingerprint ~ '^[0-9a-f]{64}$'),
  processing_id uuid not null references public.episode_processing (id) on delete cascade,
  -- In the processing-pieces bucket.
  object_path text not null check (char_length(object_path) <= 1024),
  -- Copied from an earlier attempt's file rather than rendered.
  reused boolean not null default false,
  created_at timestamptz not null default now(),
  primary key (episode_id, fingerprint)
);
create index processing_piece_results_processing_id_idx on private.processing_piece_results (processing_id);
alter table private.processing_piece_results enable row level security;
revoke all on table private.processing_piece_results from public, anon, authenticated, service_role;

-- A piece rendered for processing p_processing_id, stored at p_object_path: the latest one of its
-- fingerprint for the episode.
create function private.record_piece_result(p_processing_id uuid, p_fingerprint text, p_object_path text, p_reused boolean)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into private.processing_piece_results (episode_id, fingerprint, processing_id, object_path, reused)
  select p.episode_id, p_fingerprint, p.id, p_object_path, p_reused
    from public.episode_processing p
   where p.id = p_processing_id and p.episode_id is not null
  on conflict (episode_id, fingerprint) do update
    set processing_id = excluded.processing_id, object_path = excluded.object_path, reused = excluded.reused, created_at = now()
$$;

-- The stored file of an earlier attempt's piece with this fingerprint, still in the bucket; null
-- when there is none (then the piece is rendered).
create function private.reusable_piece(p_processing_id uuid, p_fingerprint text)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select r.object_path
    from public.episode_processing p
    join private.processing_piece_results r on r.episode_id = p.episode_id and r.fingerprint = p_fingerprint
   where p.id = p_processing_id and r.processing_id <> p.id
     and exists (select 1 from storage.objects o where o.bucket_id = 'processing-pieces' and o.name = r.object_path)
$$;

revoke execute on function private.record_piece_result(uuid, text, text, boolean) from public, anon, authenticated;
revoke execute on function private.reusable_piece(uuid, text) from public, anon, authenticated;
grant execute on function private.record_piece_result(uuid, text, text, boolean) to service_role;
grant execute on function private.reusable_piece(uuid, text) to service_role;
