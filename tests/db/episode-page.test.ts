// The episode page's SQL: episode_page() answers only the caller's own episode (never another's,
// not even an admin's view), and the calendar's changes touch only the owner's waiting posts that
// no worker holds; a direct update of scheduled_posts stays refused.
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { addEpisode, createUser, inRolledBackTx, queryAs, runAs } from './db-support.ts';
import { addClip } from '../support/episode-page.ts';

/** A delivered processing row for a new episode of `userId`, with one post per entry of `posts`. */
async function withPosts(db: pg.Client, userId: string, posts: Array<{ status?: string; locked?: boolean; inDays?: number }>) {
  const episodeId = await addEpisode(db, userId);
  const log = await db.query(
    `insert into public.submission_logs (user_id, user_email, status, object_storage_files, episode_id)
     select id, email, 'delivered', array[id::text || '/old.mp4'], $2 from public.profiles where id = $1 returning id`,
    [userId, episodeId],
  );
  const processing = await db.query(
    `insert into public.episode_processing (submission_log_id, episode_id, user_id, status, progress) values ($1, $2, $3, 'delivered', 100) returning id`,
    [log.rows[0].id, episodeId, userId],
  );
  const ids: string[] = [];
  for (const [i, post] of posts.entries()) {
    const clipId = await addClip(db, processing.rows[0].id, i + 1, `clip ${i}.mp4`);
    const { rows } = await db.query(
      `insert into public.scheduled_posts (episode_processing_id, user_id, provider, clip_id, scheduled_for, status, locked_until)
       values ($1, $2, 'youtube', $3, now() + make_interval(days => $4), $5, case when $6 then now() + interval '10 minutes' end) returning id`,
      [processing.rows[0].id, userId, clipId, post.inDays ?? 1, post.status ?? 'scheduled', post.locked ?? false],
    );
    ids.push(rows[0].id as string);
  }
  return { episodeId, ids };
}

describe('episode_page()', () => {
  it("answers the owner's episode with its processing and posts; null for anyone else", async () => {
    await inRolledBackTx(async (db) => {
      const owner = await createUser(db);
      const other = await createUser(db);
      const admin = await createUser(db, { admin: true });
      const { episodeId, ids } = await withPosts(db, owner.id, [{}]);
      const [own] = await queryAs<{ page: Record<string, unknown> }>(db, { id: owner.id }, 'select public.episode_page($1) as page', [episodeId]);
      expect(own.page).toMatchObject({ id: episodeId, processing: { status: 'delivered', posts: [{ id: ids[0], changeable: true }] } });
      for (const actor of [{ id: other.id }, { id: admin.id, admin: true }]) {
        const [row] = await queryAs<{ page: unknown }>(db, actor, 'select public.episode_page($1) as page', [episodeId]);
        expect(row.page).toBeNull();
      }
      expect((await runAs(db, 'anon', 'select public.episode_page($1)', [episodeId])).code).toBe('42501');
    });
  });
});

describe('changing a scheduled post', () => {
  it('lets the owner postpone, post now and cancel a waiting post', async () => {
    await inRolledBackTx(async (db) => {
      const owner = await createUser(db);
      const { ids } = await withPosts(db, owner.id, [{}, {}, {}]);
      const later = new Date(Date.now() + 3 * 86_400_000).toISOString();
      const [postponed] = await queryAs<{ post: Record<string, unknown> }>(db, { id: owner.id }, 'select public.postpone_scheduled_post($1, $2) as post', [ids[0], later]);
      expect(new Date(postponed.post.scheduledFor as string).toISOString()).toBe(later);
      const [now] = await queryAs<{ post: Record<string, unknown> }>(db, { id: owner.id }, 'select public.post_scheduled_post_now($1) as post', [ids[1]]);
      expect(new Date(now.post.scheduledFor as string).getTime()).toBeLessThanOrEqual(Date.now());
      const [canceled] = await queryAs<{ post: Record<string, unknown> }>(db, { id: owner.id }, 'select public.cancel_scheduled_post($1) as post', [ids[2]]);
      expect(canceled.post).toMatchObject({ status: 'canceled', changeable: false });
    });
  });

  it("refuses another user's post, a finished or held one, and a date in the past or too far; the row stays", async () => {
    await inRolledBackTx(async (db) => {
      const owner = await createUser(db);
      const other = await createUser(db);
      const { ids } = await withPosts(db, owner.id, [{}, { status: 'posted' }, { status: 'canceled' }, { locked: true }]);
      const [waiting, posted, canceled, held] = ids;
      const cases: Array<[{ id: string }, string, unknown[], string, RegExp]> = [
        [{ id: other.id }, 'select public.cancel_scheduled_post($1)', [waiting], 'PT404', /not found/],
        [{ id: other.id }, 'select public.post_scheduled_post_now($1)', [waiting], 'PT404', /not found/],
        [{ id: owner.id }, 'select public.cancel_scheduled_post($1)', [posted], 'PT409', /is posted/],
        [{ id: owner.id }, 'select public.post_scheduled_post_now($1)', [canceled], 'PT409', /is canceled/],
        [{ id: owner.id }, 'select public.cancel_scheduled_post($1)', [held], 'PT409', /being published/],
        [{ id: owner.id }, 'select public.postpone_scheduled_post($1, now() - interval \'1 minute\')', [waiting], '22023', /in the future/],
        [{ id: owner.id }, 'select public.postpone_scheduled_post($1, now() + interval \'400 days\')', [waiting], '22023', /within a year/],
        [{ id: owner.id }, 'select public.postpone_scheduled_post($1, null)', [waiting], '22023', /in the future/],
        [{ id: owner.id }, "select private.change_scheduled_post($1, 'delete')", [waiting], '22023', /Unknown change/],
      ];
      for (const [actor, sql, params, code, detail] of cases) {
        const outcome = await runAs(db, actor, sql, params);
        expect([sql, outcome.code]).toEqual([sql, code]);
        expect(outcome.detail).toMatch(detail);
      }
      // Subscribers still cannot write the table directly.
      expect((await runAs(db, { id: owner.id }, `update public.scheduled_posts set status = 'canceled' where id = $1`, [waiting])).code).toBe('42501');
      const { rows } = await db.query('select status from public.scheduled_posts where id = $1', [waiting]);
      expect(rows[0].status).toBe('scheduled');
    });
  });
});
