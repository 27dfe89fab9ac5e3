-- Bad input answers 4xx: PostgREST maps SQLSTATE P0002 to 500, so the two "not found" refusals
-- that name something the caller sent now raise 22023 (HTTP 400), like every other refusal of
-- submit_episode and resubmit_submission. And a sign-up never fails on its names: the profile
-- keeps at most 200 characters of each.

create or replace function private.check_episode_files(p_files text[], p_owner uuid)
returns void
language plpgsql
stable
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
    if not exists (select 1 from storage.objects o where o.bucket_id = 'episodes' and o.name = v_file) then
      raise exception 'file_not_found' using errcode = '22023', detail = format('File %s was not found in storage.', v_file);
    end if;
  end loop;
end
$$;

create or replace function private.resubmit_submission(
  p_original_log_id uuid,
  p_files text[],
  p_user_email text,
  p_options jsonb
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin uuid := (select auth.uid());
  v_original public.submission_logs;
  v_user uuid;
  v_post_automatically boolean;
  v_params jsonb;
  v_log_id uuid;
  v_now timestamptz := now();
begin
  if v_admin is null or not private.is_admin() then
    raise exception 'admin_required' using errcode = '42501', detail = 'Only administrators can resubmit episodes.';
  end if;
  if private.is_blank(p_user_email) then
    raise exception 'email_required' using errcode = '22023', detail = 'Please enter the user''s email address.';
  end if;
  v_params := private.normalize_episode_options(
    p_options, array['DEFAULT', 'PROFESSIONAL', 'CREATIVE', 'PORTRAIT', 'LANDSCAPE'], 365);
  perform private.check_episode_files(p_files, null);

  if p_original_log_id is not null then
    select * into v_original from public.submission_logs where id = p_original_log_id;
    if not found then
      raise exception 'original_log_not_found' using errcode = '22023', detail = 'The original submission log does not exist.';
    end if;
  end if;

  select p.id, p.post_automatically into v_user, v_post_automatically
    from public.profiles p
   where lower(p.email) = lower(trim(p_user_email));

  insert into public.submission_logs (episode_id, user_id, user_email, status, object_storage_files,
                                      submission_parameters, original_log_id, submitted_by, submitted_at)
  values (v_original.episode_id, coalesce(v_user, v_original.user_id), trim(p_user_email), 'resubmitted',
          p_files, v_params, p_original_log_id, v_admin, v_now)
  returning id into v_log_id;

  insert into public.webhook_deliveries (submission_log_id, payload)
  values (v_log_id, jsonb_build_object(
    'event', 'episode.resubmitted',
    'submissionLogId', v_log_id,
    'episodeId', v_original.episode_id,
    'originalLogId', p_original_log_id,
    'userId', coalesce(v_user, v_original.user_id),
    'userEmail', trim(p_user_email),
    'postAutomatically', coalesce(v_post_automatically, true),
    'objectStorageFiles', to_jsonb(p_files),
    'episodeData', v_params,
    'submittedAt', v_now
  ));

  return jsonb_build_object('id', v_log_id, 'status', 'resubmitted', 'submittedAt', v_now);
end
$$;

-- A profile for every new auth user, named from the sign-up metadata (at most 200 characters,
-- the column limit). Whatever the metadata holds, the sign-up goes through: if the names cannot
-- be stored the profile starts without them.
create or replace function private.create_profile_for_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_first text := nullif(left(trim(coalesce(new.raw_user_meta_data ->> 'first_name', new.raw_user_meta_data ->> 'firstName')), 200), '');
  v_last text := nullif(left(trim(coalesce(new.raw_user_meta_data ->> 'last_name', new.raw_user_meta_data ->> 'lastName')), 200), '');
begin
  begin
    insert into public.profiles (id, email, first_name, last_name)
    values (new.id, new.email, v_first, v_last)
    on conflict (id) do nothing;
  exception when others then
    insert into public.profiles (id, email) values (new.id, new.email) on conflict (id) do nothing;
  end;
  return new;
end
$$;
