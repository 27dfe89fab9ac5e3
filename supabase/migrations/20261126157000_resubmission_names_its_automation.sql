-- The admin console said every resubmission went to "an automation webhook", also when the
-- built-in worker took it (the outbox row skipped). The admin entry point now also answers which
-- automation took the new log: 'builtin' when the worker queued it, else 'webhook'.

-- Which automation took a submission log. Security definer: the administrator may not read the
-- subscriber's processing row; the answer is one word and the function is not exposed by the API.
create function private.submission_automation(p_log_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select case
    when exists (select 1 from public.episode_processing p where p.submission_log_id = p_log_id) then 'builtin'
    else 'webhook'
  end
$$;
revoke execute on function private.submission_automation(uuid) from public, anon;
grant execute on function private.submission_automation(uuid) to authenticated;

-- As before (20261126140900_baseline_admin.sql), plus 'automation' in the answer.
create or replace function public.admin_resubmit_submission(
  object_storage_files text[],
  user_email text,
  episode_data jsonb default '{}'::jsonb,
  original_log_id uuid default null
)
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  v_result jsonb;
  v_message text;
  v_detail text;
begin
  v_result := private.resubmit_submission(original_log_id, object_storage_files, user_email, episode_data);
  return v_result || jsonb_build_object('automation', private.submission_automation((v_result ->> 'id')::uuid));
exception
  when no_data_found or invalid_parameter_value then
    get stacked diagnostics v_message = message_text, v_detail = pg_exception_detail;
    if v_message in ('original_log_not_found', 'file_not_found') or sqlstate = 'P0002' then
      raise exception '%', v_message using errcode = 'PT404', detail = v_detail;
    end if;
    raise exception '%', v_message using errcode = sqlstate, detail = v_detail;
end
$$;
revoke execute on function public.admin_resubmit_submission(text[], text, jsonb, uuid) from public, anon;
grant execute on function public.admin_resubmit_submission(text[], text, jsonb, uuid) to authenticated;
