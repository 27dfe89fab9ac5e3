-- What the worker made from the episode's words (issue 27): the transcript's text, language and
-- engine, the show notes, the blog post (and where WordPress has it), and for each part that
-- could not be made, why. Read by the owner through the row's existing RLS policy
-- (GET /api/episodes/:id/content); written only by the worker (service role / postgres).
-- Shape: supabase/functions/_shared/domain/episode-content.ts.
alter table public.episode_processing
  add column content jsonb check (content is null or jsonb_typeof(content) = 'object');

comment on column public.episode_processing.content is
  'Transcript, show notes, blog post and the reasons for what was not made (EpisodeContent in _shared/domain/episode-content.ts).';
