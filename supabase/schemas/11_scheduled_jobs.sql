-- This file: scheduled jobs. Scheduled work runs as Supabase Cron does on hosted Supabase: pg_cron keeps the schedule,
-- pg_net makes the HTTP call to an Edge Function, and Vault holds the project URL and the key
-- the call carries (docs/decisions.md "Scheduled jobs"). Where the extensions can be installed
-- (hosted Supabase, `supabase start`) they are enabled here; the Docker-free local stack
-- provides compatible `cron`, `net` and `vault` schemas in local/postgres/scheduled-jobs.sql.
-- Every job is scheduled here, after the extension exists.
do $$
begin
  if exists (select 1 from pg_available_extensions where name = 'pg_cron') then
    create extension if not exists pg_cron;
  end if;
  if exists (select 1 from pg_available_extensions where name = 'pg_net') then
    create extension if not exists pg_net with schema extensions;
  end if;
end
$$;

-- POSTs `p_body` to the Edge Function `p_function` with the service key, as a scheduled job's
-- command: `select private.invoke_edge_function('name')`. Returns pg_net's request id.
-- The Vault secrets `project_url` and `service_role_key` are set once per project
-- (docs/deploy.md); the local stack sets them on start.
create function private.invoke_edge_function(p_function text, p_body jsonb default '{}'::jsonb, p_timeout_ms integer default 60000)
returns bigint
language plpgsql
set search_path = ''
as $$
declare
  v_url text := (select decrypted_secret from vault.decrypted_secrets where name = 'project_url');
  v_key text := (select decrypted_secret from vault.decrypted_secrets where name = 'service_role_key');
begin
  if p_function !~ '^[a-z0-9][a-z0-9_-]*$' then
    raise exception 'invalid function name: %', p_function using errcode = '22023';
  end if;
  if v_url is null or v_key is null then
    raise exception 'Vault secrets project_url and service_role_key must be set to call Edge Functions'
      using errcode = 'P0001', hint = 'select vault.create_secret(''https://<ref>.supabase.co'', ''project_url'')';
  end if;
  return net.http_post(
    url := rtrim(v_url, '/') || '/functions/v1/' || p_function,
    body := p_body,
    headers := jsonb_build_object('Content-Type', 'application/json', 'Authorization', 'Bearer ' || v_key),
    timeout_milliseconds := p_timeout_ms
  );
end
$$;
revoke execute on function private.invoke_edge_function(text, jsonb, integer) from public;

-- The daily OAuth token refresh (spec: tokens are refreshed daily): Supabase Cron calls the
-- `oauth-refresh` Edge Function at 03:17 UTC with the service key from Vault.
select cron.schedule(
  'refresh-oauth-tokens-daily',
  '17 3 * * *',
  $$ select private.invoke_edge_function('oauth-refresh') $$
);

-- The outbox delivery (submissions to the processing automation) every minute: Supabase Cron
-- calls the `deliver-submissions` Edge Function with the service key from Vault. Each run claims
-- due rows with FOR UPDATE SKIP LOCKED, so overlapping runs never deliver one submission twice.
select cron.schedule(
  'deliver-submissions',
  '* * * * *',
  $$ select private.invoke_edge_function('deliver-submissions') $$
);

-- Every hour, `storage-cleanup` deletes through the Storage API (hosted Supabase refuses SQL
-- deletes on storage.objects) the episode files no episode names (private.stale_episode_uploads)
-- and the processing pieces no plan under way names (private.stale_processing_pieces).
select cron.schedule(
  'storage-cleanup',
  '17 * * * *',
  $$ select private.invoke_edge_function('storage-cleanup') $$
);

-- The podcast feeds' builder every minute (13_podcast_feeds.sql): feeds due whose immediate call
-- was lost, and failed builds again.
select cron.schedule(
  'podcast-feed-builder',
  '* * * * *',
  $$ select private.invoke_edge_function('podcast-feed-builder') $$
);

-- Transactional e-mail (20261128170000_transactional_email.sql).
-- Every minute, as the outbox of submissions: the sender claims due rows with SKIP LOCKED.
select cron.schedule(
  'send-emails',
  '* * * * *',
  $$ select private.invoke_edge_function('send-emails') $$
);
