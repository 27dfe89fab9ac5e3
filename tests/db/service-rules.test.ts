// Rules the service-role code paths rely on: stale Stripe events, token flags that follow the
// token table (single-use OAuth state: tests/functions/connections-api.test.ts).
import { describe, expect, it } from 'vitest';
import { addEpisode, connectGoogle, createUser, inRolledBackTx, queryAs, subscribe } from './db-support.ts';

describe('subscriptions', () => {
  it('ignores an update carrying an older Stripe event than the one applied', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createUser(db);
      await subscribe(db, user.id, 'growth', 'active');
      await db.query(`set local role service_role`);
      await db.query(
        `update public.subscriptions set status = 'canceled', last_stripe_event_at = now() - interval '1 hour' where user_id = $1`,
        [user.id],
      );
      expect(
        (await db.query(`select status from public.subscriptions where user_id = $1`, [user.id])).rows[0].status,
      ).toBe('active');
      await db.query(
        `update public.subscriptions set status = 'past_due', last_stripe_event_at = now() + interval '1 second' where user_id = $1`,
        [user.id],
      );
      expect(
        (await db.query(`select status from public.subscriptions where user_id = $1`, [user.id])).rows[0].status,
      ).toBe('past_due');
    });
  });
});

describe('oauth', () => {
  it('keeps has_access_token / has_refresh_token true to the token row', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createUser(db);
      const connectionId = await connectGoogle(db, user.id, { refreshToken: false });
      const flags = async () =>
        (
          await db.query(`select has_access_token, has_refresh_token from public.oauth_connections where id = $1`, [
            connectionId,
          ])
        ).rows[0];
      expect(await flags()).toEqual({ has_access_token: true, has_refresh_token: false });
      await db.query(`update private.oauth_tokens set refresh_token_encrypted = 'enc:new' where connection_id = $1`, [
        connectionId,
      ]);
      expect(await flags()).toEqual({ has_access_token: true, has_refresh_token: true });
      await db.query(`delete from private.oauth_tokens where connection_id = $1`, [connectionId]);
      expect(await flags()).toEqual({ has_access_token: false, has_refresh_token: false });
    });
  });
});

describe('storage helpers', () => {
  it('is_submitted_episode_file answers only about the caller’s own folder', async () => {
    await inRolledBackTx(async (db) => {
      const owner = await createUser(db);
      const stranger = await createUser(db);
      await addEpisode(db, owner.id);
      const ask = async (who: string) =>
        (
          await queryAs<{ used: boolean }>(db, { id: who }, 'select private.is_submitted_episode_file($1) as used', [
            `${owner.id}/old.mp4`,
          ])
        )[0].used;
      expect(await ask(owner.id)).toBe(true);
      expect(await ask(stranger.id)).toBe(false);
    });
  });
});
