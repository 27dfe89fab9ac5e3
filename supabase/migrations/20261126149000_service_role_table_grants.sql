-- Hosted Supabase no longer grants new tables in public to the Data API roles (changelog
-- 45329). anon and authenticated were granted explicitly from the start; the service role,
-- which the server's Data API calls use (billing reads subscriptions, the local demo accounts
-- write subscriptions and profiles), held its privileges only through the old default. The
-- service key is the server's full-access key (it bypasses RLS), so it gets every row
-- operation on each public table, as Supabase's Data API guide grants it.
grant select, insert, update, delete on table
  public.plans,
  public.profiles,
  public.subscriptions,
  public.oauth_connections,
  public.episodes,
  public.submission_logs,
  public.webhook_deliveries,
  public.admin_audit_log,
  public.episode_processing,
  public.scheduled_posts
to service_role;
grant usage, select on sequence public.admin_audit_log_id_seq to service_role;
