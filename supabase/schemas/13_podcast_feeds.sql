-- This file: podcast hosting (issue 44; docs/decisions.md "Podcast hosting"). Each onboarded
-- subscriber has one feed: a static RSS file in the public podcast-feeds bucket
-- (`feeds/<feed key>.xml`, the key random and unguessable), built by the `podcast-feed-builder`
-- Edge Function from the profile's podcast details and every delivered episode's podcast files.
-- Podcast apps fetch it from Storage (and its CDN): no request of theirs reaches the database. A
-- rebuild is queued here, by triggers, whenever something the feed shows changes; the function
-- builds the queued feeds (Supabase Cron every minute, 11_scheduled_jobs.sql, and a call at once
-- when a feed becomes due), validates each against Apple's requirements, and the first feed that
-- passes after onboarding sets hosting_ready_at: the hosting-setup block clears without an
-- operator.

-- ---------------------------------------------------------------- the episodes' podcast files

-- The files a podcast feed serves for each delivered episode: the episode's sound as podcast apps
-- expect it (AAC in an M4A, loudness-normalised to -16 LUFS, as the episode's own sound already
-- is) and its WebVTT transcript, in the public `podcast-feeds` bucket, served by Storage with range
-- requests. The worker puts them there when it delivers the episode and records them here
-- (private.record_podcast_files); the feed is built from these rows.
--   podcast-feeds:  episodes/<episode id>/<processing id>.m4a | .vtt
-- The episode id is its GUID in the feed: stable however often it is processed again or edited.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('podcast-feeds', 'podcast-feeds', true, null,
        array['audio/mp4', 'text/vtt', 'application/json', 'application/rss+xml', 'application/xml', 'image/jpeg', 'image/png']);

