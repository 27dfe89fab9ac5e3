-- The episode's title is the subscriber's (issue 41, item 1). The Submit dialog takes an optional
-- title and guest names; a given title is confirmed and used everywhere (the app, the Drive folder,
-- the file names, the posts, the blog post). Without one the worker suggests a title from the words
-- (private.record_suggested_title: the episode's title until the subscriber accepts or changes it
-- with rename_episode), and nothing posts before they do (the review of issue 41, item 2).
--
--   SQLSTATE  message            function                          when
--   22023     invalid_title      submit_episode, rename_episode    not text of 1..200 characters
--   22023     invalid_guests     submit_episode                    not a list of at most 10 names of at most 100 characters
--   PT404     episode_not_found  rename_episode                    no such episode of the caller's

alter table public.episodes
  -- The subscriber gave the title (at submission) or accepted or changed the suggestion.
  add column title_confirmed boolean not null default false,
  -- The episode's guests, for the words the engines write (issue 42).
  add column guests text[] not null default '{}' check (cardinality(guests) <= 10);
-- Episodes named otherwise than their first file were named by someone.
update public.episodes
   set title_confirmed = true
 where title <> regexp_replace(storage.filename(files[1]), '\.[^.]*$', '');

-- A list of guest names: trimmed, blanks dropped, at most 10 of at most 100 characters.
create function private.normalize_guests(p_guests jsonb)
returns text[]
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_guests text[];
begin
  if p_guests is null or jsonb_typeof(p_guests) = 'null' then
    return '{}';
  end if;
  if jsonb_typeof(p_guests) <> 'array' or exists (select 1 from jsonb_array_elements(p_guests) g where jsonb_typeof(g) <> 'string') then
    raise exception 'invalid_guests' using errcode = '22023', detail = 'Guests must be a list of names.';
  end if;
  select coalesce(array_agg(trim(g) order by ord), '{}') into v_guests
    from jsonb_array_elements_text(p_guests) with ordinality as x (g, ord)
   where trim(g) <> '';
  if cardinality(v_guests) > 10 or exists (select 1 from unnest(v_guests) g where char_length(g) > 100) then
    raise exception 'invalid_guests' using errcode = '22023', detail = 'At most 10 guests, each name at most 100 characters.';
  end if;
  return v_guests;
end
$$;
revoke execute on function private.normalize_guests(jsonb) from public, anon;
grant execute on function private.normalize_guests(jsonb) to authenticated, service_role;

-- As in 20261128100200_room_to_submit_checked_first.sql, with the title confirmed when given, and
-- the guests.
create or replace function private.submit_episode(p_files text[], p_options jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user uuid := (select auth.uid());
  v_params jsonb;
  v_title text;
  v_guests text[];
  v_duration numeric;
  v_episode_id uuid;
  v_log_id uuid;
  v_now timestamptz := now();
begin
  if v_user is null then
    raise exception 'not_authenticated' using errcode = '42501', detail = 'Sign in to submit an episode.';
  end if;

  v_params := private.normalize_episode_options(p_options);

  v_title := nullif(trim(coalesce(p_options ->> 'title', '')), '');
  if p_options ? 'title' and jsonb_typeof(p_options -> 'title') not in ('string', 'null')
     or char_length(v_title) > 200 then
    raise exception 'invalid_title' using errcode = '22023', detail = 'The title must be text of at most 200 characters.';
  end if;
  v_guests := private.normalize_guests(p_options -> 'guests');

  perform private.check_episode_files(p_files, v_user);

  -- Every file's length as the api read it at the file's current version, or unknown.
  select case when count(c.duration_seconds) = cardinality(p_files) then sum(c.duration_seconds) end
    into v_duration
    from unnest(p_files) f
    join storage.objects o on o.bucket_id = 'episodes' and o.name = f
    join private.checked_episode_files c on c.object_id = o.id and c.version is not distinct from o.version;
  perform private.check_trim_against_length(v_params, v_duration);

  -- One submission at a time per user, so two tabs cannot both take the last slot.
  perform 1 from public.profiles p where p.id = v_user for update;
  if not found then
    raise exception 'not_authenticated' using errcode = '42501', detail = 'No profile for this account.';
  end if;

  perform private.require_room_to_submit(v_user, v_now);

  insert into public.episodes (user_id, title, title_confirmed, guests, files, start_timestamp, end_timestamp, add_logo,
                               add_intro_outro, clip_style, days_between_clips, submitted_at, duration_seconds)
  values (v_user, coalesce(v_title, regexp_replace(storage.filename(p_files[1]), '\.[^.]*$', '')), v_title is not null, v_guests,
          p_files, v_params ->> 'startTimestamp', v_params ->> 'endTimestamp',
          (v_params ->> 'addLogo')::boolean, (v_params ->> 'addIntroOutro')::boolean,
          v_params ->> 'clipStyle', (v_params ->> 'daysBetweenClips')::integer, v_now, v_duration)
  returning id, title into v_episode_id, v_title;

  v_log_id := private.log_own_submission(v_episode_id, v_user, p_files, v_params, null, v_now);

  return jsonb_build_object(
    'id', v_episode_id,
    'title', v_title,
    'submittedAt', v_now,
    'submissionLogId', v_log_id
  );
end
$$;

-- The worker's suggestion, while the subscriber has not given or accepted a title.
create function private.record_suggested_title(p_processing_id uuid, p_title text)
returns void
language sql
set search_path = ''
as $$
  update public.episodes e
     set title = left(trim(p_title), 200)
    from public.episode_processing p
   where p.id = p_processing_id and e.id = p.episode_id and not e.title_confirmed and trim(p_title) <> ''
$$;
revoke execute on function private.record_suggested_title(uuid, text) from public, anon, authenticated;
grant execute on function private.record_suggested_title(uuid, text) to service_role;

-- The owner accepts the suggested title or gives another: answers {id, title, titleConfirmed}.
create function private.rename_episode(p_episode_id uuid, p_title text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_title text := trim(coalesce(p_title, ''));
begin
  if (select auth.uid()) is null then
    raise exception 'not_authenticated' using errcode = '42501', detail = 'Sign in to rename an episode.';
  end if;
  if char_length(v_title) not between 1 and 200 then
    raise exception 'invalid_title' using errcode = '22023', detail = 'The title must be text of 1 to 200 characters.';
  end if;
  update public.episodes set title = v_title, title_confirmed = true
   where id = p_episode_id and user_id = (select auth.uid());
  if not found then
    raise exception 'episode_not_found' using errcode = 'PT404', detail = 'No such episode.';
  end if;
  return jsonb_build_object('id', p_episode_id, 'title', v_title, 'titleConfirmed', true);
end
$$;
revoke execute on function private.rename_episode(uuid, text) from public, anon, service_role;
grant execute on function private.rename_episode(uuid, text) to authenticated;

create function public.rename_episode(p_episode_id uuid, p_title text)
returns jsonb
language sql
set search_path = ''
as $$ select private.rename_episode(p_episode_id, p_title) $$;
revoke execute on function public.rename_episode(uuid, text) from public, anon, service_role;
grant execute on function public.rename_episode(uuid, text) to authenticated;
