// `deliver-submissions`: the outbox worker. Supabase Cron calls it every minute
// (net.http_post with the service role key); each run claims due deliveries with
// FOR UPDATE SKIP LOCKED (private.claim_webhook_deliveries), so parallel runs never share a row.
import { requireSettings } from '../_shared/config.ts';
import { serveFunction } from '../_shared/serve.ts';
import { handleDeliveryRun } from './handler.ts';

requireSettings('deliver-submissions');
serveFunction(handleDeliveryRun);
