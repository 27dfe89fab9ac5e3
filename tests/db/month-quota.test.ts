// A subscriber's month without surprises (issue 26, items 5 and 9): trim times against the
// video's length, an allowance that only what processing kept uses, 'total' as delivered
// episodes, the retry of a failed episode, and hosting setup's start and the operators' queue.
import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import {
  addCheckedEpisodeFile,
  addEpisode,
  countRows,
  createReadySubscriber,
  createUser,
  inRolledBackTx,
  queryAs,
  runAs,
  setHostingReady,
  setProcessing,
  subscribe,
} from './db-support.ts';
import { addClip } from '../support/episode-page.ts';

type Json = Record<string, unknown>;

async function stats(db: pg.Client, id: string): Promise<Json> {
  return (await queryAs<{ s: Json }>(db, { id }, 'select public.dashboard_stats() as s'))[0].s;
}

async function submit(db: pg.Client, id: string, files: string[], options: Json = {}): Promise<Json> {
  return (await queryAs<{ r: Json }>(db, { id }, 'select public.submit_episode($1, $2) as r', [files, options]))[0].r;
}

async function latestProcessing(db: pg.Client, episodeId: string): Promise<{ status: string; log: string }> {
  const { rows } = await db.query(
    `select p.status, p.submission_log_id as log from public.episode_processing p where p.episode_id = $1 order by p.created_at desc, p.id desc limit 1`,
    [episodeId],
  );
  return rows[0];
}

async function failProcessing(db: pg.Client, episodeId: string): Promise<void> {
  await db.query(
    `update public.episode_processing set status = 'failed', failure_reason = 'The start time 9:05:07 is past the end of the video.'
      where episode_id = $1 and status <> 'failed'`,
    [episodeId],
  );
}

describe('trim times against the video', () => {
  it("refuses a start past the end of a 45 s upload, naming both, and writes nothing", async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db, 'starter');
      const file = `${user.id}/u/short.mp4`;
      await addCheckedEpisodeFile(db, file, 45);
      const outcome = await runAs(db, { id: user.id }, 'select public.submit_episode($1, $2)', [[file], { startTimestamp: '9:05:07' }]);
      expect(outcome).toMatchObject({
        code: '22023',
        message: 'start_past_end',
        detail: 'The start time 9:05:07 is past the end of the video (00:00:45 long).',
      });
      expect(await countRows(db, user.id)).toEqual({ episodes: 0, logs: 0, deliveries: 0 });
      expect(await stats(db, user.id)).toMatchObject({ thisMonth: 0, canSubmit: true });
    });
  });

  it('takes the parts together, needs one second left, and keeps the length on the episode', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db, 'scale');
      const files = [`${user.id}/u/a.mp4`, `${user.id}/u/b.mp4`];
      await addCheckedEpisodeFile(db, files[0], 30);
      await addCheckedEpisodeFile(db, files[1], 30.5);
      const refused = await runAs(db, { id: user.id }, 'select public.submit_episode($1, $2)', [files, { startTimestamp: '00:01:00' }]);
      expect(refused).toMatchObject({ message: 'start_past_end' });
      const accepted = await submit(db, user.id, files, { startTimestamp: '00:00:59' });
      const { rows } = await db.query('select duration_seconds::float as d from public.episodes where id = $1', [accepted.id]);
      expect(rows[0].d).toBe(60.5);
    });
  });

  it('accepts any start when a length could not be read (the worker checks it then)', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db);
      const files = [`${user.id}/u/a.mp4`, `${user.id}/u/b.mp4`];
      await addCheckedEpisodeFile(db, files[0], 30);
      await addCheckedEpisodeFile(db, files[1], null);
      const episode = await submit(db, user.id, files, { startTimestamp: '9:05:07' });
      const { rows } = await db.query('select duration_seconds from public.episodes where id = $1', [episode.id]);
      expect(rows[0].duration_seconds).toBeNull();
    });
  });

  it('refuses an end that is not after the start, for subscribers and administrators alike', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db);
      const file = `${user.id}/u/a.mp4`;
      await addCheckedEpisodeFile(db, file, 600);
      for (const [start, end] of [['00:02:00', '00:01:00'], ['00:01:00', '0:01:00']]) {
        const outcome = await runAs(db, { id: user.id }, 'select public.submit_episode($1, $2)', [[file], { startTimestamp: start, endTimestamp: end }]);
        expect(outcome).toMatchObject({ code: '22023', message: 'invalid_time_range', detail: 'The end time must be after the start time.' });
      }
      const admin = await createUser(db, { admin: true });
      const resubmit = await runAs(db, { id: admin.id, admin: true, email: admin.email }, 'select public.admin_resubmit_submission($1, $2, $3)', [
        [file],
        user.email,
        { startTimestamp: '00:02:00', endTimestamp: '00:01:00' },
      ]);
      expect(resubmit).toMatchObject({ message: 'invalid_time_range' });
      expect(await countRows(db, user.id)).toEqual({ episodes: 0, logs: 0, deliveries: 0 });
    });
  });
});

