// `storage-cleanup`: Supabase Cron calls it every hour (net.http_post with the service role key).
// Each run deletes, through the Storage API (hosted Supabase refuses SQL deletes on
// storage.objects, and only the API removes the bytes), episode uploads that no submission names
// and that are older than UNSUBMITTED_UPLOAD_RETENTION_HOURS, and processing pieces that no plan
// under way names and that are older than ORPHAN_PIECE_RETENTION_HOURS (what a failed or replaced
// plan left: the join removes a delivered plan's own).
import { EPISODES_BUCKET } from '../_shared/domain/episodes.ts';
import { PROCESSING_PIECES_BUCKET } from '../_shared/domain-server/processing-limits.ts';
import { ORPHAN_PIECE_RETENTION_HOURS, UNSUBMITTED_UPLOAD_RETENTION_HOURS } from '../_shared/domain-server/storage-limits.ts';
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

const age = (hours: number) => `${hours} hours`;

/** Each sweep: the names its private function lists (oldest first, a batch) and the bucket they go from. */
const SWEEPS = [
  {
    what: 'stale uploads',
    bucket: EPISODES_BUCKET,
    list: () => db()<{ name: string }[]>`
      select name from private.stale_episode_uploads(${age(UNSUBMITTED_UPLOAD_RETENTION_HOURS)}::interval, ${BATCH}::integer) as name`,
  },
  {
    what: 'orphaned processing pieces',
    bucket: PROCESSING_PIECES_BUCKET,
    list: () => db()<{ name: string }[]>`
      select name from private.stale_processing_pieces(${age(ORPHAN_PIECE_RETENTION_HOURS)}::interval, ${BATCH}::integer) as name`,
  },
];

async function handleCleanupRun(request: Request): Promise<Response> {
  await request.body?.cancel();
  if (request.method !== 'POST') return json(405, { message: 'Use POST' });
  if (!isServiceCaller(request)) return json(401, { message: 'Only the scheduler may clean up storage' });
  let removed = 0;
  for (const sweep of SWEEPS) {
    let names: string[];
    try {
      names = (await sweep.list()).map((row) => row.name);
    } catch (cause) {
      return json(500, { message: `could not list ${sweep.what}: ${(cause as Error).message}`, removed });
    }
    for (let at = 0; at < names.length; at += REMOVE_CHUNK) {
      const { data, error } = await serviceClient().storage.from(sweep.bucket).remove(names.slice(at, at + REMOVE_CHUNK));
      if (error) return json(502, { message: `could not remove ${sweep.what}: ${error.message}`, removed });
      removed += data?.length ?? 0;
    }
  }
  return json(200, { removed });
}

requireSettings('storage-cleanup');
serveFunction(handleCleanupRun);
