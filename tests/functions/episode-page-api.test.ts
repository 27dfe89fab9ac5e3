// The episode page's paths of the `api` function: GET /api/episodes/:id (the owner's episode with
// its processing, outputs and calendar; 404 JSON for anything else) and the calendar's changes
// (PATCH /api/scheduled-posts/:id, POST .../cancel, POST .../post-now): only the owner's own
// waiting posts change, every refusal is a 4xx with {message} and changes nothing.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { callApi, eventually, readySubmitter, tokenOf } from '../support/episodes.ts';
import { createUser } from '../support/users.ts';
import { postRow, seedEpisode } from '../support/episode-page.ts';

const clip = (n: number, extra: Record<string, unknown> = {}) => ({
  name: `Show - clip 0${n}.mp4`,
  kind: 'clip',
  durationSeconds: 30,
  width: 1080,
  height: 1920,
  startSeconds: n * 60,
  ...extra,
});

describe('GET /api/episodes/:id', () => {
  it("answers the owner's episode with its processing, outputs with Drive links and the calendar", async () => {
    const alice = await readySubmitter();
    const seeded = await seedEpisode(alice.id, {
      title: 'Show',
      driveFolderUrl: 'https://drive.google.com/drive/folders/folder1',
      outputs: [
        { name: 'Show.mp4', kind: 'episode', durationSeconds: 600, width: 1280, height: 720, driveFileId: 'ep1', driveUrl: 'http://sandbox.test/_sandbox/google/files/ep1' },
        clip(1, { driveFileId: 'c1' }),
        clip(2),
      ],
      posts: [
        { clipName: 'Show - clip 02.mp4', inDays: 2, provider: 'x' },
        { clipName: 'Show - clip 01.mp4', inDays: -1, status: 'posted' },
      ],
    });
    const res = await callApi('GET', `episodes/${seeded.episodeId}`, alice.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: seeded.episodeId,
      title: 'Show',
      titleConfirmed: false,
      guests: [],
      submittedAt: expect.any(String),
      processing: expect.objectContaining({
        status: 'delivered',
        progress: 100,
        failureReason: null,
        driveFolderUrl: 'https://drive.google.com/drive/folders/folder1',
      }),
    });
    expect(res.body.processing.outputs).toEqual([
      {
        name: 'Show.mp4', kind: 'episode', durationSeconds: 600, width: 1280, height: 720, driveFileId: 'ep1',
        driveUrl: 'http://sandbox.test/_sandbox/google/files/ep1', previewUrl: 'http://sandbox.test/_sandbox/google/files/ep1',
      },
      {
        name: 'Show - clip 01.mp4', kind: 'clip', durationSeconds: 30, width: 1080, height: 1920, driveFileId: 'c1',
        driveUrl: 'https://drive.google.com/file/d/c1/view', previewUrl: 'https://drive.google.com/file/d/c1/preview',
      },
      { name: 'Show - clip 02.mp4', kind: 'clip', durationSeconds: 30, width: 1080, height: 1920, driveFileId: null, driveUrl: null, previewUrl: null },
    ]);
    // Grouped by clip, in the clips' order (and by date within a clip).
    expect(res.body.processing.posts).toEqual([
      expect.objectContaining({ id: seeded.postIds[1], provider: 'youtube', clipName: 'Show - clip 01.mp4', status: 'posted', changeable: false }),
      expect.objectContaining({ id: seeded.postIds[0], provider: 'x', clipName: 'Show - clip 02.mp4', status: 'scheduled', changeable: true, lastError: null }),
    ]);
  });

  it('shows progress while processing and the reason after a failure', async () => {
    const alice = await readySubmitter();
    const running = await seedEpisode(alice.id, { status: 'processing', stage: 'rendering clip 2 of 3', progress: 55 });
    const failed = await seedEpisode(alice.id, { status: 'failed', failureReason: 'episode.mp4 is not a readable video' });
    expect((await callApi('GET', `episodes/${running.episodeId}`, alice.token)).body.processing).toMatchObject({
      status: 'processing', stage: 'rendering clip 2 of 3', progress: 55, outputs: [], posts: [],
    });
    expect((await callApi('GET', `episodes/${failed.episodeId}`, alice.token)).body.processing).toMatchObject({
      status: 'failed', failureReason: 'episode.mp4 is not a readable video',
    });
  });

  it("answers 404 JSON for another user's episode (even to an admin), an unknown id and a malformed one; 401 without a session", async () => {
    const alice = await readySubmitter();
    const bob = await readySubmitter();
    const adminUser = await createUser('admin');
    const admin = { token: await tokenOf(adminUser) };
    const seeded = await seedEpisode(alice.id);
    for (const [who, path] of [
      [bob.token, `episodes/${seeded.episodeId}`],
      [admin.token, `episodes/${seeded.episodeId}`],
      [alice.token, `episodes/${randomUUID()}`],
      [alice.token, 'episodes/not-an-id'],
    ] as const) {
      expect(await callApi('GET', path, who)).toEqual({ status: 404, body: { message: 'Episode not found' } });
    }
    expect(await callApi('GET', `episodes/${seeded.episodeId}`)).toEqual({ status: 401, body: { message: 'Unauthorized' } });
    // The list and the stats keep their paths.
    expect((await callApi('GET', 'episodes/stats', alice.token)).status).toBe(200);
  });
});

