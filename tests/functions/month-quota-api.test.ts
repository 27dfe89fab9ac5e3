// A subscriber's month without surprises through /api (issue 26, items 5 and 9): trim times
// checked against the stored video's length, a failed episode that gives its slot back and can
// be retried, and the admin console's hosting setup queue.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { makeVideo } from '../support/media.ts';
import { mp4Bytes } from '../support/media-fixtures.ts';
import { withDb } from '../support/stack.ts';
import { callApi, countRows, readySubmitter, submitEpisode, tokenOf, uploadEpisodeFile } from '../support/episodes.ts';
import { createUser } from '../support/users.ts';

const video = (seconds: number, moovLast = false) =>
  Buffer.from(mp4Bytes(320, 180, { durationSeconds: seconds, moovLast, padding: moovLast ? 200_000 : 0 })) as Buffer<ArrayBuffer>;

async function processingOf(token: string, episodeId: string) {
  const list = await callApi('GET', 'episodes', token);
  return (list.body as { id: string; processing: { status: string; failureReason: string | null } | null }[]).find((e) => e.id === episodeId)?.processing;
}

describe('trim times against the stored video', () => {
  it("refuses 9:05:07 on a 45 s upload before anything is written, naming the video's length", async () => {
    const ana = await readySubmitter({ tier: 'starter' });
    for (const moovLast of [false, true]) {
      const file = await uploadEpisodeFile(ana, 0, 'short.mp4', video(45, moovLast));
      expect(await submitEpisode(ana, [file.path], { startTimestamp: '9:05:07' })).toEqual({
        status: 400,
        body: { message: 'The start time 9:05:07 is past the end of the video (00:00:45 long).' },
      });
    }
    expect(await countRows(ana.id)).toEqual({ episodes: 0, logs: 0, deliveries: 0 });
    expect((await callApi('GET', 'episodes/stats', ana.token)).body).toMatchObject({ thisMonth: 0, canSubmit: true });
  });

  it("reads the length of an MP4 as ffmpeg writes it (the movie box after the media)", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'castloop-quota-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const bytes = await readFile(makeVideo(path.join(dir, 'real.mp4'), { size: '160x90', fps: 10, seconds: 6 }));
    const fay = await readySubmitter({ tier: 'growth' });
    const file = await uploadEpisodeFile(fay, 0, 'real.mp4', bytes as Buffer<ArrayBuffer>);
    const refused = await submitEpisode(fay, [file.path], { startTimestamp: '00:00:06' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^The start time 00:00:06 is past the end of the video \(00:00:0[56] long\)\.$/);
    expect((await submitEpisode(fay, [file.path], { startTimestamp: '00:00:04' })).status).toBe(201);
  });

  it('refuses an end that is not after the start (400) and takes times inside the video', async () => {
    const ben = await readySubmitter({ tier: 'growth' });
    const file = await uploadEpisodeFile(ben, 0, 'talk.mp4', video(120));
    const backwards = await submitEpisode(ben, [file.path], { startTimestamp: '00:01:00', endTimestamp: '00:00:30' });
    expect(backwards.status).toBe(400);
    expect(backwards.body.message).toMatch(/The end time must be after the start time\./);
    expect(await countRows(ben.id)).toEqual({ episodes: 0, logs: 0, deliveries: 0 });
    const ok = await submitEpisode(ben, [file.path], { startTimestamp: '00:01:00', endTimestamp: '00:05:00' });
    expect(ok.status).toBe(201);
    const { rows } = await withDb((db) => db.query('select duration_seconds::float as d from public.episodes where id = $1', [ok.body.episode.id]));
    expect(rows[0].d).toBe(120);
  });
});

/** `mp4` with `count` empty 'free' boxes after its 'ftyp': each costs a ranged read on the way to the movie header. */
function withFreeBoxes(mp4: Buffer<ArrayBuffer>, count: number): Buffer<ArrayBuffer> {
  const ftypSize = mp4.readUInt32BE(0);
  const free = Buffer.from([0, 0, 0, 8, ...Buffer.from('free')]);
  return Buffer.concat([mp4.subarray(0, ftypSize), ...Array.from({ length: count }, () => free), mp4.subarray(ftypSize)]) as Buffer<ArrayBuffer>;
}

