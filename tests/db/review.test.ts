// Nothing goes out that the subscriber would not sign (issue 41): delivery holds every post until
// the review window passes or the subscriber approves (and never before approval when the title is
// only suggested, the transcript is unsure or they chose "until I approve"); released clips go out
// at their posting hour in their time zone; every edit is the owner's, within each platform's
// limits, never of what is out; corrected words re-render only the clips they touch. Time is the
// database's: a window is passed by moving its due time.
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { addCheckedEpisodeFile, createReadySubscriber, createUser, inRolledBackTx, queryAs, runAs } from './db-support.ts';

type Json = Record<string, unknown>;

const posts = (title: string) => ({ youtube: { title, description: '' }, x: { text: title }, linkedin: { text: title }, wordpress: { title, content: '' } });

/** A words list where word i runs [2i, 2i + 1) seconds, in sentences of five words. */
function transcript(words = 40, confidence = 0.9) {
  const list = Array.from({ length: words }, (_, i) => ({ text: `word${i}`, start: 2 * i, end: 2 * i + 1, confidence }));
  const sentences = Array.from({ length: words / 5 }, (_, k) => ({
    text: list.slice(5 * k, 5 * k + 5).map((w) => w.text).join(' '), start: 10 * k, end: 10 * k + 9, firstWord: 5 * k, endWord: 5 * k + 5,
  }));
  return { engine: 'pocketsphinx', language: 'en-US', durationSeconds: 2 * words, words: list, sentences };
}

/**
 * A delivered episode of a subscriber who posts automatically to YouTube and X, with two clips
 * (the first over words 0-9, the second over words 20-29), its transcript, and a blog post on a
 * connected WordPress.
 */
async function delivered(db: pg.Client, options: { title?: string; window?: string; confidence?: number; zone?: string; hour?: number; episodeFile?: boolean } = {}) {
  const user = await createReadySubscriber(db, 'growth');
  await db.query(`update public.profiles set review_window = $2, podcast_timezone = $3, posting_hour = $4 where id = $1`, [
    user.id, options.window ?? '24h', options.zone ?? 'UTC+01:00', options.hour ?? 10,
  ]);
  for (const provider of ['youtube', 'x', 'wordpress']) {
    await db.query(`insert into public.oauth_connections (user_id, provider, connected, status) values ($1, $2, true, 'connected')`, [user.id, provider]);
  }
  const file = `${user.id}/u/episode.mp4`;
  await addCheckedEpisodeFile(db, file, 120);
  const [{ r }] = await queryAs<{ r: Json }>(db, { id: user.id }, 'select public.submit_episode($1, $2) as r', [
    [file], { daysBetweenClips: 2, ...(options.title === undefined ? { title: 'Why Budgets Fail' } : options.title ? { title: options.title } : {}) },
  ]);
  const episodeId = String(r.id);
  const id = (await db.query('select id from public.episode_processing where episode_id = $1', [episodeId])).rows[0].id as string;
  await db.query(`select private.processing_started($1, 'host/1')`, [id]);
  await db.query(`select private.record_episode_content($1, $2)`, [id, JSON.stringify({
    transcript: null, problems: [], blogPost: { title: 'Why Budgets Fail', markdown: '# Why Budgets Fail\n\nText.', wordpress: null },
    showNotes: { summary: 'S.', chapters: [{ start: 0, time: '00:00:00', title: 'Start', firstSentence: 0, endSentence: 8 }], quotes: [], keywords: ['budgets'] },
  })]);
  await db.query(`select private.record_transcript($1, $2)`, [id, JSON.stringify(transcript(40, options.confidence ?? 0.9))]);
  const clip = (position: number, first: number) => ({
    position, startSeconds: 10 * first, endSeconds: 10 * first + 19, firstSentence: first, endSentence: first + 2,
    title: `Clip ${position}`, posts: posts(`Clip ${position}`), fileName: `Show - clip 0${position}.mp4`, durationSeconds: 19, width: 1080, height: 1920,
  });
  const clips = (await db.query(`select private.record_episode_clips($1, $2) as c`, [id, JSON.stringify([clip(1, 0), clip(2, 4)])])).rows[0].c as { id: string }[];
  for (const { id: clipId } of clips) await db.query(`select private.record_clip_file($1, $2, null)`, [clipId, `drive-${clipId}`]);
  if (options.episodeFile) {
    await db.query(`select private.record_output($1, $2)`, [id, JSON.stringify({ name: 'Show.mp4', kind: 'episode', durationSeconds: 80, width: 1280, height: 720, driveFileId: 'drive-episode' })]);
  }
  await db.query(`select private.processing_delivered($1)`, [id]);
  const state = async () => (await db.query('select review_hold, review_due_at, released_at from public.episode_processing where id = $1', [id])).rows[0];
  const postsOf = async () =>
    (await db.query(
      `select s.kind, s.provider, s.status, c.position, s.scheduled_for from public.scheduled_posts s left join public.episode_clips c on c.id = s.clip_id
        where s.episode_processing_id = $1 order by s.kind desc, c.position, s.provider::text`,
      [id],
    )).rows as { kind: string; provider: string; status: string; position: number | null; scheduled_for: Date }[];
  return { user, actor: { id: user.id }, episodeId, id, clipIds: clips.map((c) => c.id), state, postsOf };
}