describe('the posting calendar', () => {
  it('postpones a waiting post to a future date; refuses a past, far or malformed one', async () => {
    const alice = await readySubmitter();
    const { postIds: [id] } = await seedEpisode(alice.id, { posts: [{ clipName: 'a.mp4', inDays: 1 }] });
    const before = await postRow(id);
    const later = new Date(Date.now() + 5 * 86_400_000);
    const res = await callApi('PATCH', `scheduled-posts/${id}`, alice.token, { scheduledFor: later.toISOString() });
    expect(res.status).toBe(200);
    expect(res.body.post).toMatchObject({ id, status: 'scheduled', changeable: true });
    expect(new Date(res.body.post.scheduledFor).getTime()).toBe(later.getTime());

    const refusals: Array<[unknown, RegExp]> = [
      [{ scheduledFor: new Date(Date.now() - 60_000).toISOString() }, /Choose a date and time in the future/],
      [{ scheduledFor: new Date(Date.now() + 400 * 86_400_000).toISOString() }, /within a year/],
      [{ scheduledFor: 'tomorrow' }, /valid date and time/],
      [{}, /.+/],
    ];
    for (const [body, message] of refusals) {
      const refused = await callApi('PATCH', `scheduled-posts/${id}`, alice.token, body);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(message);
    }
    expect((await postRow(id)).scheduled_for.getTime()).toBe(later.getTime());
    expect(before.status).toBe('scheduled');
  });

  it('cancels a waiting post, which then cannot change again', async () => {
    const alice = await readySubmitter();
    const { postIds: [id] } = await seedEpisode(alice.id, { posts: [{ clipName: 'a.mp4', inDays: 1 }] });
    const res = await callApi('POST', `scheduled-posts/${id}/cancel`, alice.token);
    expect(res).toMatchObject({ status: 200, body: { post: { id, status: 'canceled', changeable: false } } });
    expect(await callApi('POST', `scheduled-posts/${id}/post-now`, alice.token)).toEqual({
      status: 409,
      body: { message: 'This post is canceled and can no longer be changed.' },
    });
  });

  it('post now makes the post due, and the worker takes it', async () => {
    const alice = await readySubmitter();
    const { postIds: [id] } = await seedEpisode(alice.id, { posts: [{ clipName: 'a.mp4', inDays: 3 }] });
    const res = await callApi('POST', `scheduled-posts/${id}/post-now`, alice.token);
    expect(res.status).toBe(200);
    expect(new Date(res.body.post.scheduledFor).getTime()).toBeLessThanOrEqual(Date.now());
    // The test stack's worker claims it on its next round (the made-up Drive file then fails).
    await eventually(async () => (await postRow(id)).attempts >= 1, 30_000);
  });

  it("refuses another user's post, a posted or failed one, one a worker holds, and an unknown id", async () => {
    const alice = await readySubmitter();
    const bob = await readySubmitter();
    const { postIds: [waiting, posted, failed, held] } = await seedEpisode(alice.id, {
      posts: [
        { clipName: 'a.mp4', inDays: 1 },
        { clipName: 'b.mp4', inDays: -1, status: 'posted' },
        { clipName: 'c.mp4', inDays: -1, status: 'failed' },
        { clipName: 'd.mp4', inDays: 0, locked: true },
      ],
    });
    const cases: Array<[string, string, string, number, RegExp]> = [
      [bob.token, 'POST', `scheduled-posts/${waiting}/cancel`, 404, /Scheduled post not found/],
      [bob.token, 'POST', `scheduled-posts/${waiting}/post-now`, 404, /Scheduled post not found/],
      [alice.token, 'POST', `scheduled-posts/${randomUUID()}/cancel`, 404, /Scheduled post not found/],
      [alice.token, 'POST', 'scheduled-posts/nope/cancel', 404, /Scheduled post not found/],
      [alice.token, 'POST', `scheduled-posts/${posted}/cancel`, 409, /is posted and can no longer be changed/],
      [alice.token, 'POST', `scheduled-posts/${failed}/post-now`, 409, /is failed and can no longer be changed/],
      [alice.token, 'POST', `scheduled-posts/${held}/cancel`, 409, /being published or waits to be retried/],
    ];
    for (const [token, method, path, status, message] of cases) {
      const res = await callApi(method, path, token);
      expect([path, res.status]).toEqual([path, status]);
      expect(res.body.message).toMatch(message);
    }
    const bobPostpone = await callApi('PATCH', `scheduled-posts/${waiting}`, bob.token, { scheduledFor: new Date(Date.now() + 86_400_000).toISOString() });
    expect(bobPostpone.status).toBe(404);
    expect(await callApi('POST', `scheduled-posts/${waiting}/cancel`)).toEqual({ status: 401, body: { message: 'Unauthorized' } });
    expect((await postRow(waiting)).status).toBe('scheduled');
  });
});
