-- What the admin console reads: whether the caller is an administrator (in the account the SPA
-- loads), the submission logs with their outbox state, and the files of bucket `episodes`,
-- both paged by keyset so the first page is fast however many rows there are.

-- current_account() as before, plus isAdmin (decided by the database from the JWT).
create or replace function public.current_account()
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'id', p.id,
    'email', coalesce(p.email, (select auth.jwt()) ->> 'email'),
    'firstName', p.first_name,
    'lastName', p.last_name,
    'profileImageUrl', p.profile_image_url,
    'subscriptionStatus', s.status,
    'subscriptionTier', s.tier,
    'onboardingCompleted', p.onboarding_completed_at is not null,
    'stripeCustomerId', s.stripe_customer_id,
    'postAutomatically', p.post_automatically,
    'isAdmin', private.is_admin()
  )
  from public.profiles p
  left join public.subscriptions s on s.user_id = p.id
  where p.id = (select auth.uid())
$$;

create function private.require_admin()
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if (select auth.uid()) is null or not private.is_admin() then
    raise exception 'admin_required' using errcode = '42501', detail = 'Only administrators can use the admin panel.';
  end if;
end
$$;
revoke execute on function private.require_admin() from public;
grant execute on function private.require_admin() to authenticated;

create function private.check_page_size(p_limit integer)
returns void
language plpgsql
immutable
set search_path = ''
as $$
begin
  if p_limit is null or p_limit not between 1 and 500 then
    raise exception 'invalid_limit' using errcode = '22023', detail = 'The page size must be from 1 to 500.';
  end if;
end
$$;
revoke execute on function private.check_page_size(integer) from public;
grant execute on function private.check_page_size(integer) to authenticated;

-- Newest first; the page after (p_before_at, p_before_id) when given.
create index submission_logs_submitted_at_id_idx on public.submission_logs (submitted_at desc, id desc);

-- GET /api/admin/episode-logs: {logs: [{id, userEmail, submittedAt, status, objectStorageFiles,
-- submissionParameters, originalLogId, delivery: {state, attempts, lastStatus, lastError,
-- deliveredAt, nextAttemptAt} | null}], next: {submittedAt, id} | null}.
-- delivery.state: pending (not yet delivered, retrying), delivered, failed (gave up).
create function public.admin_submission_logs(
  p_before_at timestamptz default null,
  p_before_id uuid default null,
  p_limit integer default 50
)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  v_rows jsonb;
  v_count integer;
  v_last jsonb;
begin
  perform private.require_admin();
  perform private.check_page_size(p_limit);
  if (p_before_at is null) <> (p_before_id is null) then
    raise exception 'invalid_cursor' using errcode = '22023', detail = 'The page cursor is incomplete.';
  end if;

  with page as (
    select l.*
      from public.submission_logs l
     where p_before_at is null or (l.submitted_at, l.id) < (p_before_at, p_before_id)
     order by l.submitted_at desc, l.id desc
     limit p_limit + 1
  )
  select coalesce(jsonb_agg(jsonb_build_object(
           'id', page.id,
           'userEmail', page.user_email,
           'submittedAt', page.submitted_at,
           'status', page.status,
           'objectStorageFiles', to_jsonb(page.object_storage_files),
           'submissionParameters', page.submission_parameters,
           'originalLogId', page.original_log_id,
           'delivery', (
             select jsonb_build_object(
                      'state', case when d.delivered_at is not null then 'delivered'
                                    when d.failed_at is not null then 'failed'
                                    else 'pending' end,
                      'attempts', d.attempts,
                      'lastStatus', d.last_status,
                      'lastError', d.last_error,
                      'deliveredAt', d.delivered_at,
                      'nextAttemptAt', d.next_attempt_at)
               from public.webhook_deliveries d
              where d.submission_log_id = page.id
              order by d.created_at desc
              limit 1)
         ) order by page.submitted_at desc, page.id desc), '[]'::jsonb)
    into v_rows
    from page;

  v_count := jsonb_array_length(v_rows);
  if v_count > p_limit then
    v_rows := v_rows - p_limit;
    v_last := v_rows -> (p_limit - 1);
    return jsonb_build_object('logs', v_rows,
                              'next', jsonb_build_object('submittedAt', v_last -> 'submittedAt', 'id', v_last -> 'id'));
  end if;
  return jsonb_build_object('logs', v_rows, 'next', null);
end
$$;
revoke execute on function public.admin_submission_logs(timestamptz, uuid, integer) from public, anon;
grant execute on function public.admin_submission_logs(timestamptz, uuid, integer) to authenticated;

-- GET /api/admin/object-storage/files: {files: [{path, name, size, uploaded}], next: path | null},
-- files of bucket `episodes` in path order after p_after (the unique (bucket_id, name) index).
create function public.admin_episode_files(p_after text default null, p_limit integer default 100)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  v_rows jsonb;
begin
  perform private.require_admin();
  perform private.check_page_size(p_limit);

  with page as (
    select o.name, o.metadata, o.created_at
      from storage.objects o
     where o.bucket_id = 'episodes' and (p_after is null or o.name > p_after)
     order by o.name
     limit p_limit + 1
  )
  select coalesce(jsonb_agg(jsonb_build_object(
           'path', page.name,
           'name', storage.filename(page.name),
           'size', case when page.metadata ->> 'size' ~ '^[0-9]+$' then (page.metadata ->> 'size')::bigint end,
           'uploaded', page.created_at
         ) order by page.name), '[]'::jsonb)
    into v_rows
    from page;

  if jsonb_array_length(v_rows) > p_limit then
    v_rows := v_rows - p_limit;
    return jsonb_build_object('files', v_rows, 'next', v_rows -> (p_limit - 1) -> 'path');
  end if;
  return jsonb_build_object('files', v_rows, 'next', null);
end
$$;
revoke execute on function public.admin_episode_files(text, integer) from public, anon;
grant execute on function public.admin_episode_files(text, integer) to authenticated;