describe('the month’s allowance and the total', () => {
  it('a failed episode gives its slot back; a queued one holds it; only a delivered one is processed', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db, 'starter');
      const files = [`${user.id}/u/a.mp4`, `${user.id}/u/b.mp4`, `${user.id}/u/c.mp4`];
      for (const file of files) await addCheckedEpisodeFile(db, file, 45);

      const first = await submit(db, user.id, [files[0]]);
      expect(await latestProcessing(db, String(first.id))).toMatchObject({ status: 'queued' });
      expect(await stats(db, user.id)).toMatchObject({ thisMonth: 1, currentCount: 1, total: 0, canSubmit: false, blockReason: 'monthly_limit' });
      // submit_episode agrees with the stats: no room.
      expect(await runAs(db, { id: user.id }, 'select public.submit_episode($1)', [[files[1]]])).toMatchObject({ code: 'PT403', message: 'monthly_limit' });

      await failProcessing(db, String(first.id));
      expect(await stats(db, user.id)).toMatchObject({ thisMonth: 0, currentCount: 0, total: 0, canSubmit: true, blockReason: null });

      const second = await submit(db, user.id, [files[1]]);
      await db.query(`update public.episode_processing set status = 'delivered' where episode_id = $1`, [second.id]);
      expect(await stats(db, user.id)).toMatchObject({ thisMonth: 1, total: 1, blockReason: 'monthly_limit' });
    });
  });

  it('counts a delivery to the webhook automation as processed and its give-up as failed', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db, 'growth');
      const delivered = await addEpisode(db, user.id);
      const failed = await addEpisode(db, user.id);
      for (const [episode, status] of [[delivered, 'delivered'], [failed, 'failed']]) {
        await db.query(
          `insert into public.submission_logs (episode_id, user_id, user_email, status, object_storage_files)
           select id, user_id, 'x@example.test', $2, files from public.episodes where id = $1`,
          [episode, status],
        );
        await db.query(`delete from public.episode_processing where episode_id = $1`, [episode]);
      }
      expect(await stats(db, user.id)).toMatchObject({ thisMonth: 1, total: 1, canSubmit: true });
    });
  });

  it('an episode whose files reached Drive before it failed keeps its slot, and its retry needs none (issue 39, item 1)', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db, 'starter');
      const files = [`${user.id}/u/a.mp4`, `${user.id}/u/b.mp4`];
      for (const file of files) await addCheckedEpisodeFile(db, file, 45);
      const first = String((await submit(db, user.id, [files[0]])).id);
      // What the worker leaves when Drive is disconnected after the finished episode landed: the
      // episode's file recorded with its Drive id, the next file not, and the job failed.
      await db.query(
        `update public.episode_processing
            set status = 'failed', failure_reason = 'Google Drive is not connected. Please reconnect your Google Drive account.',
                outputs = '[{"name": "Show.mp4", "kind": "episode", "driveFileId": "drive-1"}, {"name": "Show - clip 01.mp4", "kind": "clip"}]'
          where episode_id = $1`,
        [first],
      );
      await db.query(`update public.submission_logs set submitted_at = now() - interval '1 minute' where episode_id = $1`, [first]);
      expect(await stats(db, user.id)).toMatchObject({ thisMonth: 1, total: 0, canSubmit: false, blockReason: 'monthly_limit' });
      expect(await runAs(db, { id: user.id }, 'select public.submit_episode($1)', [[files[1]]])).toMatchObject({ code: 'PT403', message: 'monthly_limit' });

      // Finishing the delivery it paid for takes no second slot.
      const [{ r }] = await queryAs<{ r: Json }>(db, { id: user.id }, 'select public.retry_episode($1) as r', [first]);
      expect(r).toMatchObject({ id: first });
      expect(await stats(db, user.id)).toMatchObject({ thisMonth: 1, blockReason: 'monthly_limit' });
      expect(await countRows(db, user.id)).toEqual({ episodes: 1, logs: 2, deliveries: 2 });
    });
  });

  it('an episode with a post that went out keeps its slot even if no Drive file is recorded', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db, 'starter');
      const file = `${user.id}/u/a.mp4`;
      await addCheckedEpisodeFile(db, file, 45);
      const episode = String((await submit(db, user.id, [file])).id);
      const { rows } = await db.query(`select id from public.episode_processing where episode_id = $1`, [episode]);
      const clipId = await addClip(db, rows[0].id, 1, 'Show - clip 01.mp4');
      await db.query(`update public.episode_clips set drive_file_id = null where id = $1`, [clipId]);
      await db.query(
        `insert into public.scheduled_posts (episode_processing_id, user_id, provider, clip_id, scheduled_for, status, posted_at)
         select id, user_id, 'x', $2, now(), 'posted', now() from public.episode_processing where episode_id = $1`,
        [episode, clipId],
      );
      await failProcessing(db, episode);
      expect(await stats(db, user.id)).toMatchObject({ thisMonth: 1, blockReason: 'monthly_limit' });
    });
  });

  it('an episode delivered once stays processed and counted, whatever a later resubmission does', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db, 'starter');
      const episode = await addEpisode(db, user.id, new Date(Date.now() - 60_000));
      await setProcessing(db, episode, 'delivered', new Date(Date.now() - 50_000));
      await setProcessing(db, episode, 'failed');
      expect(await stats(db, user.id)).toMatchObject({ thisMonth: 1, total: 1, blockReason: 'monthly_limit' });
    });
  });
});

