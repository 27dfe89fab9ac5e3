// The review screen's paths of the `api` function (issue 41): each passes its body to one SQL rule
// as the caller and answers in the shared shapes; bad bodies are 400s, another subscriber's or a
// malformed id 404, a conflict 409, signed out 401, and a refusal changes nothing.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { callApi, readySubmitter, type Submitter } from '../support/episodes.ts';
import { addClip, seedEpisode } from '../support/episode-page.ts';
import { withDb } from '../support/stack.ts';

/** A delivered episode with one clip over sentences 0-1, its transcript, show notes and blog post, and a held YouTube post. */
async function reviewed(owner: Submitter) {
  const seeded = await seedEpisode(owner.id, {
    title: 'Country',
    content: {
      transcript: null, problems: [],
      showNotes: { summary: 'S.', chapters: [{ start: 0, time: '00:00:00', title: 'Start', firstSentence: 0, endSentence: 2 }], quotes: [], keywords: ['budgets'] },
      blogPost: { title: 'Budgets', markdown: '# Budgets\n\nText.', wordpress: null },
    },
  });
  return withDb(async (db) => {
    await db.query(`update public.episodes set title_confirmed = false where id = $1`, [seeded.episodeId]);
    await db.query(`select private.record_transcript($1, $2)`, [seeded.processingId, JSON.stringify({
      engine: 'pocketsphinx', language: 'en-US', durationSeconds: 20,
      words: Array.from({ length: 6 }, (_, i) => ({ text: `w${i}`, start: 3 * i, end: 3 * i + 2, confidence: 0.9 })),
      sentences: [
        { text: 'w0 w1 w2', start: 0, end: 8, firstWord: 0, endWord: 3 },
        { text: 'w3 w4 w5', start: 9, end: 17, firstWord: 3, endWord: 6 },
      ],
    })]);
    const clipId = await addClip(db, seeded.processingId, 1, 'Country - clip 01.mp4');
    await db.query(`update public.episode_clips set first_sentence = 0, end_sentence = 1, start_seconds = 0, end_seconds = 8 where id = $1`, [clipId]);
    await db.query(
      `insert into public.scheduled_posts (episode_processing_id, user_id, provider, clip_id, scheduled_for, status) values ($1, $2, 'youtube', $3, now(), 'held')`,
      [seeded.processingId, owner.id, clipId],
    );
    await db.query(`update public.episode_processing set review_hold = 'title' where id = $1`, [seeded.processingId]);
    return { ...seeded, clipId };
  });
}

/** The edits the worker has been asked for on this processing (private.processing_requests). */
const requestsOf = (processingId: string) =>
  withDb(async (db) => (await db.query<{ id: string; kind: string; clip_ids: string[] }>(`select id, kind, clip_ids from private.processing_requests where episode_processing_id = $1`, [processingId])).rows);

const texts = (x: string) => ({
  title: 'Why Budgets Fail',
  posts: { youtube: { title: 'Why Budgets Fail', description: '' }, x: { text: x }, linkedin: { text: 'Why budgets fail' }, wordpress: { title: 'Why', content: '' } },
});