create table public.podcast_episode_files (
  episode_id uuid primary key references public.episodes (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  episode_processing_id uuid not null references public.episode_processing (id) on delete cascade,
  -- Object paths in the podcast-feeds bucket.
  audio_path text not null check (char_length(audio_path) <= 1024),
  audio_bytes bigint not null check (audio_bytes > 0),
  duration_seconds numeric not null check (duration_seconds > 0),
  transcript_path text check (char_length(transcript_path) <= 1024),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index podcast_episode_files_user_id_idx on public.podcast_episode_files (user_id);
create index podcast_episode_files_episode_processing_id_idx on public.podcast_episode_files (episode_processing_id);

create trigger podcast_episode_files_set_updated_at
  before update on public.podcast_episode_files
  for each row execute function private.set_updated_at();

alter table public.podcast_episode_files enable row level security;
revoke all on table public.podcast_episode_files from anon, authenticated;
grant select on table public.podcast_episode_files to authenticated;
grant select, insert, update, delete on table public.podcast_episode_files to service_role;

create policy "Users read their own podcast files"
  on public.podcast_episode_files for select
  to authenticated
  using (user_id = (select auth.uid()));

-- The episode's podcast files, replacing an earlier processing's (the worker removes nothing the
-- feed may still name until the new files are recorded).
create function private.record_podcast_files(p_processing_id uuid, p_audio_path text, p_audio_bytes bigint,
                                             p_duration_seconds numeric, p_transcript_path text)
returns void
language plpgsql
set search_path = ''
as $$
declare
  v_processing public.episode_processing;
begin
  select * into v_processing from public.episode_processing where id = p_processing_id;
  if not found or v_processing.episode_id is null or v_processing.user_id is null then
    raise exception 'processing_not_found' using errcode = 'PT404', detail = 'No episode of this processing.';
  end if;
  insert into public.podcast_episode_files (episode_id, user_id, episode_processing_id, audio_path, audio_bytes, duration_seconds, transcript_path)
  values (v_processing.episode_id, v_processing.user_id, p_processing_id, p_audio_path, p_audio_bytes, p_duration_seconds, p_transcript_path)
  on conflict (episode_id) do update
     set episode_processing_id = excluded.episode_processing_id, audio_path = excluded.audio_path, audio_bytes = excluded.audio_bytes,
         duration_seconds = excluded.duration_seconds, transcript_path = excluded.transcript_path;
end
$$;
revoke execute on function private.record_podcast_files(uuid, text, bigint, numeric, text) from public, anon, authenticated;
grant execute on function private.record_podcast_files(uuid, text, bigint, numeric, text) to service_role;

-- ---------------------------------------------------------------- the feed

-- What the subscriber reads of their feed (GET /api/podcast-feed).
create table public.podcast_feeds (
  user_id uuid primary key references public.profiles (id) on delete cascade,
  -- 32 hex characters of a random UUID (122 random bits): the feed's address is its only key.
  feed_key text not null unique default replace(gen_random_uuid()::text, '-', '')
    check (feed_key ~ '^[0-9a-f]{32}$'),
  status text not null default 'building' check (status in ('building', 'valid', 'invalid')),
  -- What Apple Podcasts would refuse, in words; empty when the feed passes.
  problems text[] not null default '{}',
  episode_count integer not null default 0 check (episode_count >= 0),
  built_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create trigger podcast_feeds_set_updated_at
  before update on public.podcast_feeds
  for each row execute function private.set_updated_at();

alter table public.podcast_feeds enable row level security;
revoke all on table public.podcast_feeds from anon, authenticated;
grant select on table public.podcast_feeds to authenticated;
grant select, insert, update, delete on table public.podcast_feeds to service_role;

create policy "Users read their own podcast feed"
  on public.podcast_feeds for select
  to authenticated
  using (user_id = (select auth.uid()));

-- The build queue and what the builder keeps between builds (server only). requested_at is set
-- (to the time of the latest change) while the feed is due; a build clears it only if nothing
-- asked again meanwhile. A run leases the row while it builds.
create table private.podcast_feed_builds (
  user_id uuid primary key references public.podcast_feeds (user_id) on delete cascade,
  requested_at timestamptz,
  leased_until timestamptz,
  attempts integer not null default 0,
  last_error text,
  -- The brand-assets object last copied to the public bucket, its copy, and its problems.
  artwork_source_path text,
  artwork_path text,
  artwork_problems text[] not null default '{}',
  -- Each episode's chapters file as last written: {episode id: hash of its JSON}.
  chapter_hashes jsonb not null default '{}'::jsonb
);
create index podcast_feed_builds_due_idx on private.podcast_feed_builds (requested_at) where requested_at is not null;
alter table private.podcast_feed_builds enable row level security;
revoke all on table private.podcast_feed_builds from public, anon, authenticated, service_role;

-- Calls the builder now (pg_net, sent after the transaction commits). Never fails the change that
-- asked: without pg_net or the Vault secrets the every-minute schedule builds the feed instead.
create function private.call_podcast_feed_builder()
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.invoke_edge_function('podcast-feed-builder');
exception when others then
  null;
end
$$;
revoke execute on function private.call_podcast_feed_builder() from public, anon, authenticated, service_role;

-- Queues a rebuild of the subscriber's feed (nothing when they have none yet), calling the builder
-- when the feed was up to date (a feed already due is built by the run that has it, or the next).
create function private.request_podcast_feed_build(p_user uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_was_due boolean;
begin
  select requested_at is not null into v_was_due from private.podcast_feed_builds where user_id = p_user for update;
  if not found then
    return;
  end if;
  update private.podcast_feed_builds set requested_at = clock_timestamp() where user_id = p_user;
  if not v_was_due then
    perform private.call_podcast_feed_builder();
  end if;
end
$$;
revoke execute on function private.request_podcast_feed_build(uuid) from public, anon, authenticated, service_role;

-- The feed exists once onboarding completes; it is rebuilt when the profile's podcast details,
-- artwork or e-mail (the feed's owner) change.
create function private.podcast_feed_follows_profile()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.onboarding_completed_at is not null and old.onboarding_completed_at is null then
    insert into public.podcast_feeds (user_id) values (new.id) on conflict (user_id) do nothing;
    insert into private.podcast_feed_builds (user_id) values (new.id) on conflict (user_id) do nothing;
    perform private.request_podcast_feed_build(new.id);
  elsif (old.podcast_title, old.podcast_description, old.podcast_author, old.podcast_copyright, old.podcast_keywords,
         old.podcast_website, old.podcast_language, old.podcast_primary_category, old.podcast_secondary_category,
         old.podcast_cover_path, old.email)
        is distinct from
        (new.podcast_title, new.podcast_description, new.podcast_author, new.podcast_copyright, new.podcast_keywords,
         new.podcast_website, new.podcast_language, new.podcast_primary_category, new.podcast_secondary_category,
         new.podcast_cover_path, new.email) then
    perform private.request_podcast_feed_build(new.id);
  end if;
  return null;
end
$$;
revoke execute on function private.podcast_feed_follows_profile() from public, anon, authenticated, service_role;

create trigger profiles_podcast_feed
  after update on public.profiles
  for each row execute function private.podcast_feed_follows_profile();

-- A delivered episode's podcast files recorded, replaced or removed.
create function private.podcast_feed_follows_episode_files()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.request_podcast_feed_build(coalesce(new.user_id, old.user_id));
  if tg_op = 'UPDATE' and new.user_id is distinct from old.user_id then
    perform private.request_podcast_feed_build(old.user_id);
  end if;
  return null;
end
$$;
revoke execute on function private.podcast_feed_follows_episode_files() from public, anon, authenticated, service_role;

create trigger podcast_episode_files_podcast_feed
  after insert or update or delete on public.podcast_episode_files
  for each row execute function private.podcast_feed_follows_episode_files();

-- An episode in the feed renamed, or the content (show notes, chapters) of the processing whose
-- sound the feed serves changed: the triggers' WHEN says which column; this finds the feed.
create function private.podcast_feed_follows_episode()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.podcast_episode_files f
              where (tg_table_name = 'episodes' and f.episode_id = new.id)
                 or (tg_table_name = 'episode_processing' and f.episode_processing_id = new.id)) then
    perform private.request_podcast_feed_build(new.user_id);
  end if;
  return null;
end
$$;
revoke execute on function private.podcast_feed_follows_episode() from public, anon, authenticated, service_role;

create trigger episodes_podcast_feed
  after update of title on public.episodes
  for each row when (new.title is distinct from old.title)
  execute function private.podcast_feed_follows_episode();

create trigger episode_processing_podcast_feed
  after update of content on public.episode_processing
  for each row when (new.content is distinct from old.content)
  execute function private.podcast_feed_follows_episode();

-- Up to p_limit due feeds whose lease ran out (or that never had one), leased for p_lease; skips
-- rows another run holds, so two runs never build one feed at once.
create function private.claim_podcast_feed_builds(p_limit integer default 20, p_lease interval default '5 minutes')
returns table (user_id uuid, requested_at timestamptz)
language sql
set search_path = ''
as $$
  update private.podcast_feed_builds b
     set leased_until = now() + p_lease,
         attempts = b.attempts + 1
   where b.user_id in (
     select d.user_id from private.podcast_feed_builds d
      where d.requested_at is not null and (d.leased_until is null or d.leased_until <= now())
      order by d.requested_at
      limit greatest(p_limit, 0)
      for update skip locked
   )
  returning b.user_id, b.requested_at
$$;
revoke execute on function private.claim_podcast_feed_builds(integer, interval) from public, anon, authenticated;
grant execute on function private.claim_podcast_feed_builds(integer, interval) to service_role;

-- Everything one feed is built from, in one read: the profile's podcast details, what the last
-- build kept, and every episode with podcast files (newest first) with its title, sound,
-- transcript, summary and chapters (from the processing that made the sound).
create function private.podcast_feed_source(p_user uuid)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'feedKey', f.feed_key,
    'onboarded', p.onboarding_completed_at is not null,
    'ownerEmail', p.email,
    'title', p.podcast_title,
    'description', p.podcast_description,
    'author', p.podcast_author,
    'copyright', p.podcast_copyright,
    'keywords', p.podcast_keywords,
    'website', p.podcast_website,
    'language', p.podcast_language,
    'primaryCategory', p.podcast_primary_category,
    'secondaryCategory', p.podcast_secondary_category,
    'coverPath', p.podcast_cover_path,
    'artwork', jsonb_build_object('sourcePath', b.artwork_source_path, 'path', b.artwork_path, 'problems', to_jsonb(b.artwork_problems)),
    'chapterHashes', b.chapter_hashes,
    'episodes', coalesce((
      select jsonb_agg(jsonb_build_object(
               'id', e.id,
               'title', e.title,
               'publishedAt', pf.created_at,
               'audioPath', pf.audio_path,
               'audioBytes', pf.audio_bytes,
               'durationSeconds', pf.duration_seconds,
               'transcriptPath', pf.transcript_path,
               'transcriptLanguage', ep.content -> 'transcript' ->> 'language',
               'summary', ep.content -> 'showNotes' ->> 'summary',
               'chapters', coalesce(ep.content -> 'showNotes' -> 'chapters', '[]'::jsonb))
             order by pf.created_at desc, e.id)
        from public.podcast_episode_files pf
        join public.episodes e on e.id = pf.episode_id
        join public.episode_processing ep on ep.id = pf.episode_processing_id
       where pf.user_id = p_user), '[]'::jsonb)
  )
  from public.podcast_feeds f
  join public.profiles p on p.id = f.user_id
  join private.podcast_feed_builds b on b.user_id = f.user_id
  where f.user_id = p_user
$$;
revoke execute on function private.podcast_feed_source(uuid) from public, anon, authenticated;
grant execute on function private.podcast_feed_source(uuid) to service_role;

-- A build written to Storage: its validation outcome for the subscriber, what the builder keeps,
-- and the queue cleared unless something asked again since the claim (p_requested_at). The first
-- feed that passes Apple's requirements after onboarding opens episode submission.
create function private.record_podcast_feed_build(
  p_user uuid,
  p_requested_at timestamptz,
  p_problems text[],
  p_episode_count integer,
  p_artwork_source_path text,
  p_artwork_path text,
  p_artwork_problems text[],
  p_chapter_hashes jsonb
)
returns void
language plpgsql
set search_path = ''
as $$
begin
  update private.podcast_feed_builds
     set requested_at = case when requested_at = p_requested_at then null else requested_at end,
         leased_until = null,
         attempts = 0,
         last_error = null,
         artwork_source_path = p_artwork_source_path,
         artwork_path = p_artwork_path,
         artwork_problems = coalesce(p_artwork_problems, '{}'),
         chapter_hashes = coalesce(p_chapter_hashes, '{}'::jsonb)
   where user_id = p_user;
  update public.podcast_feeds
     set status = case when cardinality(p_problems) = 0 then 'valid' else 'invalid' end,
         problems = coalesce(p_problems, '{}'),
         episode_count = p_episode_count,
         built_at = now()
   where user_id = p_user;
  if cardinality(p_problems) = 0 then
    update public.profiles
       set hosting_ready_at = now()
     where id = p_user and hosting_ready_at is null and onboarding_completed_at is not null;
  end if;
end
$$;
revoke execute on function private.record_podcast_feed_build(uuid, timestamptz, text[], integer, text, text, text[], jsonb) from public, anon, authenticated;
grant execute on function private.record_podcast_feed_build(uuid, timestamptz, text[], integer, text, text, text[], jsonb) to service_role;

-- A build that failed (Storage unreachable...): kept due, retried once its lease runs out.
create function private.record_podcast_feed_failure(p_user uuid, p_error text)
returns void
language sql
set search_path = ''
as $$
  update private.podcast_feed_builds set last_error = left(p_error, 2000) where user_id = p_user
$$;
revoke execute on function private.record_podcast_feed_failure(uuid, text) from public, anon, authenticated;
grant execute on function private.record_podcast_feed_failure(uuid, text) to service_role;

-- The caller's feed for the dashboard, or null before onboarding completes.
create function public.podcast_feed()
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'feedKey', f.feed_key,
    'status', f.status,
    'problems', to_jsonb(f.problems),
    'episodeCount', f.episode_count,
    'builtAt', f.built_at,
    'ownerEmail', p.email,
    'hostingReady', p.hosting_ready_at is not null and p.hosting_ready_at <= now()
  )
  from public.podcast_feeds f
  join public.profiles p on p.id = f.user_id
  where f.user_id = (select auth.uid())
$$;
revoke execute on function public.podcast_feed() from public, anon;
grant execute on function public.podcast_feed() to authenticated;