describe('retry_episode()', () => {
  async function failedEpisode(db: pg.Client, tier = 'starter') {
    const user = await createReadySubscriber(db, tier);
    const file = `${user.id}/u/a.mp4`;
    await addCheckedEpisodeFile(db, file, 45);
    const episode = String((await submit(db, user.id, [file], { clipStyle: 'CREATIVE', daysBetweenClips: 3 })).id);
    await failProcessing(db, episode);
    // The first attempt a minute ago: in one transaction now() is the same for every row.
    await db.query(`update public.submission_logs set submitted_at = now() - interval '1 minute' where episode_id = $1`, [episode]);
    await db.query(`update public.episode_processing set created_at = now() - interval '1 minute' where episode_id = $1`, [episode]);
    return { user, file, episode };
  }

  it('queues the same files and options again as a new log, which uses the allowance', async () => {
    await inRolledBackTx(async (db) => {
      const { user, file, episode } = await failedEpisode(db);
      const before = await latestProcessing(db, episode);
      const [{ r }] = await queryAs<{ r: Json }>(db, { id: user.id }, 'select public.retry_episode($1) as r', [episode]);
      expect(r).toMatchObject({ id: episode });
      const log = (await db.query('select * from public.submission_logs where id = $1', [r.submissionLogId])).rows[0];
      expect(log).toMatchObject({ episode_id: episode, status: 'submitted', object_storage_files: [file], original_log_id: before.log });
      expect(log.submission_parameters).toMatchObject({ clipStyle: 'CREATIVE', daysBetweenClips: 3, startTimestamp: null });
      expect(await latestProcessing(db, episode)).toMatchObject({ status: 'queued', log: r.submissionLogId });
      const delivery = (await db.query('select skipped_at, payload from public.webhook_deliveries where submission_log_id = $1', [log.id])).rows[0];
      expect(delivery.skipped_at).not.toBeNull();
      expect(delivery.payload).toMatchObject({ event: 'episode.submitted', originalLogId: before.log });
      expect(await stats(db, user.id)).toMatchObject({ thisMonth: 1, blockReason: 'monthly_limit' });
      expect(await countRows(db, user.id)).toEqual({ episodes: 1, logs: 2, deliveries: 2 });
    });
  });

  it('refuses an episode that did not fail (409) and one of someone else or none (404), writing nothing', async () => {
    await inRolledBackTx(async (db) => {
      const { user, episode } = await failedEpisode(db);
      const other = await createReadySubscriber(db);
      expect(await runAs(db, { id: other.id }, 'select public.retry_episode($1)', [episode])).toMatchObject({ code: 'PT404', message: 'episode_not_found' });
      expect(await runAs(db, { id: user.id }, 'select public.retry_episode($1)', ['00000000-0000-4000-8000-000000000000'])).toMatchObject({ code: 'PT404' });
      expect((await runAs(db, 'anon', 'select public.retry_episode($1)', [episode])).code).toBe('42501');
      await db.query(`update public.episode_processing set status = 'processing' where episode_id = $1`, [episode]);
      expect(await runAs(db, { id: user.id }, 'select public.retry_episode($1)', [episode])).toMatchObject({
        code: 'PT409',
        message: 'episode_not_failed',
        detail: 'Only an episode that failed in processing can be retried.',
      });
      expect(await countRows(db, user.id)).toEqual({ episodes: 1, logs: 1, deliveries: 1 });
    });
  });

  it('refuses a retry when the month has no room left (409), and when the files are gone', async () => {
    await inRolledBackTx(async (db) => {
      const { user, episode } = await failedEpisode(db);
      const next = `${user.id}/u/b.mp4`;
      await addCheckedEpisodeFile(db, next, 45);
      await submit(db, user.id, [next]);
      expect(await runAs(db, { id: user.id }, 'select public.retry_episode($1)', [episode])).toMatchObject({
        code: 'PT409',
        message: 'monthly_limit',
        detail: 'Monthly episode submission limit reached. Please upgrade your plan to submit more episodes.',
      });
      await subscribe(db, user.id, 'scale');
      await db.query(`delete from storage.objects where bucket_id = 'episodes' and name = $1`, [`${user.id}/u/a.mp4`]);
      expect(await runAs(db, { id: user.id }, 'select public.retry_episode($1)', [episode])).toMatchObject({ code: 'PT409', message: 'episode_files_missing' });
      expect(await countRows(db, user.id)).toEqual({ episodes: 2, logs: 2, deliveries: 2 });
    });
  });

  it('refuses to retry an episode that failed for good, saying why and what to do (issue 43, item 3)', async () => {
    await inRolledBackTx(async (db) => {
      const { user, episode } = await failedEpisode(db);
      await db.query(`update public.episode_processing set failure_permanent = true, failure_reason = 'a.mp4 has no video.' where episode_id = $1`, [episode]);
      expect(await runAs(db, { id: user.id }, 'select public.retry_episode($1)', [episode])).toMatchObject({
        code: 'PT409',
        message: 'episode_failure_permanent',
        detail: 'This episode cannot be processed as submitted (a.mp4 has no video). Please submit it again with a corrected file or start and end times.',
      });
      expect(await countRows(db, user.id)).toEqual({ episodes: 1, logs: 1, deliveries: 1 });
    });
  });

  it('keeps the gating: hosting not ready is refused as for a submission', async () => {
    await inRolledBackTx(async (db) => {
      const { user, episode } = await failedEpisode(db);
      await setHostingReady(db, user.id, false);
      expect(await runAs(db, { id: user.id }, 'select public.retry_episode($1)', [episode])).toMatchObject({ code: 'PT403', message: 'hosting_setup' });
    });
  });

  it('counts a retry in the month it happens, not the month of the first attempt', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db, 'starter');
      const file = `${user.id}/u/old.mp4`;
      await addCheckedEpisodeFile(db, file, 45);
      const { rows } = await db.query(
        `insert into public.episodes (user_id, title, files, submitted_at) values ($1, 'Old', $2, now() - interval '40 days') returning id`,
        [user.id, [file]],
      );
      const episode = rows[0].id as string;
      await setProcessing(db, episode, 'failed', new Date(Date.now() - 40 * 86_400_000));
      expect(await stats(db, user.id)).toMatchObject({ thisMonth: 0, canSubmit: true });
      await queryAs(db, { id: user.id }, 'select public.retry_episode($1)', [episode]);
      expect(await stats(db, user.id)).toMatchObject({ thisMonth: 1, blockReason: 'monthly_limit' });
    });
  });
});

