-- The daily OAuth token refresh (spec: tokens are refreshed daily): Supabase Cron calls the
-- `oauth-refresh` Edge Function at 03:17 UTC with the service key from Vault.
select cron.schedule(
  'refresh-oauth-tokens-daily',
  '17 3 * * *',
  $$ select private.invoke_edge_function('oauth-refresh') $$
);