describe('the review screen through /api', () => {
  it('shows the review on the episode page and carries out each edit', async () => {
    const ana = await readySubmitter();
    const { episodeId, processingId, clipId } = await reviewed(ana);
    const page = await callApi('GET', `episodes/${episodeId}`, ana.token);
    expect(page.body).toMatchObject({
      title: 'Country', titleConfirmed: false, guests: [],
      processing: {
        review: { hold: 'title', transcriptVersion: 1, postingHour: 10, edits: { renderingClipIds: [], writingTexts: false, failure: null } },
        clips: [{ id: clipId, reviewState: 'pending', firstSentence: 0, endSentence: 1 }],
        posts: [{ kind: 'clip', clipId, status: 'held', externalId: null }],
      },
    });

    expect(await callApi('PATCH', `clips/${clipId}`, ana.token, texts('Why budgets fail: a thread'))).toMatchObject({
      status: 200, body: { clip: { title: 'Why Budgets Fail', posts: { x: { text: 'Why budgets fail: a thread' } } } },
    });
    expect(await callApi('PUT', `clips/${clipId}/moment`, ana.token, { firstSentence: 0, endSentence: 2 })).toMatchObject({
      status: 200, body: { clip: { startSeconds: 0, endSeconds: 17 } },
    });
    const movedRequests = await requestsOf(processingId);
    const transcript = await callApi('GET', `episodes/${episodeId}/transcript`, ana.token);
    expect(transcript.body).toMatchObject({ version: 1, sentences: [{ text: 'w0 w1 w2' }, { text: 'w3 w4 w5' }] });
    expect(await callApi('PUT', `episodes/${episodeId}/transcript`, ana.token, { version: 1, words: [{ index: 1, text: 'budgets' }] })).toEqual({
      status: 200, body: { version: 2, clipIds: [clipId] },
    });
    // What the save asked of the worker (the edits the page shows as pending until it is done; this
    // lane's stack runs a worker, which may take them at once: tests/db/review.test.ts holds the
    // pending state itself).
    const asked = (await requestsOf(processingId)).filter((r) => !movedRequests.some((m) => m.id === r.id));
    expect(asked.map((r) => [r.kind, r.clip_ids]).sort()).toEqual([['rerender', [clipId]], ['texts', []]]);
    expect(await callApi('PATCH', `episodes/${episodeId}/blog-post`, ana.token, { title: 'Budgets, Plainly', markdown: '# Budgets, Plainly\n\nBetter.' })).toMatchObject({
      status: 200, body: { blogPost: { title: 'Budgets, Plainly', wordpress: null } },
    });
    expect(await callApi('PATCH', `episodes/${episodeId}/show-notes`, ana.token, { summary: 'Better.', chapterTitles: ['Opening'], keywords: ['budgets'] })).toMatchObject({
      status: 200, body: { showNotes: { summary: 'Better.', chapters: [{ title: 'Opening' }] } },
    });
    expect(await callApi('POST', `episodes/${episodeId}/posts`, ana.token, { action: 'postpone', days: 2 })).toEqual({ status: 200, body: { changed: 1 } });
    expect(await callApi('PATCH', `episodes/${episodeId}/title`, ana.token, { title: 'Why Budgets Fail' })).toMatchObject({ status: 200, body: { titleConfirmed: true } });
    expect(await callApi('POST', `episodes/${episodeId}/approve`, ana.token)).toEqual({ status: 200, body: { success: true } });
    const after = (await callApi('GET', `episodes/${episodeId}`, ana.token)).body;
    expect(after).toMatchObject({ title: 'Why Budgets Fail', titleConfirmed: true, processing: { review: { hold: null }, posts: [{ status: 'scheduled' }] } });
    expect(after.processing.review.releasedAt).not.toBeNull();
    expect(await callApi('POST', `clips/${clipId}/review`, ana.token, { action: 'drop' })).toMatchObject({ status: 200, body: { clip: { reviewState: 'dropped' } } });
    expect((await callApi('GET', `episodes/${episodeId}`, ana.token)).body.processing.posts).toMatchObject([{ status: 'canceled' }]);
  });

  it('refuses bad bodies, limits, stale versions, other subscribers and the signed out, changing nothing', async () => {
    const ana = await readySubmitter();
    const ben = await readySubmitter();
    const { episodeId, clipId } = await reviewed(ana);
    const cases: Array<[string, string, Submitter | null, unknown, number, RegExp]> = [
      ['POST', `clips/${clipId}/review`, ana, { action: 'publish' }, 400, /./],
      ['PATCH', `clips/${clipId}`, ana, texts('家'.repeat(141)), 400, /^The X post can be at most 280 characters \(282 now\)\.$/],
      ['PATCH', `clips/${clipId}`, ana, { title: 'T' }, 400, /./],
      ['PUT', `clips/${clipId}/moment`, ana, { firstSentence: 0, endSentence: 5 }, 400, /first and last sentences/],
      ['PUT', `episodes/${episodeId}/transcript`, ana, { version: 7, words: [{ index: 0, text: 'x' }] }, 409, /./],
      ['PUT', `episodes/${episodeId}/transcript`, ana, { version: 1, words: [] }, 400, /./],
      ['POST', `episodes/${episodeId}/posts`, ana, { action: 'postpone', days: 0 }, 400, /./],
      ['PATCH', `episodes/${episodeId}/title`, ana, { title: ' ' }, 400, /1 to 200 characters/],
      ['POST', `clips/${clipId}/review`, ben, { action: 'drop' }, 404, /^No such clip\.$/],
      ['POST', `episodes/${episodeId}/approve`, ben, undefined, 404, /^No such episode\.$/],
      ['GET', `episodes/${episodeId}/transcript`, ben, undefined, 404, /no transcript/],
      ['POST', `clips/${randomUUID()}/review`, ana, { action: 'drop' }, 404, /^No such clip\.$/],
      ['PATCH', 'clips/not-an-id', ana, texts('x'), 404, /^No such clip\.$/],
      ['POST', `episodes/${episodeId}/approve`, null, undefined, 401, /./],
    ];
    for (const [method, path, caller, body, status, message] of cases) {
      const answer = await callApi(method, path, caller?.token, body);
      expect({ method, path, status: answer.status }).toEqual({ method, path, status });
      expect(answer.body.message).toMatch(message);
    }
    const page = (await callApi('GET', `episodes/${episodeId}`, ana.token)).body;
    expect(page).toMatchObject({ title: 'Country', titleConfirmed: false, processing: { review: { hold: 'title', transcriptVersion: 1 }, posts: [{ status: 'held' }] } });
    expect(page.processing.clips[0]).toMatchObject({ title: 'Country - clip 01', reviewState: 'pending', startSeconds: 0, endSeconds: 8 });
  });

  it('saves the Post Settings with the profile, and refuses an hour that is not one', async () => {
    const ana = await readySubmitter();
    const saved = await callApi('POST', 'onboarding/submit', ana.token, { fields: { podcastTitle: 'Budgets Weekly', reviewWindow: 'approval', postingHour: 7 } });
    expect(saved.status).toBe(200);
    expect((await callApi('GET', 'airtable/user-data', ana.token)).body).toMatchObject({ reviewWindow: 'approval', postingHour: 7 });
    expect((await callApi('POST', 'onboarding/submit', ana.token, { fields: { postingHour: 24 } })).status).toBe(400);
    expect((await callApi('POST', 'onboarding/submit', ana.token, { fields: { reviewWindow: '48h' } })).status).toBe(400);
  });
});
