// The processing benches' subscriber (bench/lib/processing-fixtures.ts) holds a Google Drive
// connection that refreshes as a real one does: the daily refresh job takes every token due
// within 26 hours, and a made-up token was refused there, marking the connection failed ("Google
// Drive is not connected") in the middle of a bench (issue 45).
import { expect, it } from 'vitest';
import { driveSubscriber } from '../../bench/lib/processing-fixtures.ts';
import { config, withDb } from '../support/stack.ts';
import { signIn } from '../support/submissions.ts';

it("refreshes the processing benches' Drive token and keeps the connection", async () => {
  const user = await driveSubscriber();
  // Due now, so the subscriber's own token check refreshes it as the daily job would.
  await withDb((db) => db.query(`update public.oauth_connections set expires_at = now() + interval '1 minute' where user_id = $1 and provider = 'google'`, [user.id]));
  const { token } = await signIn(user);
  const res = await fetch(`${config.urls.api}/functions/v1/api/oauth/refresh-all`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ refreshed: [{ provider: 'google' }], needsReauth: [] });
  const { rows } = await withDb((db) => db.query(`select status, connected, expires_at > now() + interval '10 minutes' as renewed from public.oauth_connections where user_id = $1 and provider = 'google'`, [user.id]));
  expect(rows).toEqual([{ status: 'connected', connected: true, renewed: true }]);
});
