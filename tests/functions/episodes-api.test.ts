// The episode paths of the `api` function: submit (every refusal is a 4xx with the reason and
// writes nothing; files must be MP4 on their bytes), stats with gating, the caller's list with each
// episode's processing (never another user's), signed uploads (only for subscribers).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { config, withDb } from '../support/stack.ts';
import { createUser } from '../support/users.ts';
import { mp4Bytes } from '../support/media-fixtures.ts';
import { callApi, countRows, mp4Like, readySubmitter, submitEpisode, tokenOf, uploadEpisodeFile, useAutomation } from '../support/episodes.ts';

// The webhook takes these submissions and leaves them pending: the built-in worker would fail
// their made-up bytes at once, which gives the month's slot back (month-quota-api.test.ts).
useAutomation('webhook');

describe('POST /api/episodes/submit-direct-storage', () => {
  it('writes the episode, its log and one outbox row; stats and the list show it', async () => {
    const alice = await readySubmitter({ tier: 'growth' });
    const files = [await uploadEpisodeFile(alice, 1000, 'My-First-Show.mp4'), await uploadEpisodeFile(alice, 2000, 'part-2.mp4')];
    const options = { startTimestamp: '0:01:30', endTimestamp: '01:02:03', addLogo: false, addIntroOutro: true, clipStyle: 'CREATIVE', daysBetweenClips: 7 };
    const res = await submitEpisode(alice, files.map((f) => f.path), options);
    expect(res.status).toBe(201);
    expect(res.body.episode.title).toBe('My-First-Show');

    expect(await countRows(alice.id)).toEqual({ episodes: 1, logs: 1, deliveries: 1 });
    const log = await withDb(async (db) => (await db.query('select status, object_storage_files, submission_parameters from public.submission_logs where user_id = $1', [alice.id])).rows[0]);
    expect(log.status).toBe('submitted');
    expect(log.object_storage_files).toEqual(files.map((f) => f.path));
    expect(log.submission_parameters).toMatchObject(options);

    const stats = await callApi('GET', 'episodes/stats', alice.token);
    expect(stats.status).toBe(200);
    // Counted this month; not processed yet.
    expect(stats.body).toMatchObject({ thisMonth: 1, total: 0, currentCount: 1, limit: 2, subscriptionTier: 'growth', canSubmit: true, blockReason: null, hostingSetup: true, onboardingCompleted: true, socialConnected: false });

    const list = await callApi('GET', 'episodes', alice.token);
    expect(list.status).toBe(200);
    // The webhook has the submission: no built-in processing (month-quota-api.test.ts shows one).
    expect(list.body).toEqual([{ id: res.body.episode.id, title: 'My-First-Show', submittedAt: expect.any(String), processing: null }]);
  });

  it('refuses bad submissions with a 4xx and the reason, writing nothing', async () => {
    const alice = await readySubmitter({ tier: 'growth' });
    const bob = await readySubmitter();
    const own = await uploadEpisodeFile(alice);
    const bobs = await uploadEpisodeFile(bob);
    const cases: Array<[string, unknown, number, RegExp]> = [
      ["another user's file", { uploadUrls: [bobs.path] }, 403, /Only your own uploaded files/],
      ['a missing file', { uploadUrls: [`${alice.id}/${randomUUID()}/gone.mp4`] }, 404, /was not found/],
      ['a file that is not MP4', { uploadUrls: [`${alice.id}/${randomUUID()}/notes.txt`] }, 400, /Only MP4/],
      ['11 files', { uploadUrls: Array.from({ length: 11 }, (_, i) => `${alice.id}/f${i}.mp4`) }, 400, /At most 10 files/],
      ['no files', { uploadUrls: [] }, 400, /Please upload at least one video file/],
      ['a bad start time', { uploadUrls: [own.path], episodeData: { startTimestamp: '24:00:00' } }, 400, /Must be in hh:mm:ss format/],
      ['a bad end time', { uploadUrls: [own.path], episodeData: { endTimestamp: '1:2:3' } }, 400, /Must be in hh:mm:ss format/],
      ['days between clips out of range', { uploadUrls: [own.path], episodeData: { daysBetweenClips: 31 } }, 400, /.+/],
      ['an unknown clip style', { uploadUrls: [own.path], episodeData: { clipStyle: 'PORTRAIT' } }, 400, /.+/],
      ['a body that is not JSON', 'not json', 400, /valid JSON/],
    ];
    for (const [what, body, status, message] of cases) {
      const res = await fetch(`${config.urls.api}/functions/v1/api/episodes/submit-direct-storage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${alice.token}` },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      const answer = await res.json();
      expect([what, res.status]).toEqual([what, status]);
      expect(answer.message, what).toMatch(message);
    }
    expect(await countRows(alice.id)).toEqual({ episodes: 0, logs: 0, deliveries: 0 });

    const anonymous = await callApi('POST', 'episodes/submit-direct-storage', undefined, { uploadUrls: [own.path] });
    expect(anonymous).toEqual({ status: 401, body: { message: 'Unauthorized' } });
  });

  it('accepts only files that are MP4 on their bytes, whatever their name and declared type', async () => {
    const erin = await readySubmitter({ tier: 'growth' });
    const html = await uploadEpisodeFile(erin, 0, 'episode.mp4', Buffer.from('<!doctype html><script>alert(document.cookie)</script>'));
    const playlist = await uploadEpisodeFile(erin, 0, 'playlist.mp4', Buffer.from('#EXTM3U\n#EXTINF:10,\nfile:///etc/passwd\n'));
    const good = await uploadEpisodeFile(erin);
    for (const bad of [html, playlist]) {
      const res = await submitEpisode(erin, [good.path, bad.path]);
      expect(res).toEqual({ status: 415, body: { message: `Only MP4 video files can be submitted. ${bad.path} is not an MP4 video.` } });
    }
    expect(await countRows(erin.id)).toEqual({ episodes: 0, logs: 0, deliveries: 0 });
    expect((await submitEpisode(erin, [good.path])).status).toBe(201);
  });

  it('rpc/submit_episode straight through PostgREST cannot skip the byte check', async () => {
    const frank = await readySubmitter({ tier: 'growth' });
    const html = await uploadEpisodeFile(frank, 0, 'episode.mp4', Buffer.from('<!doctype html><p>not a video</p>'));
    const good = await uploadEpisodeFile(frank);
    for (const files of [[html.path], [good.path]]) {
      const res = await fetch(`${config.urls.api}/rest/v1/rpc/submit_episode`, {
        method: 'POST',
        headers: { apikey: config.anonKey, authorization: `Bearer ${frank.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ files, options: {} }),
      });
      expect(res.status).toBe(415);
      expect((await res.json()).details).toMatch(/^Only MP4 video files can be submitted/);
    }
    expect(await countRows(frank.id)).toEqual({ episodes: 0, logs: 0, deliveries: 0 });
    expect((await submitEpisode(frank, [good.path])).status).toBe(201);
  });

  it('a file replaced after its check must be checked again', async () => {
    const gina = await readySubmitter({ tier: 'starter' });
    const file = await uploadEpisodeFile(gina, 0, 'episode.mp4', Buffer.from(mp4Bytes(320, 180, { durationSeconds: 45 })) as Buffer<ArrayBuffer>);
    const direct = () =>
      fetch(`${config.urls.api}/rest/v1/rpc/submit_episode`, {
        method: 'POST',
        headers: { apikey: config.anonKey, authorization: `Bearer ${gina.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ files: [file.path], options: { startTimestamp: '9:05:07' } }),
      }).then(async (res) => ({ status: res.status, reason: (await res.json()).message }));
    // Checked by the api, then refused for its start time: the check stands for these bytes.
    expect((await submitEpisode(gina, [file.path], { startTimestamp: '9:05:07' })).status).toBe(400);
    expect(await direct()).toEqual({ status: 400, reason: 'start_past_end' });
    const reopened = await fetch(`${config.urls.api}/rest/v1/rpc/open_episode_upload`, {
      method: 'POST',
      headers: { apikey: config.anonKey, authorization: `Bearer ${gina.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: file.path, bytes: 64 }),
    });
    expect(reopened.status).toBe(200);
    const replaced = await fetch(`${config.urls.api}/storage/v1/object/episodes/${file.path}`, {
      method: 'PUT',
      headers: { apikey: config.anonKey, authorization: `Bearer ${gina.token}`, 'content-type': 'video/mp4', 'x-upsert': 'true' },
      body: Buffer.from('<!doctype html><p>replaced</p>'),
    });
    expect(replaced.status).toBe(200);
    expect(await direct()).toEqual({ status: 415, reason: 'file_not_checked' });
    expect(await countRows(gina.id)).toEqual({ episodes: 0, logs: 0, deliveries: 0 });
  });

  it('checks a file again over its day-old record, and drops the records over a day old', async () => {
    const hana = await readySubmitter({ tier: 'growth' });
    const file = await uploadEpisodeFile(hana);
    const gone = randomUUID();
    await withDb((db) =>
      db.query(
        `insert into private.checked_episode_files (object_id, version, checked_at)
         select id, version, now() - interval '2 days' from storage.objects where bucket_id = 'episodes' and name = $1
         union all select $2::uuid, 'v', now() - interval '2 days'`,
        [file.path, gone],
      ),
    );
    expect((await submitEpisode(hana, [file.path])).status).toBe(201);
    const left = await withDb(async (db) => (await db.query('select 1 from private.checked_episode_files where object_id = $1', [gone])).rowCount);
    expect(left).toBe(0);
  });

  it('starter plan: the second episode of the month is refused with the limit message', async () => {
    const carol = await readySubmitter({ tier: 'starter' });
    expect((await submitEpisode(carol, [(await uploadEpisodeFile(carol)).path])).status).toBe(201);
    const second = await submitEpisode(carol, [(await uploadEpisodeFile(carol)).path]);
    expect(second).toEqual({ status: 403, body: { message: 'Monthly episode submission limit reached. Please upgrade your plan to submit more episodes.' } });
    expect(await countRows(carol.id)).toEqual({ episodes: 1, logs: 1, deliveries: 1 });
    const stats = await callApi('GET', 'episodes/stats', carol.token);
    expect(stats.body).toMatchObject({ thisMonth: 1, limit: 1, canSubmit: false, blockReason: 'monthly_limit' });
  });

  it('gates by Drive and hosting, in priority order', async () => {
    const noDrive = await createUser('onboarded', { hostingReady: true });
    const noDriveToken = await tokenOf(noDrive);
    const file = await uploadEpisodeFile({ id: noDrive.id, token: noDriveToken });
    expect((await callApi('GET', 'episodes/stats', noDriveToken)).body).toMatchObject({ canSubmit: false, blockReason: 'google_drive_required' });
    expect(await callApi('POST', 'episodes/submit-direct-storage', noDriveToken, { uploadUrls: [file.path] })).toEqual({
      status: 403,
      body: { message: 'Google Drive connection required. Please connect your Google Drive account.' },
    });
    const expired = await createUser('onboarded', { drive: 'expired', hostingReady: true });
    expect((await callApi('GET', 'episodes/stats', await tokenOf(expired))).body).toMatchObject({ blockReason: 'google_drive_invalid' });
    const hosting = await createUser('onboarded', { drive: 'connected' });
    expect((await callApi('GET', 'episodes/stats', await tokenOf(hosting))).body).toMatchObject({ blockReason: 'hosting_setup', hostingSetup: false });
    expect((await callApi('GET', 'episodes/stats')).status).toBe(401);
  });
});

describe('reading episodes', () => {
  it("answers each episode's processing: status, stage, progress and the reason it failed", async () => {
    const owner = await readySubmitter({ tier: 'scale' });
    const states = [
      { title: 'Pilot', status: 'delivered', stage: null, progress: 100, failureReason: null, failurePermanent: false },
      // Failed for good: another attempt on the same file cannot help.
      { title: 'Second-Take', status: 'failed', stage: null, progress: 35, failureReason: 'The video has no audio stream.', failurePermanent: true },
      { title: 'Live-Show', status: 'processing', stage: 'rendering', progress: 40, failureReason: null, failurePermanent: false },
    ];
    for (const state of states) {
      const res = await submitEpisode(owner, [(await uploadEpisodeFile(owner, 1024, `${state.title}.mp4`)).path]);
      expect(res.status).toBe(201);
      await withDb((db) =>
        db.query(
          `insert into public.episode_processing (submission_log_id, episode_id, user_id, status, stage, progress, failure_reason, failure_permanent)
           select l.id, l.episode_id, l.user_id, $2, $3, $4, $5, $6 from public.submission_logs l where l.id = $1`,
          [res.body.episode.submissionLogId, state.status, state.stage, state.progress, state.failureReason, state.failurePermanent],
        ),
      );
    }
    const list = await callApi('GET', 'episodes', owner.token);
    expect(list.status).toBe(200);
    expect(list.body).toEqual(
      states.toReversed().map(({ title, ...processing }) => ({ id: expect.any(String), title, submittedAt: expect.any(String), processing: { ...processing, updatedAt: expect.any(String) } })),
    );
  });

  it("never shows another user's episodes, through /api or the REST API", async () => {
    const alice = await readySubmitter({ tier: 'growth' });
    const bob = await readySubmitter({ tier: 'growth' });
    await submitEpisode(alice, [(await uploadEpisodeFile(alice)).path]);
    expect((await callApi('GET', 'episodes', bob.token)).body).toEqual([]);
    expect((await callApi('GET', 'episodes/stats', bob.token)).body).toMatchObject({ total: 0, thisMonth: 0 });
    const rest = await fetch(`${config.urls.api}/rest/v1/episodes?select=id,user_id`, { headers: { apikey: config.anonKey, authorization: `Bearer ${bob.token}` } });
    expect(await rest.json()).toEqual([]);
    expect((await callApi('GET', 'episodes')).status).toBe(401);
  });
});

describe('POST /api/objects/upload', () => {
  it('answers a signed URL in the caller\'s folder; a PUT there can then be submitted', async () => {
    const dave = await readySubmitter({ tier: 'growth' });
    const signed = await callApi('POST', 'objects/upload', dave.token);
    expect(signed.status).toBe(200);
    expect(signed.body.path.startsWith(`${dave.id}/`)).toBe(true);
    const put = await fetch(signed.body.uploadURL, { method: 'PUT', headers: { 'content-type': 'video/mp4' }, body: mp4Like(1024) });
    expect(put.status).toBe(200);
    const res = await submitEpisode(dave, [signed.body.uploadURL]);
    expect(res.status).toBe(201);
    const log = await withDb(async (db) => (await db.query('select object_storage_files from public.submission_logs where user_id = $1', [dave.id])).rows[0]);
    expect(log.object_storage_files).toEqual([signed.body.path]);
    expect((await callApi('POST', 'objects/upload')).status).toBe(401);
  });

  it('gives no upload URL to an account that never paid', async () => {
    const freeloader = await createUser('new');
    const res = await callApi('POST', 'objects/upload', await tokenOf(freeloader));
    expect(res).toEqual({ status: 403, body: { message: 'An active subscription is required to upload files.' } });
  });

  it('holds each opened upload against the quota until it lands or is cancelled, ten at most (issue 39, item 6)', async () => {
    const erin = await readySubmitter({ tier: 'starter' });
    const opened: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await callApi('POST', 'objects/upload', erin.token, { fileName: `part ${i}.mp4`, size: 3 * 1024 ** 3 });
      expect(res.status).toBe(200);
      expect(res.body.path).toMatch(new RegExp(`^${erin.id}/[0-9a-f-]{36}/part-${i}\\.mp4$`));
      opened.push(res.body.path);
    }
    const refused = await callApi('POST', 'objects/upload', erin.token, { fileName: 'one more.mp4', size: 1024 });
    expect(refused).toEqual({ status: 409, body: { message: 'You already have 10 uploads in progress. Let one finish, or remove it, before starting another.' } });
    expect((await callApi('DELETE', 'objects/upload', erin.token, { path: opened[0] })).status).toBe(204);
    // 27 GiB still declared by the nine open uploads, and 22 GiB stored: 3 GiB more passes the plan's 50 GiB.
    await withDb((db) =>
      db.query(`insert into storage.objects (bucket_id, name, owner_id, metadata) values ('episodes', $1, $2, jsonb_build_object('size', $3::bigint))`, [
        `${erin.id}/old/archive.mp4`,
        erin.id,
        22 * 1024 ** 3,
      ]),
    );
    const tooBig = await callApi('POST', 'objects/upload', erin.token, { fileName: 'huge.mp4', size: 3 * 1024 ** 3 });
    expect(tooBig).toEqual({ status: 413, body: { message: 'Storage quota reached: your plan keeps up to 53.7 GB, and 52.6 GB are stored or being uploaded.' } });
    expect((await callApi('POST', 'objects/upload', erin.token, { fileName: 'fits.mp4', size: 1024 })).status).toBe(200);
  });
});
