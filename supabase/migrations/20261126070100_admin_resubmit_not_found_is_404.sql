-- resubmit_submission() now refuses an unknown original log or a missing file with SQLSTATE
-- 22023 and a reason code (client_errors_and_safe_sign_up); the admin console's entry point
-- answers those two with 404, as the episodes API answers a missing file, and every other
-- refusal as it comes.
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
  v_message text;
  v_detail text;
begin
  return private.resubmit_submission(original_log_id, object_storage_files, user_email, episode_data);
exception
  when no_data_found or invalid_parameter_value then
    get stacked diagnostics v_message = message_text, v_detail = pg_exception_detail;
    if v_message in ('original_log_not_found', 'file_not_found') or sqlstate = 'P0002' then
      raise exception '%', v_message using errcode = 'PT404', detail = v_detail;
    end if;
    raise exception '%', v_message using errcode = sqlstate, detail = v_detail;
end
$$;