const statuses = (rows: { kind: string; provider: string; status: string; position: number | null }[]) =>
  rows.map((p) => `${p.kind === 'article' ? 'blog' : `clip ${p.position}`} ${p.provider} ${p.status}`);

describe('held until reviewed', () => {
  it('holds every post for the 24 h window, then releases them at the posting hour in the subscriber\'s time zone', async () => {
    await inRolledBackTx(async (db) => {
      const { id, state, postsOf } = await delivered(db, { zone: 'UTC+01:00', hour: 10 });
      const held = await state();
      expect(held.review_hold).toBeNull();
      expect(new Date(held.review_due_at).getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000);
      expect(statuses(await postsOf())).toEqual([
        'clip 1 wordpress held', 'clip 1 x held', 'clip 1 youtube held', 'clip 2 wordpress held', 'clip 2 x held', 'clip 2 youtube held',
        'blog wordpress held',
      ]);
      // Nothing is released before the window's end...
      expect((await db.query('select private.release_due_reviews() as n')).rows[0].n).toBe(0);
      // ...and everything is once it has passed.
      await db.query(`update public.episode_processing set review_due_at = now() - interval '1 second' where id = $1`, [id]);
      expect((await db.query('select private.release_due_reviews() as n')).rows[0].n).toBeGreaterThanOrEqual(1);
      const released = await postsOf();
      expect(statuses(released)).toEqual([
        'clip 1 wordpress scheduled', 'clip 1 x scheduled', 'clip 1 youtube scheduled', 'clip 2 wordpress scheduled', 'clip 2 x scheduled',
        'clip 2 youtube scheduled', 'blog wordpress scheduled',
      ]);
      const first = released.find((p) => p.position === 1)?.scheduled_for as Date;
      // 10:00 at UTC+01:00 is 09:00 UTC, the next one after now, and clip 2 two days after clip 1.
      expect(first.getUTCHours()).toBe(9);
      expect(first.getUTCMinutes()).toBe(0);
      expect(first.getTime()).toBeGreaterThan(Date.now() - 1000);
      expect(first.getTime() - Date.now()).toBeLessThanOrEqual(86_400_000);
      const second = released.find((p) => p.position === 2)?.scheduled_for as Date;
      expect(second.getTime() - first.getTime()).toBe(2 * 86_400_000);
      expect((await state()).released_at).not.toBeNull();
    });
  });

  it.each([
    ['their window is "until I approve"', { window: 'approval' }, 'approval'],
    ['the title is only suggested', { title: '' }, 'title'],
    ['the transcript is unsure', { confidence: 0.5 }, 'low_confidence'],
  ])('waits for approval whatever the time when %s', async (_, options, hold) => {
    await inRolledBackTx(async (db) => {
      const { id, state, postsOf } = await delivered(db, options);
      expect(await state()).toMatchObject({ review_hold: hold, review_due_at: null, released_at: null });
      await db.query(`update public.episode_processing set review_due_at = now() - interval '1 day' where id = $1`, [id]);
      await db.query('select private.release_due_reviews()');
      expect((await postsOf()).every((p) => p.status === 'held')).toBe(true);
    });
  });

  it('releases at once when the subscriber reviews nothing (window "none") and nothing holds it', async () => {
    await inRolledBackTx(async (db) => {
      const { state, postsOf } = await delivered(db, { window: 'none' });
      expect((await state()).released_at).not.toBeNull();
      expect((await postsOf()).every((p) => p.status === 'scheduled')).toBe(true);
    });
  });
});

