// The local demo accounts: an onboarded growth subscriber who gets past every gate but the
// Google Drive connection, and an administrator. Runs against local Auth's admin API.
import { expect, it } from 'vitest';
import { createDemoAccounts, DEMO_ADMIN, DEMO_SUBSCRIBER } from '../../local/demo-accounts.ts';
import { config } from '../support/stack.ts';
import { inRolledBackTx, queryAs, withDb } from './db-support.ts';

it('creates the demo subscriber and admin, and can run again', async () => {
  const first = await createDemoAccounts(config);
  const again = await createDemoAccounts(config);
  expect(again).toEqual(first);
  const [subscriber, admin] = first;
  expect(subscriber).toMatchObject({ role: 'subscriber', email: DEMO_SUBSCRIBER.email });
  expect(admin).toMatchObject({ role: 'admin', email: DEMO_ADMIN.email });

  await inRolledBackTx(async (db) => {
    const [{ account }] = await queryAs<{ account: Record<string, unknown> }>(
      db,
      { id: subscriber.id },
      'select public.current_account() as account',
    );
    expect(account).toMatchObject({
      email: DEMO_SUBSCRIBER.email,
      subscriptionStatus: 'active',
      subscriptionTier: 'growth',
      onboardingCompleted: true,
    });
    const [{ stats }] = await queryAs<{ stats: Record<string, unknown> }>(
      db,
      { id: subscriber.id },
      'select public.episode_stats() as stats',
    );
    expect(stats).toMatchObject({ limit: 2, hostingSetup: true, blockReason: 'google_drive_required' });
    // Brand assets really uploaded through local Storage: onboarding would pass the server check.
    const { rows: missing } = await db.query('select private.missing_onboarding_fields($1) as fields', [subscriber.id]);
    expect(missing[0].fields).toEqual([]);
  });
  const { rows } = await withDb((db) =>
    db.query(`select raw_app_meta_data ->> 'role' as role from auth.users where id = $1`, [admin.id]),
  );
  expect(rows[0].role).toBe('admin');
});
