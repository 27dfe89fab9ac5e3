// `storage-cleanup` (Supabase Cron, hourly): episode uploads no submission names, and processing
// pieces no plan under way names, are deleted through the Storage API once older than their
// retention; submitted files, recent uploads and the pieces of an episode being processed stay.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PROCESSING_PIECES_BUCKET } from '../../supabase/functions/_shared/domain-server/processing-limits.ts';
import { ORPHAN_PIECE_RETENTION_HOURS, UNSUBMITTED_UPLOAD_RETENTION_HOURS } from '../../supabase/functions/_shared/domain-server/storage-limits.ts';
import { seedEpisode } from '../support/episode-page.ts';
import { config, serviceClient, withDb } from '../support/stack.ts';
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

  it('deletes the pieces of failed, replaced and finished plans once a day old, and keeps those of an episode being processed', async () => {
    const user = await readySubmitter();
    /** A piece file of `plan` stored for `processingId`, `hoursOld` hours ago. */
    const storePiece = async (processingId: string, plan: string, hoursOld: number) => {
      const name = `${processingId}/${plan}/video-0.mp4`;
      const { error } = await serviceClient().storage.from(PROCESSING_PIECES_BUCKET).upload(name, new Uint8Array([0, 0, 0, 8]), { contentType: 'video/mp4' });
      expect(error).toBeNull();
      await withDb((db) =>
        db.query(`update storage.objects set created_at = now() - make_interval(hours => $2) where bucket_id = $3 and name = $1`, [name, hoursOld, PROCESSING_PIECES_BUCKET]),
      );
      return name;
    };
    const withPlan = async (status: 'processing' | 'failed') => {
      const { processingId } = await seedEpisode(user.id, { status });
      const plan = randomUUID();
      await withDb((db) =>
        db.query(`insert into private.processing_plans (processing_id, plan_id, plan, pieces) values ($1, $2, '{}', 1)`, [processingId, plan]),
      );
      return { processingId, plan };
    };
    const old = ORPHAN_PIECE_RETENTION_HOURS + 1;
    const underWay = await withPlan('processing');
    const failed = await withPlan('failed');
    const kept = [await storePiece(underWay.processingId, underWay.plan, old), await storePiece(randomUUID(), randomUUID(), 1)];
    const swept = [
      await storePiece(failed.processingId, failed.plan, old),
      // A plan the submission's next attempt replaced (or the join dropped) is named by no row.
      await storePiece(underWay.processingId, randomUUID(), old),
    ];

    const run = await runCleanup(config.serviceRoleKey);
    expect(run.status).toBe(200);
    expect((await run.json()).removed).toBeGreaterThanOrEqual(2);
    const left = await withDb(async (db) =>
      (await db.query(`select name from storage.objects where bucket_id = $1 and name = any($2) order by name`, [PROCESSING_PIECES_BUCKET, [...kept, ...swept]])).rows.map((row) => row.name),
    );
    expect(left).toEqual([...kept].sort());
    const { error } = await serviceClient().storage.from(PROCESSING_PIECES_BUCKET).download(swept[0]);
    expect(error).not.toBeNull();
  });
});