describe('review actions', () => {
  it('approves one clip at once, drops another (and restores it), approves the episode with its suggested title', async () => {
    await inRolledBackTx(async (db) => {
      const { actor, episodeId, clipIds, postsOf } = await delivered(db, { title: '' });
      await queryAs(db, actor, 'select public.review_clip($1, $2)', [clipIds[1], 'approve']);
      expect(statuses(await postsOf())).toEqual([
        'clip 1 wordpress held', 'clip 1 x held', 'clip 1 youtube held', 'clip 2 wordpress scheduled', 'clip 2 x scheduled',
        'clip 2 youtube scheduled', 'blog wordpress held',
      ]);
      await queryAs(db, actor, 'select public.review_clip($1, $2)', [clipIds[0], 'drop']);
      expect(statuses(await postsOf()).slice(0, 3)).toEqual(['clip 1 wordpress canceled', 'clip 1 x canceled', 'clip 1 youtube canceled']);
      await queryAs(db, actor, 'select public.review_clip($1, $2)', [clipIds[0], 'restore']);
      expect(statuses(await postsOf()).slice(0, 3)).toEqual(['clip 1 wordpress held', 'clip 1 x held', 'clip 1 youtube held']);
      await queryAs(db, actor, 'select public.approve_episode($1)', [episodeId]);
      expect((await postsOf()).every((p) => p.status === 'scheduled')).toBe(true);
      expect((await db.query('select title_confirmed from public.episodes where id = $1', [episodeId])).rows[0].title_confirmed).toBe(true);
      // Another subscriber can do none of it.
      const other = await createUser(db);
      expect(await runAs(db, { id: other.id }, 'select public.review_clip($1, $2)', [clipIds[0], 'drop'])).toMatchObject({ code: 'PT404' });
      expect(await runAs(db, { id: other.id }, 'select public.approve_episode($1)', [episodeId])).toMatchObject({ code: 'PT404' });
    });
  });

  it('postpones or cancels every post not out yet', async () => {
    await inRolledBackTx(async (db) => {
      const { actor, episodeId, postsOf } = await delivered(db);
      const before = await postsOf();
      const [{ n }] = await queryAs<{ n: number }>(db, actor, `select public.change_episode_posts($1, 'postpone', 3) as n`, [episodeId]);
      expect(n).toBe(7);
      const after = await postsOf();
      expect(after[0].scheduled_for.getTime() - before[0].scheduled_for.getTime()).toBe(3 * 86_400_000);
      await queryAs(db, actor, `select public.change_episode_posts($1, 'cancel')`, [episodeId]);
      expect((await postsOf()).every((p) => p.status === 'canceled')).toBe(true);
    });
  });
});