describe('hosting setup', () => {
  it('starts when onboarding completes, shows on the dashboard until hosting is ready', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createUser(db);
      await subscribe(db, user.id, 'starter');
      expect(await stats(db, user.id)).toMatchObject({ hostingSetup: false, hostingSetupStartedAt: null });
      await db.query(`update public.profiles set onboarding_completed_at = now() - interval '2 days' where id = $1`, [user.id]);
      const started = (await stats(db, user.id)).hostingSetupStartedAt as string;
      expect(Date.now() - new Date(started).getTime()).toBeGreaterThan(2 * 86_400_000 - 60_000);
      await setHostingReady(db, user.id, true);
      expect(await stats(db, user.id)).toMatchObject({ hostingSetup: true, hostingSetupStartedAt: null });
    });
  });

  async function asAdmin(db: pg.Client, admin: { id: string; email: string }, sql: string, params: unknown[] = []): Promise<Json> {
    return (await queryAs<{ r: Json }>(db, { id: admin.id, admin: true, email: admin.email }, `select ${sql} as r`, params))[0].r;
  }

  it('lists the waiting subscribers to administrators, longest waiting first, a page at a time', async () => {
    await inRolledBackTx(async (db) => {
      // Only this test's rows: everything else waiting is moved out of the way, then restored by the rollback.
      await db.query(`update public.profiles set hosting_ready_at = now() where hosting_ready_at is null`);
      const admin = await createUser(db, { admin: true });
      const waiting = [];
      for (const days of [3, 1, 2]) {
        const user = await createUser(db);
        await subscribe(db, user.id, 'growth');
        await db.query(`update public.profiles set onboarding_completed_at = now() - make_interval(days => $2) where id = $1`, [user.id, days]);
        waiting.push({ ...user, days });
      }
      const first = await asAdmin(db, admin, 'public.admin_hosting_setups(null, null, 2)');
      expect((first.items as Json[]).map((item) => item.email)).toEqual([waiting[0].email, waiting[2].email]);
      expect(first.items).toEqual(expect.arrayContaining([expect.objectContaining({ subscriptionTier: 'growth', subscriptionStatus: 'active' })]));
      const next = first.next as { startedAt: string; id: string };
      const second = await asAdmin(db, admin, 'public.admin_hosting_setups($1, $2, 2)', [next.startedAt, next.id]);
      expect((second.items as Json[]).map((item) => item.email)).toEqual([waiting[1].email]);
      expect(second.next).toBeNull();

      const user = await createUser(db);
      expect(await runAs(db, { id: user.id }, 'select public.admin_hosting_setups()')).toMatchObject({ code: '42501', message: 'admin_required' });
      expect((await runAs(db, 'anon', 'select public.admin_hosting_setups()')).code).toBe('42501');
    });
  });

  it('marking hosting ready takes the subscriber off the list and unblocks them; starting it again puts them back; both audited', async () => {
    await inRolledBackTx(async (db) => {
      await db.query(`update public.profiles set hosting_ready_at = now() where hosting_ready_at is null`);
      const admin = await createUser(db, { admin: true });
      const user = await createReadySubscriber(db, 'growth');
      await setHostingReady(db, user.id, false);
      await db.query(`update public.profiles set hosting_setup_started_at = now() - interval '1 day' where id = $1`, [user.id]);
      expect(((await asAdmin(db, admin, 'public.admin_hosting_setups()')).items as Json[]).map((i) => i.id)).toEqual([user.id]);

      await asAdmin(db, admin, 'public.admin_mark_hosting_ready($1, true)', [user.email]);
      expect((await asAdmin(db, admin, 'public.admin_hosting_setups()')).items).toEqual([]);
      expect(await stats(db, user.id)).toMatchObject({ hostingSetup: true, canSubmit: true, hostingSetupStartedAt: null });

      await asAdmin(db, admin, 'public.admin_mark_hosting_ready($1, false)', [user.email]);
      const again = (await asAdmin(db, admin, 'public.admin_hosting_setups()')).items as Json[];
      expect(again.map((i) => i.id)).toEqual([user.id]);
      expect(Date.now() - new Date(String(again[0].hostingSetupStartedAt)).getTime()).toBeLessThan(60_000);
      expect(await stats(db, user.id)).toMatchObject({ hostingSetup: false, blockReason: 'hosting_setup' });

      const { rows } = await db.query(
        `select admin_id, admin_email, action, details from public.admin_audit_log where target_user_id = $1 order by id`,
        [user.id],
      );
      expect(rows).toEqual([
        { admin_id: admin.id, admin_email: admin.email, action: 'hosting.mark_ready', details: { ready: true } },
        { admin_id: admin.id, admin_email: admin.email, action: 'hosting.mark_ready', details: { ready: false } },
      ]);
    });
  });
});
