// `storage-cleanup`: Supabase Cron calls it every hour (net.http_post with the service role key).
// Each run deletes, through the Storage API (hosted Supabase refuses SQL deletes on
// storage.objects, and only the API removes the bytes), episode uploads that no submission names
// and that are older than UNSUBMITTED_UPLOAD_RETENTION_HOURS.
import { EPISODES_BUCKET } from '../_shared/domain/episodes.ts';
import { UNSUBMITTED_UPLOAD_RETENTION_HOURS } from '../_shared/domain-server/storage-limits.ts';
import { requireSettings } from '../_shared/config.ts';
import { db } from '../_shared/db.ts';
import { serveFunction } from '../_shared/serve.ts';
import { isServiceCaller } from '../_shared/service-caller.ts';
import { serviceClient } from '../_shared/supabase-clients.ts';

/** Objects per run: the rest goes on the next run. */
const BATCH = 500;
/** Names per Storage API delete request. */
const REMOVE_CHUNK = 100;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

async function handleCleanupRun(request: Request): Promise<Response> {
  await request.body?.cancel();
  if (request.method !== 'POST') return json(405, { message: 'Use POST' });
  if (!isServiceCaller(request)) return json(401, { message: 'Only the scheduler may clean up storage' });
  let names: string[];
  try {
    const rows = await db()<{ name: string }[]>`
      select name from private.stale_episode_uploads(${`${UNSUBMITTED_UPLOAD_RETENTION_HOURS} hours`}::interval, ${BATCH}::integer) as name`;
    names = rows.map((row) => row.name);
  } catch (cause) {
    return json(500, { message: `could not list stale uploads: ${(cause as Error).message}` });
  }
  let removed = 0;
  for (let at = 0; at < names.length; at += REMOVE_CHUNK) {
    const { data, error } = await serviceClient().storage.from(EPISODES_BUCKET).remove(names.slice(at, at + REMOVE_CHUNK));
    if (error) return json(502, { message: `could not remove stale uploads: ${error.message}`, removed });
    removed += data?.length ?? 0;
  }
  return json(200, { removed });
}

requireSettings('storage-cleanup');
serveFunction(handleCleanupRun);
