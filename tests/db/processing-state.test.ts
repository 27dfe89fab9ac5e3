// The worker's state changes, as SQL functions (issue 40, item 4): what a job reads
// (private.processing_job, its options normalised by SQL), the row's progress and outcome, the
// clip records and their files, the plan and its pieces, delivery with its posts, the posting
// queue, and the OAuth refresh the worker and the functions both record.
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { processingJobSchema } from '../../supabase/functions/_shared/domain-server/processing-job.ts';
import { addCheckedEpisodeFile, connectGoogle, createReadySubscriber, inRolledBackTx, queryAs } from './db-support.ts';

type Json = Record<string, unknown>;

async function call<T = unknown>(db: pg.Client, sql: string, params: unknown[] = []): Promise<T> {
  const { rows } = await db.query(`select ${sql} as result`, params);
  return rows[0].result as T;
}

/** A subscriber's submitted episode and its queued processing row. */
async function queued(db: pg.Client, tier = 'growth', options: Json = {}) {
  const user = await createReadySubscriber(db, tier);
  const file = `${user.id}/u/a.mp4`;
  await addCheckedEpisodeFile(db, file, 120);
  const [{ r }] = await queryAs<{ r: Json }>(db, { id: user.id }, 'select public.submit_episode($1, $2) as r', [[file], options]);
  const { rows } = await db.query('select id from public.episode_processing where episode_id = $1', [r.id]);
  return { user, episodeId: String(r.id), id: rows[0].id as string };
}

const posts = (title: string) => ({ youtube: { title, description: '' }, x: { text: title }, linkedin: { text: title }, wordpress: { title, content: '' } });
const clip = (position: number, fileName = `Show - clip 0${position}.mp4`) => ({
  position, startSeconds: (position - 1) * 30, endSeconds: (position - 1) * 30 + 20, title: `Clip ${position}`, posts: posts(`Clip ${position}`),
  fileName, durationSeconds: 20, width: 1080, height: 1920,
});

describe('what a job reads', () => {
  it('answers the job with the options SQL normalised, in the shape the worker parses', async () => {
    await inRolledBackTx(async (db) => {
      const { user, id } = await queued(db, 'scale', { clipStyle: 'CREATIVE', daysBetweenClips: 3, startTimestamp: '0:00:05' });
      const job = processingJobSchema.parse(await call(db, 'private.processing_job($1)', [id]));
      expect(job).toMatchObject({
        id,
        status: 'queued',
        userId: user.id,
        clipsPerEpisode: 10,
        options: { startTimestamp: '0:00:05', endTimestamp: null, addLogo: true, addIntroOutro: true, clipStyle: 'CREATIVE', daysBetweenClips: 3 },
      });
      expect(await call(db, 'private.processing_job($1)', ['00000000-0000-4000-8000-000000000000'])).toBeNull();
    });
  });

  it("carries the profile's podcast details the writing engine writes with, a blank one as null", async () => {
    await inRolledBackTx(async (db) => {
      const { user, id } = await queued(db);
      await db.query(`update public.profiles set podcast_title = 'Home and Away', podcast_author = 'Sam Host', podcast_description = '  ', podcast_keywords = 'home, habits' where id = $1`, [user.id]);
      const job = processingJobSchema.parse(await call(db, 'private.processing_job($1)', [id]));
      expect(job.podcast).toEqual({ title: 'Home and Away', description: null, author: 'Sam Host', keywords: 'home, habits' });
    });
  });
});

describe('what the writing cost', () => {
  const usage = { engine: 'openai gpt-4o-mini', requests: 3, promptTokens: 5200, completionTokens: 900, costUsd: 0.0013200004, fellBack: false };

  it('records each writing of an episode: its engine, requests, tokens, cost and whether the offline engine took over', async () => {
    await inRolledBackTx(async (db) => {
      const { id } = await queued(db);
      await call(db, 'private.record_writing_usage($1, $2)', [id, JSON.stringify(usage)]);
      await call(db, 'private.record_writing_usage($1, $2)', [id, JSON.stringify({ ...usage, requests: 2, completionTokens: 0, costUsd: 0.00078, fellBack: true })]);
      const { rows } = await db.query('select engine, requests, prompt_tokens, completion_tokens, cost_usd, fell_back from private.writing_usage where episode_processing_id = $1 order by requests desc', [id]);
      expect(rows).toEqual([
        { engine: 'openai gpt-4o-mini', requests: 3, prompt_tokens: 5200, completion_tokens: 900, cost_usd: '0.001320', fell_back: false },
        { engine: 'openai gpt-4o-mini', requests: 2, prompt_tokens: 5200, completion_tokens: 0, cost_usd: '0.000780', fell_back: true },
      ]);
    });
  });

  it('refuses a usage without every figure', async () => {
    await inRolledBackTx(async (db) => {
      const { id } = await queued(db);
      const { costUsd: _cost, ...partial } = usage;
      await expect(call(db, 'private.record_writing_usage($1, $2)', [id, JSON.stringify(partial)])).rejects.toMatchObject({ code: '22023', message: 'invalid_usage' });
    });
  });
});