describe('the full episode on YouTube (issue 42, item 6)', () => {
  it('is held with the rest, goes out at once when released, and the blog post and the clips\' posts on X wait for it to link to the video', async () => {
    await inRolledBackTx(async (db) => {
      const { actor, episodeId, id } = await delivered(db, { episodeFile: true });
      const episodePost = async () => (await db.query(`select status, scheduled_for from public.scheduled_posts where episode_processing_id = $1 and kind = 'episode'`, [id])).rows;
      expect(await episodePost()).toEqual([expect.objectContaining({ status: 'held' })]);
      await queryAs(db, actor, 'select public.approve_episode($1)', [episodeId]);
      const [released] = await episodePost();
      expect(released.status).toBe('scheduled');
      expect(Math.abs(released.scheduled_for.getTime() - Date.now())).toBeLessThan(60_000);
      // The blog post, claimed, waits while the episode is not out, its attempt given back; so does
      // a clip's post on X (it ends with the episode's link), not the clip's own YouTube upload.
      const postOf = async (kind: string, provider: string) =>
        (await db.query(`select id from public.scheduled_posts where episode_processing_id = $1 and kind = $2 and provider = $3 limit 1`, [id, kind, provider])).rows[0].id as string;
      const [article, onX, onYouTube] = [await postOf('article', 'wordpress'), await postOf('clip', 'x'), await postOf('clip', 'youtube')];
      const waits = async (post: string) => (await db.query(`select private.post_waits_for_video($1) as w`, [post])).rows[0].w as boolean;
      await db.query(`update public.scheduled_posts set attempts = 1 where id = $1`, [article]);
      expect(await waits(article)).toBe(true);
      expect((await db.query(`select attempts, scheduled_for > now() as later from public.scheduled_posts where id = $1`, [article])).rows[0]).toEqual({ attempts: 0, later: true });
      expect(await waits(onX)).toBe(true);
      expect(await waits(onYouTube)).toBe(false);
      // Once the video is out, the blog post and the clip's posts link to it and go.
      await db.query(`update public.scheduled_posts set status = 'posted', external_id = 'video-1' where episode_processing_id = $1 and kind = 'episode'`, [id]);
      expect(await waits(article)).toBe(false);
      expect(await waits(onX)).toBe(false);
      expect((await db.query(`select private.public_episode_link($1) as l`, [id])).rows[0].l).toEqual({ youtubeVideoId: 'video-1' });
    });
  });
});

describe('a title changed after delivery', () => {
  it('follows into the blog post and the posts not out yet, and has the words\' files written again', async () => {
    await inRolledBackTx(async (db) => {
      const { actor, episodeId, id, clipIds } = await delivered(db, { title: '' });
      await db.query(`update public.episodes set title = 'Country' where id = $1`, [episodeId]);
      await db.query(`update public.episode_processing set content = jsonb_set(jsonb_set(content, '{blogPost,title}', '"Country: Budgets"'), '{blogPost,markdown}', '"# Country: Budgets\\n\\nText."') where id = $1`, [id]);
      const from = (title: string) => ({ youtube: { title: 'T', description: `Q.\n\nFrom "${title}".` }, x: { text: 'T' }, linkedin: { text: `From "${title}".` }, wordpress: { title: 'T', content: '' } });
      for (const clipId of clipIds) await db.query(`update public.episode_clips set posts = $2 where id = $1`, [clipId, JSON.stringify(from('Country'))]);
      await db.query(`update public.scheduled_posts set status = 'posted' where clip_id = $1 and provider = 'youtube'`, [clipIds[1]]);
      await queryAs(db, actor, 'select public.rename_episode($1, $2)', [episodeId, 'Why "Budgets" Fail']);
      const { rows: [content] } = await db.query(`select content -> 'blogPost' as b from public.episode_processing where id = $1`, [id]);
      expect(content.b).toMatchObject({ title: 'Why "Budgets" Fail: Budgets', markdown: '# Why "Budgets" Fail: Budgets\n\nText.' });
      const posts = (await db.query(`select posts from public.episode_clips where episode_processing_id = $1 order by position`, [id])).rows.map((r) => r.posts);
      // Clip 1 names the new title; clip 2 has a post out and keeps what went out.
      expect(posts[0]).toEqual(from('Why "Budgets" Fail'));
      expect(posts[1]).toEqual(from('Country'));
      const { rows } = await db.query(`select kind from private.processing_requests where episode_processing_id = $1`, [id]);
      expect(rows).toEqual([{ kind: 'texts' }]);
    });
  });
});