describe('the work a submission costs before it is refused (issue 39, item 7)', () => {
  it('checks the month before reading any file, and reads a length in a few ranged requests or not at all', async () => {
    const gus = await readySubmitter({ tier: 'starter' });
    // Eight boxes before the movie: past the read budget, so the length is unknown (the worker checks it then).
    const padded = await uploadEpisodeFile(gus, 0, 'padded.mp4', withFreeBoxes(video(45), 8));
    const accepted = await submitEpisode(gus, [padded.path], { startTimestamp: '9:05:07' });
    expect(accepted.status).toBe(201);
    const { rows } = await withDb((db) => db.query('select duration_seconds from public.episodes where id = $1', [accepted.body.episode.id]));
    expect(rows[0].duration_seconds).toBeNull();

    // The month is full: refused for that before any file is looked for (this one does not exist).
    expect(await submitEpisode(gus, [`${gus.id}/${randomUUID()}/nowhere.mp4`])).toEqual({
      status: 403,
      body: { message: 'Monthly episode submission limit reached. Please upgrade your plan to submit more episodes.' },
    });

    // Two boxes before the movie are read as usual.
    const ivy = await readySubmitter({ tier: 'starter' });
    const near = await uploadEpisodeFile(ivy, 0, 'near.mp4', withFreeBoxes(video(45), 2));
    expect(await submitEpisode(ivy, [near.path], { startTimestamp: '9:05:07' })).toEqual({
      status: 400,
      body: { message: 'The start time 9:05:07 is past the end of the video (00:00:45 long).' },
    });
  });
});

describe('a failed episode: its slot back, and a retry', () => {
  it('fails in processing without using the month; a file that is no video cannot be retried, a passing failure can (then it counts again)', async () => {
    const cleo = await readySubmitter({ tier: 'starter' });
    // No length in its header: accepted, and the worker finds out.
    const file = await uploadEpisodeFile(cleo, 64 * 1024, 'unreadable.mp4');
    const submitted = await submitEpisode(cleo, [file.path], { startTimestamp: '9:05:07' });
    expect(submitted.status).toBe(201);
    const id = submitted.body.episode.id as string;
    await expect.poll(async () => (await processingOf(cleo.token, id))?.status, { timeout: 60_000, interval: 250 }).toBe('failed');
    expect((await processingOf(cleo.token, id))?.failureReason).toBeTruthy();
    expect((await callApi('GET', 'episodes/stats', cleo.token)).body).toMatchObject({ thisMonth: 0, currentCount: 0, total: 0, limit: 1, canSubmit: true, blockReason: null });

    // The same file would fail again: the retry is refused with what to do instead.
    expect(await callApi('POST', `episodes/${id}/retry`, cleo.token)).toEqual({
      status: 409,
      body: { message: 'This episode cannot be processed as submitted (unreadable.mp4 is not a readable video). Please submit it again with a corrected file or start and end times.' },
    });

    // A failure another attempt can mend (the worker says so, as for Drive refusing for a moment): retried.
    const fine = await uploadEpisodeFile(cleo, 0, 'fine.mp4', video(30));
    const passingId = await withDb(async (db) => {
      const episode = await db.query(`insert into public.episodes (user_id, title, files) values ($1, 'Fine', array[$2]) returning id`, [cleo.id, fine.path]);
      await db.query(
        `with log as (insert into public.submission_logs (episode_id, user_id, user_email, status, object_storage_files)
                      values ($1, $2, $3, 'failed', array[$4]) returning id, episode_id, user_id)
         insert into public.episode_processing (submission_log_id, episode_id, user_id, status, failure_reason, failure_permanent)
         select id, episode_id, user_id, 'failed', 'Google Drive did not answer.', false from log`,
        [episode.rows[0].id, cleo.id, cleo.email, fine.path],
      );
      return episode.rows[0].id as string;
    });
    expect((await callApi('GET', 'episodes/stats', cleo.token)).body).toMatchObject({ thisMonth: 0, canSubmit: true });
    const retried = await callApi('POST', `episodes/${passingId}/retry`, cleo.token);
    expect(retried).toMatchObject({ status: 200, body: { success: true, episode: { id: passingId, submissionLogId: expect.any(String) } } });
    expect(await countRows(cleo.id)).toMatchObject({ episodes: 2, logs: 3 });
  });

  it('answers 404 for an episode not the caller’s (or no episode), 409 when it did not fail or the month is full, 401 signed out', async () => {
    const dana = await readySubmitter({ tier: 'starter' });
    const eli = await readySubmitter({ tier: 'starter' });
    const file = await uploadEpisodeFile(dana, 0, 'kept.mp4', video(60));
    const { episodeId, logId } = await withDb(async (db) => {
      const episode = await db.query(`insert into public.episodes (user_id, title, files) values ($1, 'Mine', array[$2]) returning id`, [dana.id, file.path]);
      const log = await db.query(
        `insert into public.submission_logs (episode_id, user_id, user_email, status, object_storage_files)
         values ($1, $2, $3, 'failed', array[$4]) returning id`,
        [episode.rows[0].id, dana.id, dana.email, file.path],
      );
      return { episodeId: episode.rows[0].id as string, logId: log.rows[0].id as string };
    });
    expect(await callApi('POST', `episodes/${episodeId}/retry`, eli.token)).toEqual({ status: 404, body: { message: 'No such episode.' } });
    expect(await callApi('POST', `episodes/${randomUUID()}/retry`, dana.token)).toEqual({ status: 404, body: { message: 'No such episode.' } });
    expect(await callApi('POST', 'episodes/not-an-id/retry', dana.token)).toEqual({ status: 404, body: { message: 'No such episode.' } });
    expect((await callApi('POST', `episodes/${episodeId}/retry`)).status).toBe(401);

    // Failed (the webhook gave up), but another episode holds this month's only slot.
    await withDb((db) => db.query(`insert into public.episodes (user_id, title, files) values ($1, 'Other', array['x'])`, [dana.id]));
    expect(await callApi('POST', `episodes/${episodeId}/retry`, dana.token)).toEqual({
      status: 409,
      body: { message: 'Monthly episode submission limit reached. Please upgrade your plan to submit more episodes.' },
    });
    await withDb((db) => db.query(`update public.submission_logs set status = 'delivered' where id = $1`, [logId]));
    expect(await callApi('POST', `episodes/${episodeId}/retry`, dana.token)).toEqual({
      status: 409,
      body: { message: 'Only an episode that failed in processing can be retried.' },
    });
    expect(await countRows(dana.id)).toMatchObject({ episodes: 2, logs: 1 });
  });
});

