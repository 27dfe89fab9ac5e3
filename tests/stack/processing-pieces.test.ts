// A submission's work in pieces (issue 28, worker/pieces.ts): a piece whose worker dies is retried
// alone on another worker and the episode is delivered once; a join (or a piece) that runs again
// after the delivery changes nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgBoss } from 'pg-boss';
import { startWorkerProcess } from '../../local/worker.ts';
import { QUEUE } from '../../worker/queue.ts';
import { QUEUE_SCHEMA } from '../../worker/queue-search-path.ts';
import type { ChildService } from '../../local/lib/process.ts';
import { makeFixtures, type Fixtures } from '../support/media.ts';
import { config, withDb } from '../support/stack.ts';
import { useAutomation } from '../support/episodes.ts';
import { NOT_TRANSCRIBED, readySubscriber, sandboxFiles, submit, waitFor } from '../support/processing.ts';

let dir: string;
let media: Fixtures;
let second: ChildService;

useAutomation('builtin');

interface QueueJob {
  id: string;
  state: string;
  retry_count: number;
  data: { processingId: string; planId?: string; piece?: number };
}

/** The queue's jobs of one submission: its own, its pieces', its join's. */
const queueJobs = (processingId: string) =>
  withDb(async (db) => (await db.query<QueueJob>(`select id, state, retry_count, data from pgboss.job where data ->> 'processingId' = $1`, [processingId])).rows);

/** Waits until every job of the submission has left the queue's active states. */
async function settled(processingId: string): Promise<QueueJob[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const jobs = await queueJobs(processingId);
    if (jobs.every((j) => j.state === 'completed' || j.state === 'failed')) return jobs;
    if (Date.now() > deadline) throw new Error(`jobs still running: ${JSON.stringify(jobs.map((j) => j.state))}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'castloop-pieces-'));
  // 40 s with a logo: the picture is re-encoded in two segments (WORKER_SEGMENT_SECONDS=30 in tests).
  media = makeFixtures(dir, 40);
  second = await startWorkerProcess(config);
}, 120_000);

afterAll(async () => {
  await second?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('processing in pieces', () => {
  it('retries only the piece whose worker died, and delivers the episode once', async () => {
    const { user, client, driveToken } = await readySubscriber(media, 'starter', { language: NOT_TRANSCRIBED });
    const episode = await submit(client, user, { addLogo: true, addIntroOutro: false }, media.episode);
    const rendering = await waitFor(client, episode.id, (r) => r.status === 'processing' && (r.stage ?? '').startsWith('rendering'));
    const [, pid] = (rendering.worker as string).split('/');
    // The whole process group: the worker and its ffmpeg, as when a machine dies.
    process.kill(-Number(pid), 'SIGKILL');

    const row = await waitFor(client, episode.id, (r) => r.status === 'delivered' || r.status === 'failed', 150_000);
    expect(row.status).toBe('delivered');
    expect(row.attempts).toBe(2);
    const jobs = await settled(row.id);
    const pieces = jobs.filter((j) => j.data.piece !== undefined);
    // Two video segments, the sound, three clips.
    expect(pieces).toHaveLength(6);
    expect(pieces.filter((j) => j.retry_count > 0)).toHaveLength(1);
    expect(jobs.filter((j) => j.data.planId && j.data.piece === undefined)).toHaveLength(1);
    expect(jobs.find((j) => !j.data.planId)?.retry_count).toBe(0);

    const inFolder = (await sandboxFiles()).filter((f) => f.owner === driveToken && f.parents.includes(row.drive_folder_id as string));
    expect(inFolder.map((f) => f.name).sort()).toEqual(row.outputs.map((o) => o.name).sort());
    expect(inFolder).toHaveLength(4);
  }, 240_000);

  it('a join or a piece run again after the delivery sends nothing again', async () => {
    const { user, client, driveToken } = await readySubscriber(media, 'starter', { language: NOT_TRANSCRIBED });
    const episode = await submit(client, user, { addLogo: true, addIntroOutro: false }, media.episode);
    const row = await waitFor(client, episode.id, (r) => r.status === 'delivered' || r.status === 'failed', 150_000);
    expect(row.status).toBe('delivered');
    const before = (await settled(row.id)).find((j) => j.data.planId && j.data.piece === undefined);
    expect(before).toBeDefined();
    const filesBefore = (await sandboxFiles()).filter((f) => f.owner === driveToken);

    // As pg-boss would run them after a worker died between finishing them and recording so.
    const boss = new PgBoss({ connectionString: config.urls.db, schema: QUEUE_SCHEMA, supervise: false, schedule: false, migrate: false });
    await boss.start();
    try {
      for (const data of [before?.data, { ...before?.data, piece: 0 }]) await boss.send(QUEUE, data as object);
    } finally {
      await boss.stop({ graceful: false });
    }
    const again = await settled(row.id);
    expect(again.filter((j) => j.state === 'completed')).toHaveLength(again.length);
    const { data: after } = await client.from('episode_processing').select('status, outputs, attempts').eq('id', row.id).single();
    expect(after).toEqual({ status: 'delivered', outputs: row.outputs, attempts: row.attempts });
    expect((await sandboxFiles()).filter((f) => f.owner === driveToken)).toEqual(filesBefore);
  }, 240_000);
});