describe('edits', () => {
  it("keeps each platform's text within its limit, and a platform's text once its post is out", async () => {
    await inRolledBackTx(async (db) => {
      const { actor, clipIds } = await delivered(db);
      const texts = { ...posts('Clip 1'), x: { text: 'Why budgets fail: a thread' } };
      const [{ c }] = await queryAs<{ c: Json }>(db, actor, 'select public.update_clip_texts($1, $2, $3) as c', [clipIds[0], 'Why Budgets Fail', texts]);
      expect(c).toMatchObject({ title: 'Why Budgets Fail', posts: { x: { text: 'Why budgets fail: a thread' } } });
      // X counts CJK characters twice: 141 of them are 282.
      expect(await runAs(db, actor, 'select public.update_clip_texts($1, $2, $3)', [clipIds[0], 'T', { ...texts, x: { text: '家'.repeat(141) } }])).toMatchObject({
        code: '22023', message: 'text_too_long', detail: 'The X post can be at most 280 characters (282 now).',
      });
      expect(await runAs(db, actor, 'select public.update_clip_texts($1, $2, $3)', [clipIds[0], '', texts])).toMatchObject({ message: 'text_missing' });
      await db.query(`update public.scheduled_posts set status = 'posted', posted_at = now() where clip_id = $1 and provider = 'youtube'`, [clipIds[0]]);
      expect(await runAs(db, actor, 'select public.update_clip_texts($1, $2, $3)', [clipIds[0], 'T', { ...texts, youtube: { title: 'New', description: '' } }])).toMatchObject({
        code: 'PT409', message: 'post_already_out', detail: 'The Youtube post is already out: its text can no longer change.',
      });
      // X's is not out: it may still change.
      await queryAs(db, actor, 'select public.update_clip_texts($1, $2, $3)', [clipIds[0], 'T', { ...texts, x: { text: 'Changed' } }]);
    });
  });

  it('moves a clip to whole sentences of the transcript and renders it again', async () => {
    await inRolledBackTx(async (db) => {
      const { actor, id, clipIds } = await delivered(db);
      await db.query(`update public.episode_clips set score = 0.8, reason = 'A complete thought.' where id = $1`, [clipIds[0]]);
      const [{ c }] = await queryAs<{ c: Json }>(db, actor, 'select public.set_clip_moment($1, 1, 4) as c', [clipIds[0]]);
      // The subscriber's moment: Castloop's reason for its own no longer applies.
      expect(c).toMatchObject({ startSeconds: 10, endSeconds: 39, firstSentence: 1, endSentence: 4, score: null, reason: null });
      const { rows } = await db.query(`select kind, clip_ids from private.processing_requests where episode_processing_id = $1`, [id]);
      expect(rows).toEqual([{ kind: 'rerender', clip_ids: [clipIds[0]] }]);
      expect(await runAs(db, actor, 'select public.set_clip_moment($1, 0, 0)', [clipIds[0]])).toMatchObject({ message: 'invalid_clip' });
      expect(await runAs(db, actor, 'select public.set_clip_moment($1, 0, 20)', [clipIds[0]])).toMatchObject({ message: 'invalid_clip' });
    });
  });

  it('saves corrected words with their times, re-renders only the clips they fall in, and refuses a stale version', async () => {
    await inRolledBackTx(async (db) => {
      const { actor, episodeId, id, clipIds } = await delivered(db);
      // Word 3 (6-7 s) is in clip 1 (0-19 s); word 30 (60-61 s) in no clip; clip 2 runs 40-59 s.
      const [{ r }] = await queryAs<{ r: Json }>(db, actor, 'select public.save_transcript($1, 1, $2) as r', [
        episodeId, JSON.stringify([{ index: 3, text: 'budgets' }, { index: 30, text: 'savings' }, { index: 5, text: 'word5' }]),
      ]);
      expect(r).toEqual({ version: 2, clipIds: [clipIds[0]] });
      const { rows: [saved] } = await db.query('select words, sentences from public.episode_transcripts where episode_processing_id = $1', [id]);
      expect(saved.words[3]).toEqual({ text: 'budgets', start: 6, end: 7, confidence: 0.9 });
      expect(saved.sentences[0].text).toBe('word0 word1 word2 budgets word4');
      const { rows } = await db.query(`select kind, clip_ids from private.processing_requests where episode_processing_id = $1 order by kind`, [id]);
      expect(rows).toEqual([{ kind: 'rerender', clip_ids: [clipIds[0]] }, { kind: 'texts', clip_ids: [] }]);
      // What the episode page shows while the worker is at them (no worker sees this transaction's rows).
      const [{ edits }] = await queryAs<{ edits: Json }>(db, actor, 'select private.pending_edits($1) as edits', [id]);
      expect(edits).toEqual({ renderingClipIds: [clipIds[0]], writingTexts: true, failure: null });
      expect(await runAs(db, actor, 'select public.save_transcript($1, 1, $2)', [episodeId, JSON.stringify([{ index: 4, text: 'x' }])])).toMatchObject({ code: 'PT409', message: 'transcript_changed' });
      expect(await runAs(db, actor, 'select public.save_transcript($1, 2, $2)', [episodeId, JSON.stringify([{ index: 400, text: 'x' }])])).toMatchObject({ message: 'invalid_transcript' });
    });
  });

  it('edits the blog post and the show notes before the blog post is on WordPress, not after', async () => {
    await inRolledBackTx(async (db) => {
      const { actor, episodeId, id } = await delivered(db);
      const [{ b }] = await queryAs<{ b: Json }>(db, actor, 'select public.update_blog_post($1, $2, $3) as b', [episodeId, 'Budgets, Plainly', '# Budgets, Plainly\n\nBetter.']);
      expect(b).toMatchObject({ title: 'Budgets, Plainly', markdown: '# Budgets, Plainly\n\nBetter.', wordpress: null });
      const [{ n }] = await queryAs<{ n: Json }>(db, actor, 'select public.update_show_notes($1, $2, $3, $4) as n', [episodeId, 'A better summary.', JSON.stringify(['Opening']), JSON.stringify(['budgets', 'savings'])]);
      expect(n).toMatchObject({ summary: 'A better summary.', chapters: [{ title: 'Opening', start: 0 }], keywords: ['budgets', 'savings'] });
      expect(await runAs(db, actor, 'select public.update_show_notes($1, $2, $3, $4)', [episodeId, 'S', JSON.stringify(['a', 'b']), JSON.stringify([])])).toMatchObject({ message: 'invalid_show_notes' });
      const post = (await db.query(`select id from public.scheduled_posts where episode_processing_id = $1 and kind = 'article'`, [id])).rows[0].id;
      await db.query(`select private.article_published($1, 77, 'https://blog.example/?p=77')`, [post]);
      expect(await runAs(db, actor, 'select public.update_blog_post($1, $2, $3)', [episodeId, 'Again', 'Text'])).toMatchObject({ code: 'PT409', message: 'blog_post_out' });
      const { rows: [content] } = await db.query('select content from public.episode_processing where id = $1', [id]);
      expect(content.content.blogPost.wordpress).toEqual({ postId: 77, link: 'https://blog.example/?p=77', status: 'publish' });
    });
  });
});
