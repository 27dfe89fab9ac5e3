-- POST /api/admin/episodes/resubmit calls this. resubmit_submission() raises P0002 for an
-- unknown original log or a file missing from storage, which PostgREST answers with 500; here
-- the same refusal (message and detail unchanged, nothing written) is answered with 404.
create function public.admin_resubmit_submission(
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
  when no_data_found then
    get stacked diagnostics v_message = message_text, v_detail = pg_exception_detail;
    raise exception '%', v_message using errcode = 'PT404', detail = v_detail;
end
$$;
revoke execute on function public.admin_resubmit_submission(text[], text, jsonb, uuid) from public, anon;
grant execute on function public.admin_resubmit_submission(text[], text, jsonb, uuid) to authenticated;