describe('/api/admin/hosting-setups', () => {
  it('lists waiting subscribers to administrators only, marks ready and starts again, audited', async () => {
    const admin = await createUser('admin');
    const adminToken = await tokenOf(admin);
    const waiting = await createUser('onboarded', { drive: 'connected' });
    const waitingToken = await tokenOf(waiting);

    expect((await callApi('GET', 'admin/hosting-setups')).status).toBe(401);
    expect((await callApi('GET', 'admin/hosting-setups', waitingToken)).status).toBe(403);
    expect((await callApi('POST', 'admin/hosting-setups/ready', waitingToken, { email: waiting.email })).status).toBe(403);

    const listed = async () => {
      const emails: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await callApi('GET', `admin/hosting-setups?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, adminToken);
        expect(page.status).toBe(200);
        emails.push(...(page.body.items as { email: string }[]).map((item) => item.email));
        cursor = page.body.nextCursor;
      } while (cursor);
      return emails;
    };
    expect(await listed()).toContain(waiting.email);
    expect((await callApi('GET', 'episodes/stats', waitingToken)).body).toMatchObject({ blockReason: 'hosting_setup', hostingSetupStartedAt: expect.any(String) });

    const ready = await callApi('POST', 'admin/hosting-setups/ready', adminToken, { email: waiting.email });
    expect(ready).toMatchObject({ status: 200, body: { message: `Hosting is ready for ${waiting.email}: they can submit episodes now.` } });
    expect(await listed()).not.toContain(waiting.email);
    expect((await callApi('GET', 'episodes/stats', waitingToken)).body).toMatchObject({ hostingSetup: true, canSubmit: true, hostingSetupStartedAt: null });

    const started = await callApi('POST', 'admin/hosting-setups/start', adminToken, { email: waiting.email });
    expect(started).toMatchObject({ status: 200, body: { subscriber: { hostingReadyAt: null, hostingSetupStartedAt: expect.any(String) } } });
    expect(await listed()).toContain(waiting.email);

    expect(await callApi('POST', 'admin/hosting-setups/ready', adminToken, { email: 'nobody@example.test' })).toEqual({ status: 404, body: { message: 'No account uses nobody@example.test.' } });
    expect((await callApi('POST', 'admin/hosting-setups/ready', adminToken, { email: ' ' })).status).toBe(400);
    expect((await callApi('GET', 'admin/hosting-setups?cursor=bad', adminToken)).status).toBe(400);

    const audit = await withDb(async (db) =>
      (await db.query(`select admin_id, details from public.admin_audit_log where target_user_id = $1 and action = 'hosting.mark_ready' order by id`, [waiting.id])).rows,
    );
    expect(audit).toEqual([
      { admin_id: admin.id, details: { ready: true } },
      { admin_id: admin.id, details: { ready: false } },
    ]);
  });
});
