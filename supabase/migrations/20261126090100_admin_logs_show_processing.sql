-- The admin console's submission logs show each log's processing by the built-in worker
-- (status, stage, progress, failure reason) and a skipped outbox delivery as 'skipped'. Every
-- earlier key stays.

-- GET /api/admin/episode-logs: {logs: [{id, userEmail, submittedAt, status, objectStorageFiles,
-- submissionParameters, originalLogId, delivery: {state, attempts, lastStatus, lastError,
-- deliveredAt, nextAttemptAt} | null, processing: {status, stage, progress, failureReason,
-- updatedAt} | null}], next: {submittedAt, id} | null}.
-- delivery.state: pending (not yet delivered, retrying), delivered, failed (gave up), skipped
-- (the built-in worker took the submission). processing: the built-in worker's row, if any.
create or replace function public.admin_submission_logs(
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
                                    when d.skipped_at is not null then 'skipped'
                                    else 'pending' end,
                      'attempts', d.attempts,
                      'lastStatus', d.last_status,
                      'lastError', d.last_error,
                      'deliveredAt', d.delivered_at,
                      'nextAttemptAt', d.next_attempt_at)
               from public.webhook_deliveries d
              where d.submission_log_id = page.id
              order by d.created_at desc
              limit 1),
           'processing', (
             select jsonb_build_object(
                      'status', p.status,
                      'stage', p.stage,
                      'progress', p.progress,
                      'failureReason', p.failure_reason,
                      'updatedAt', p.updated_at)
               from public.episode_processing p
              where p.submission_log_id = page.id)
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
