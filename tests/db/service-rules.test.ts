// Rules the service-role code paths rely on: stale Stripe events, single-use OAuth state,
// token flags that follow the token table.
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
  it('spends a state once, only for its provider and before it expires', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createUser(db);
      await db.query(
        `insert into public.oauth_states (state, user_id, provider, code_verifier, expires_at) values
           ('state-fresh-0000000001', $1, 'google', 'v1', now() + interval '5 minutes'),
           ('state-stale-0000000001', $1, 'google', 'v2', now() - interval '1 second')`,
        [user.id],
      );
      await db.query(`set local role service_role`);
      const consume = (state: string, provider: string) =>
        db.query(`select * from public.consume_oauth_state($1, $2)`, [state, provider]);
      expect((await consume('state-fresh-0000000001', 'youtube')).rows).toEqual([]);
      expect((await consume('state-fresh-0000000001', 'google')).rows).toEqual([
        { user_id: user.id, code_verifier: 'v1', redirect_to: null },
      ]);
      expect((await consume('state-fresh-0000000001', 'google')).rows).toEqual([]);
      expect((await consume('state-stale-0000000001', 'google')).rows).toEqual([]);
    });
  });

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
      await db.query(`update public.oauth_tokens set refresh_token_encrypted = 'enc:new' where connection_id = $1`, [
        connectionId,
      ]);
      expect(await flags()).toEqual({ has_access_token: true, has_refresh_token: true });
      await db.query(`delete from public.oauth_tokens where connection_id = $1`, [connectionId]);
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