describe('the row through an attempt', () => {
  it('starts, rises in progress only, waits to retry with a reason, and fails once', async () => {
    await inRolledBackTx(async (db) => {
      const { id } = await queued(db);
      await call(db, `private.processing_started($1, 'host/1')`, [id]);
      await call(db, `private.processing_progress($1, 'transcribing', 40)`, [id]);
      await call(db, `private.processing_progress($1, 'rendering', 20)`, [id]);
      const row = async () => (await db.query('select status, stage, progress, attempts, failure_reason, worker from public.episode_processing where id = $1', [id])).rows[0];
      expect(await row()).toMatchObject({ status: 'processing', stage: 'rendering', progress: 40, attempts: 1, worker: 'host/1' });
      await call(db, `private.processing_attempt_failed($1, 'Storage answered 503')`, [id]);
      expect(await row()).toMatchObject({ stage: 'waiting to retry', failure_reason: 'Storage answered 503' });
      await call(db, `private.processing_piece_started($1, 'host/2', 'rendering clip 1 of 5', true)`, [id]);
      expect(await row()).toMatchObject({ stage: 'rendering clip 1 of 5', attempts: 2, failure_reason: null, worker: 'host/2' });
      expect(await call(db, `private.processing_failed($1, 'The video has no duration', true)`, [id])).toBe(true);
      expect(await call(db, `private.processing_failed($1, 'Again', false)`, [id])).toBe(false);
      expect(await row()).toMatchObject({ status: 'failed', failure_reason: 'The video has no duration' });
      expect((await db.query('select failure_permanent from public.episode_processing where id = $1', [id])).rows[0].failure_permanent).toBe(true);
    });
  });
});

