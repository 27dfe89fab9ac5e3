// The month's allowance counts the extra episodes bought for that calendar month only (issue 43,
// item 4): the plan's limit plus this month's extras; last month's buy nothing now, an unlimited
// plan stays unlimited, and a session is recorded once.
import { describe, expect, it } from 'vitest';
import { addEpisode, createReadySubscriber, inRolledBackTx, queryAs } from './db-support.ts';

describe('extra episodes', () => {
  it("raise this month's limit by one each, and no other month's", async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db, 'scale');
      for (let n = 0; n < 4; n++) await addEpisode(db, user.id);
      const stats = async () => (await queryAs<{ s: Record<string, unknown> }>(db, { id: user.id }, 'select public.episode_stats() as s'))[0].s;
      expect(await stats()).toMatchObject({ limit: 4, extraEpisodes: 0, blockReason: 'monthly_limit' });

      const record = async (session: string, paidAt: string) =>
        (await db.query(`select private.record_extra_episode($1, $2, 'pi_1', 29900, 'usd', $3::timestamptz) as outcome`, [user.id, session, paidAt])).rows[0].outcome;
      expect(await record('cs_last_month', new Date(Date.now() - 40 * 86_400_000).toISOString())).toBe('recorded');
      expect(await stats()).toMatchObject({ limit: 4, extraEpisodes: 0, blockReason: 'monthly_limit' });
      expect(await record('cs_now', new Date().toISOString())).toBe('recorded');
      expect(await record('cs_now', new Date().toISOString())).toBe('duplicate');
      expect(await stats()).toMatchObject({ limit: 5, extraEpisodes: 1, blockReason: null, canSubmit: true });
      expect((await db.query(`select private.record_extra_episode(gen_random_uuid(), 'cs_gone', null, 1, 'usd', now()) as outcome`)).rows[0].outcome).toBe('no_account');

      // An unlimited plan stays unlimited.
      await db.query(`update public.subscriptions set tier = 'enterprise' where user_id = $1`, [user.id]);
      expect(await stats()).toMatchObject({ limit: null, extraEpisodes: 1 });
    });
  });
});
