// A paid Checkout session for an extra episode (issue 43, item 4): recorded once per session
// (private.record_extra_episode), in the month the payment went through. Sessions of any other
// purpose, or not paid yet, are left alone.
import type Stripe from 'stripe';
import { db } from '../_shared/db.ts';
import { EXTRA_EPISODE_PURPOSE } from '../_shared/domain/plans.ts';
import { isUuid } from '../_shared/http-error.ts';

/** The session of an extra episode that is paid, with the account it names, or null. */
export function paidExtraEpisode(event: Stripe.Event): { session: Stripe.Checkout.Session; userId: string } | null {
  if (event.type !== 'checkout.session.completed' && event.type !== 'checkout.session.async_payment_succeeded') return null;
  const session = event.data.object;
  if (session.mode !== 'payment' || session.metadata?.purpose !== EXTRA_EPISODE_PURPOSE || session.payment_status !== 'paid') return null;
  const userId = session.metadata?.user_id ?? session.client_reference_id ?? '';
  return isUuid(userId) ? { session, userId } : null;
}

/** Records it: 'recorded', 'duplicate' or 'no_account' (the account was deleted since). */
export async function recordExtraEpisode(paid: { session: Stripe.Checkout.Session; userId: string }, paidAt: string): Promise<string> {
  const { session, userId } = paid;
  const paymentIntent = typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);
  const [{ outcome }] = await db()<{ outcome: string }[]>`
    select private.record_extra_episode(${userId}::uuid, ${session.id}, ${paymentIntent}, ${session.amount_total}::integer,
                                        ${session.currency}, ${paidAt}::timestamptz) as outcome`;
  return outcome;
}