describe('clips and delivery', () => {
  it('records the clips by position, their Drive files, and on delivery schedules each on every connected platform', async () => {
    await inRolledBackTx(async (db) => {
      const { user, id } = await queued(db, 'growth', { daysBetweenClips: 2 });
      await db.query(`insert into public.oauth_connections (user_id, provider, connected, status) values ($1, 'x', true, 'connected')`, [user.id]);
      await call(db, `private.processing_started($1, 'host/1')`, [id]);
      const ids = await call<{ id: string; position: number }[]>(db, 'private.record_episode_clips($1, $2)', [id, JSON.stringify([clip(1), clip(2)])]);
      expect(ids.map((c) => c.position)).toEqual([1, 2]);
      for (const [i, { id: clipId }] of ids.entries()) await call(db, 'private.record_clip_file($1, $2, $3)', [clipId, `drive-${i}`, `https://drive/${i}`]);
      // A retried join records the same clips again: the ids and the Drive files stay.
      const again = await call<{ id: string }[]>(db, 'private.record_episode_clips($1, $2)', [id, JSON.stringify([clip(1), { ...clip(2), title: 'Retitled' }])]);
      expect(again.map((c) => c.id)).toEqual(ids.map((c) => c.id));
      const { rows: clips } = await db.query('select title, drive_file_id from public.episode_clips where episode_processing_id = $1 order by position', [id]);
      expect(clips).toEqual([{ title: 'Clip 1', drive_file_id: 'drive-0' }, { title: 'Retitled', drive_file_id: 'drive-1' }]);
      // A clip rendered to another file loses the old Drive file until the new one is delivered.
      await call(db, 'private.record_episode_clips($1, $2)', [id, JSON.stringify([clip(1), clip(2, 'Show - clip 02 (v2).mp4')])]);
      expect((await db.query('select drive_file_id from public.episode_clips where episode_processing_id = $1 and position = 2', [id])).rows[0].drive_file_id).toBeNull();
      await call(db, 'private.record_clip_file($1, $2, null)', [ids[1].id, 'drive-1b']);

      // The clips' pieces deliver before the join and in any order: the outputs stay in the
      // delivery's order (the episode, the clips by name, then the rest as first recorded).
      const output = (name: string, kind: string, more: Json = {}) => call(db, 'private.record_output($1, $2)', [id, JSON.stringify({ name, kind, durationSeconds: 60, width: 0, height: 0, ...more })]);
      await output('Show - clip 02.mp4', 'clip');
      await output('Show - clip 01.mp4', 'clip');
      await output('Show.mp4', 'episode');
      await output('Show.srt', 'captions');
      await output('Show - clip 02.srt', 'captions');
      await output('Show.mp4', 'episode', { driveFileId: 'd' });
      const { rows: [processing] } = await db.query('select outputs from public.episode_processing where id = $1', [id]);
      expect(processing.outputs.map((o: Json) => [o.name, o.driveFileId ?? null])).toEqual([
        ['Show.mp4', 'd'], ['Show - clip 01.mp4', null], ['Show - clip 02.mp4', null], ['Show.srt', null], ['Show - clip 02.srt', null],
      ]);
      await db.query('savepoint refused');
      await expect(db.query(`select private.record_output($1, '{"kind": "clip"}')`, [id])).rejects.toMatchObject({ code: '22023' });
      await db.query('rollback to savepoint refused');

      await call(db, 'private.processing_delivered($1)', [id]);
      const { rows: scheduled } = await db.query(
        `select s.provider, c.position, s.status
           from public.scheduled_posts s join public.episode_clips c on c.id = s.clip_id
          where s.episode_processing_id = $1 order by c.position, s.provider`,
        [id],
      );
      // Drive is connected but is no platform the worker posts to; X is. Held for the review.
      expect(scheduled).toEqual([{ provider: 'x', position: 1, status: 'held' }, { provider: 'x', position: 2, status: 'held' }]);
      expect((await db.query('select status, progress from public.episode_processing where id = $1', [id])).rows[0]).toEqual({ status: 'delivered', progress: 100 });
    });
  });

  it("records each clip's score and reason, which its owner reads on the episode page (issue 42, item 4)", async () => {
    await inRolledBackTx(async (db) => {
      const { user, episodeId, id } = await queued(db);
      const reason = "A question and its answer; names 'budget' and 'savings'; ends on a pause.";
      // Clip 2 comes from a plan made before clips had reasons: it has neither.
      await call(db, 'private.record_episode_clips($1, $2)', [id, JSON.stringify([{ ...clip(1), score: 0.82, reason }, clip(2)])]);
      const [{ p }] = await queryAs<{ p: { processing: { clips: Json[] } } }>(db, { id: user.id }, 'select public.episode_page($1) as p', [episodeId]);
      expect(p.processing.clips.map((c) => [c.position, c.score, c.reason])).toEqual([[1, 0.82, reason], [2, null, null]]);
      // A score is 0..1.
      await db.query('savepoint refused');
      await expect(db.query('select private.record_episode_clips($1, $2)', [id, JSON.stringify([{ ...clip(1), score: 8.3, reason }])])).rejects.toMatchObject({ code: '23514' });
      await db.query('rollback to savepoint refused');
    });
  });

  it('schedules nothing when the subscriber does not post automatically', async () => {
    await inRolledBackTx(async (db) => {
      const { user, id } = await queued(db);
      await db.query('update public.profiles set post_automatically = false where id = $1', [user.id]);
      await db.query(`insert into public.oauth_connections (user_id, provider, connected, status) values ($1, 'youtube', true, 'connected')`, [user.id]);
      const [{ id: clipId }] = await call<{ id: string }[]>(db, 'private.record_episode_clips($1, $2)', [id, JSON.stringify([clip(1)])]);
      await call(db, `private.record_clip_file($1, 'drive-1', null)`, [clipId]);
      await call(db, 'private.processing_delivered($1)', [id]);
      expect((await db.query('select count(*)::int as n from public.scheduled_posts where episode_processing_id = $1', [id])).rows[0].n).toBe(0);
    });
  });
});

describe('the plan and its pieces', () => {
  it('keeps one plan per row, reads it only by its id, and counts pieces once each', async () => {
    await inRolledBackTx(async (db) => {
      const { id } = await queued(db);
      const planA = '11111111-1111-4111-8111-111111111111';
      const planB = '22222222-2222-4222-8222-222222222222';
      await call(db, 'private.save_processing_plan($1, $2, $3, 3)', [id, planA, JSON.stringify({ version: 2 })]);
      await call(db, 'private.save_processing_plan($1, $2, $3, 2)', [id, planB, JSON.stringify({ version: 2, b: true })]);
      expect(await call(db, 'private.processing_plan($1, $2)', [id, planA])).toBeNull();
      expect(await call(db, 'private.processing_plan($1, $2)', [id, planB])).toEqual({ version: 2, b: true });
      for (const piece of [0, 0, 1]) await call(db, 'private.record_piece_done($1, $2)', [planB, piece]);
      expect(await call(db, 'private.pieces_done($1)', [planB])).toEqual({ done: 2, total: 2 });
      await call(db, 'private.drop_processing_plan($1)', [id]);
      expect(await call(db, 'private.pieces_done($1)', [planB])).toBeNull();
    });
  });
});

