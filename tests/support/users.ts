// Test users in any state, created through the Auth admin API like real accounts, with their
// subscription and onboarding state written as the Stripe webhook and onboarding would.
import { serviceClient, uniqueEmail, withDb } from './stack.ts';

export type UserState = 'new' | 'subscribed' | 'onboarded' | 'admin';

export interface TestUser {
  id: string;
  email: string;
  password: string;
}

export async function createUser(state: UserState, options: { password?: string; tier?: string } = {}): Promise<TestUser> {
  const email = uniqueEmail(state);
  const password = options.password ?? 'correct-horse-battery';
  const { data, error } = await serviceClient().auth.admin.createUser({
    email,
    password,
    email_confirm: true,
    user_metadata: { first_name: 'Test', last_name: state },
    app_metadata: state === 'admin' ? { role: 'admin' } : undefined,
  });
  if (error || !data.user) throw new Error(`could not create a ${state} user: ${error?.message}`);
  const user = { id: data.user.id, email, password };
  if (state === 'subscribed' || state === 'onboarded') await activateSubscription(user.id, options.tier ?? 'growth');
  if (state === 'onboarded') await markOnboarded(user.id);
  return user;
}

export async function activateSubscription(userId: string, tier: string): Promise<void> {
  await withDb((db) =>
    db.query(
      `insert into public.subscriptions (user_id, stripe_customer_id, stripe_subscription_id, status, tier, current_period_end)
       values ($1::uuid, $2, $3, 'active', $4, now() + interval '30 days')
       on conflict (user_id) do update set status = 'active', tier = excluded.tier`,
      [userId, `cus_test_${userId.replace(/-/g, '')}`, `sub_test_${userId.replace(/-/g, '')}`, tier],
    ),
  );
}

export async function markOnboarded(userId: string): Promise<void> {
  await withDb((db) => db.query('update public.profiles set onboarding_completed_at = now() where id = $1', [userId]));
}
