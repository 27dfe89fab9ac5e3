-- The outbox delivery (submissions to the processing automation) every minute: Supabase Cron
-- calls the `deliver-submissions` Edge Function with the service key from Vault. Each run claims
-- due rows with FOR UPDATE SKIP LOCKED, so overlapping runs never deliver one submission twice.
select cron.schedule(
  'deliver-submissions',
  '* * * * *',
  $$ select private.invoke_edge_function('deliver-submissions') $$
);