describe('posting', () => {
  it('claims a due post once with its clip, records it posted, and backs a failure off or gives it up', async () => {
    await inRolledBackTx(async (db) => {
      const { user, id } = await queued(db);
      await db.query(`insert into public.oauth_connections (user_id, provider, connected, status) values ($1, 'youtube', true, 'connected')`, [user.id]);
      const ids = await call<{ id: string }[]>(db, 'private.record_episode_clips($1, $2)', [id, JSON.stringify([clip(1), clip(2)])]);
      for (const { id: clipId } of ids) await call(db, `private.record_clip_file($1, $2, null)`, [clipId, `drive-${clipId}`]);
      await call(db, 'private.processing_delivered($1)', [id]);
      // Released (as the review does), the first clip's post made due now.
      await call(db, 'private.release_episode($1, now())', [id]);
      await db.query(
        `update public.scheduled_posts s set scheduled_for = now() from public.episode_clips c where c.id = s.clip_id and c.id = $1`,
        [ids[0].id],
      );
      // Only the first clip is due today.
      const claimed = (await db.query(`select private.claim_due_posts(10) as post`)).rows.map((r) => r.post).filter((p: Json) => p.userId === user.id);
      expect(claimed).toEqual([
        expect.objectContaining({ kind: 'clip', provider: 'youtube', attempts: 1, clipId: ids[0].id, title: 'Clip 1', fileName: 'Show - clip 01.mp4', driveFileId: `drive-${ids[0].id}` }),
      ]);
      const again = (await db.query(`select private.claim_due_posts(10) as post`)).rows.map((r) => r.post).filter((p: Json) => p.userId === user.id);
      expect(again).toEqual([]);
      const postId = String(claimed[0].id);
      await call(db, `private.post_attempt_failed($1, 'X answered 503', false, 60)`, [postId]);
      const post = async () => (await db.query('select status, last_error, locked_until > now() + interval \'59 seconds\' as backed_off from public.scheduled_posts where id = $1', [postId])).rows[0];
      expect(await post()).toEqual({ status: 'scheduled', last_error: 'X answered 503', backed_off: true });
      await call(db, `private.post_attempt_failed($1, 'Reconnect YouTube', true, 60)`, [postId]);
      expect(await post()).toMatchObject({ status: 'failed', last_error: 'Reconnect YouTube' });
      await db.query(`update public.scheduled_posts set status = 'scheduled', locked_until = null where id = $1`, [postId]);
      await call(db, `private.post_published($1, 'yt-1')`, [postId]);
      expect((await db.query('select status, external_id from public.scheduled_posts where id = $1', [postId])).rows[0]).toEqual({ status: 'posted', external_id: 'yt-1' });
    });
  });
});

describe('OAuth refreshes', () => {
  it('records new tokens with the connection, and a gone grant as needing a reconnect', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db);
      const { rows } = await db.query(`select id from public.oauth_connections where user_id = $1 and provider = 'google'`, [user.id]);
      const connection = rows[0].id as string;
      await call(db, `private.record_token_refresh($1, 'sealed-access', 'sealed-refresh', 'k2', null, now() + interval '1 hour')`, [connection]);
      const state = async () =>
        (await db.query(
          `select c.status, c.connected, t.access_token_encrypted as access, t.refresh_token_encrypted as refresh, t.key_id, t.last_refresh_error as error
             from public.oauth_connections c join private.oauth_tokens t on t.connection_id = c.id where c.id = $1`,
          [connection],
        )).rows[0];
      expect(await state()).toMatchObject({ status: 'connected', connected: true, access: 'sealed-access', refresh: 'sealed-refresh', key_id: 'k2', error: null });
      await call(db, `private.record_token_refresh_failure($1, 'timeout', false)`, [connection]);
      expect(await state()).toMatchObject({ status: 'connected', refresh: 'sealed-refresh', error: 'timeout' });
      await call(db, `private.record_token_refresh_failure($1, 'invalid_grant', true)`, [connection]);
      expect(await state()).toMatchObject({ status: 'failed', refresh: null, error: 'invalid_grant' });
      await connectGoogle(db, (await createReadySubscriber(db)).id);
    });
  });
});
