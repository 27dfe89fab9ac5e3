// The largest plan's extra episode (issue 43, item 4), as its tests set it up: a Scale subscriber
// who paid the Stripe sandbox's checkout (a real sandbox customer), onboarded, with Drive and
// hosting, at the month's four episodes; and paying a checkout on the sandbox's hosted page.
import { expect } from 'vitest';
import { callApi, tokenOf } from './episodes.ts';
import { config, withDb } from './stack.ts';
import { connectDrive, createUser, markHostingReady, markOnboarded, type TestUser } from './users.ts';

export const sessionIdOf = (checkoutUrl: string) => new URL(checkoutUrl).pathname.split('/').pop()!;

/** Pays a checkout session on the sandbox's hosted page; answers where the browser goes next. */
export async function payOnPage(sessionId: string): Promise<string | null> {
  const paid = await fetch(`${config.urls.sandbox}/checkout/${sessionId}/pay`, { method: 'POST', redirect: 'manual' });
  expect(paid.status).toBe(303);
  return paid.headers.get('location');
}

export async function scaleSubscriberAtLimit(): Promise<{ user: TestUser; token: string }> {
  const user = await createUser('new');
  const token = await tokenOf(user);
  const checkout = await callApi('POST', 'create-checkout-session', token, { tier: 'scale' });
  await payOnPage(sessionIdOf(checkout.body.checkoutUrl));
  await markOnboarded(user.id);
  await connectDrive(user.id);
  await markHostingReady(user.id);
  await withDb((db) =>
    db.query(
      `insert into public.episodes (user_id, title, files) select $1::uuid, 'Episode ' || n, array[$1::text || '/e' || n || '.mp4'] from generate_series(1, 4) n`,
      [user.id],
    ),
  );
  return { user, token };
}
