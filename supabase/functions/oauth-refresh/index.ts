// `oauth-refresh`: the daily token refresh, called by the scheduled job `refresh-oauth-tokens-daily`
// (pg_cron + pg_net, see its migration) with the service key. Refreshes every token due
// within a day; a revoked grant is marked for reconnection.
import { refreshDueTokens } from '../_shared/oauth/connections.ts';
import { requireSettings } from '../_shared/config.ts';
import { serveFunction } from '../_shared/serve.ts';
import { isServiceCaller } from '../_shared/service-caller.ts';

requireSettings('oauth-refresh');
serveFunction(async (request) => {
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  if (request.method !== 'POST') return json(405, { message: 'Method not allowed' });
  if (!isServiceCaller(request)) return json(401, { message: 'Unauthorized' });
  try {
    const summary = await refreshDueTokens();
    console.log(`oauth-refresh: ${summary.refreshed} refreshed, ${summary.needsReauth} need reconnection, ${summary.failed} failed`);
    return json(200, summary);
  } catch (error) {
    console.error(`oauth-refresh failed: ${(error as Error).message}`);
    return json(500, { message: 'Token refresh failed' });
  }
});
