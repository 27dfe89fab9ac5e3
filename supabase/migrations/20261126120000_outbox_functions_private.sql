-- The outbox's service-only functions leave the exposed `public` schema, like billing's:
-- PostgREST cannot serve them at all, whatever the grants. deliver-submissions reaches them
-- over SUPABASE_DB_URL. Their bodies name only schema-qualified objects (search_path = ''),
-- so they move as they are, with their grants (service role only).
alter function public.claim_webhook_deliveries(integer, interval) set schema private;
alter function public.record_webhook_attempt(uuid, boolean, integer, text, interval, boolean) set schema private;
alter function public.webhook_delivery_context(uuid[]) set schema private;
