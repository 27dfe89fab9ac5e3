// `storage-cleanup` (Supabase Cron, hourly): episode uploads no submission names are deleted
// through the Storage API once older than the retention; submitted files and recent uploads stay.
import { describe, expect, it } from 'vitest';
import { UNSUBMITTED_UPLOAD_RETENTION_HOURS } from '../../supabase/functions/_shared/domain-server/storage-limits.ts';
import { config, withDb } from '../support/stack.ts';
import { readySubmitter, submitEpisode, uploadEpisodeFile } from '../support/episodes.ts';

const runCleanup = (key: string) =>
  fetch(`${config.urls.api}/functions/v1/storage-cleanup`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });

async function storedNames(userId: string): Promise<string[]> {
  return withDb(async (db) =>
    (await db.query(`select name from storage.objects where bucket_id = 'episodes' and name like $1 || '/%' order by name`, [userId])).rows.map((row) => row.name),
  );
}

describe('storage-cleanup', () => {
  it('deletes stale unsubmitted uploads, bytes included, and keeps submitted and recent ones', async () => {
    const user = await readySubmitter({ tier: 'growth' });
    const [stale, submitted, recent] = [await uploadEpisodeFile(user), await uploadEpisodeFile(user), await uploadEpisodeFile(user)];
    expect((await submitEpisode(user, [submitted.path])).status).toBe(201);
    await withDb((db) =>
      db.query(`update storage.objects set created_at = now() - make_interval(hours => $2 + 1) where bucket_id = 'episodes' and name = any($1)`, [
        [stale.path, submitted.path],
        UNSUBMITTED_UPLOAD_RETENTION_HOURS,
      ]),
    );

    expect((await runCleanup(config.anonKey)).status).toBe(401);
    const run = await runCleanup(config.serviceRoleKey);
    expect(run.status).toBe(200);
    expect((await run.json()).removed).toBeGreaterThanOrEqual(1);
    expect(await storedNames(user.id)).toEqual([submitted.path, recent.path].sort());
    const gone = await fetch(`${config.urls.api}/storage/v1/object/episodes/${stale.path}`, {
      headers: { apikey: config.serviceRoleKey, authorization: `Bearer ${config.serviceRoleKey}` },
    });
    expect(gone.status).toBe(400);
    expect(await gone.json()).toMatchObject({ statusCode: '404' });
  });
});
