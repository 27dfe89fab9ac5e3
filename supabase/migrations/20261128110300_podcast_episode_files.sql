-- The files a podcast feed serves for each delivered episode (issue 44): the episode's sound as
-- podcast apps expect it (AAC in an M4A, loudness-normalised to -16 LUFS, as the episode's own
-- sound already is) and its WebVTT transcript, in the public `podcast-feeds` bucket, served by
-- Storage with range requests. The worker puts them there when it delivers the episode and records
-- them here (private.record_podcast_files); the feed is built from these rows.
--   podcast-feeds:  episodes/<episode id>/<processing id>.m4a | .vtt
-- The episode id is its GUID in the feed: stable however often it is processed again or edited.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('podcast-feeds', 'podcast-feeds', true, null,
        array['audio/mp4', 'text/vtt', 'application/json', 'application/rss+xml', 'application/xml', 'image/jpeg', 'image/png'])
on conflict (id) do update
  set public = excluded.public,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;

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
