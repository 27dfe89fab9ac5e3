// One more episode this month on the largest plan (issue 43, item 4): a Stripe Checkout session in
// payment mode for the one-time price STRIPE_PRICE_EXTRA_EPISODE. The stripe-webhook function
// records the paid session (private.record_extra_episode) and the month's allowance counts it.
import type Stripe from 'stripe';
import { settings } from '../../_shared/config.ts';
import { EXTRA_EPISODE_PURPOSE, EXTRA_EPISODE_RETURN_PARAM, HIGHEST_PLAN_TIER, isHighestPlan, planTitle } from '../../_shared/domain/plans.ts';
import { HttpError } from '../../_shared/http-error.ts';
import type { Caller } from '../../_shared/session.ts';

/** The caller's subscription as the route reads it (as the caller). */
export interface BillingRow {
  stripe_customer_id: string | null;
  status: string | null;
  tier: string | null;
}

/** Refuses a caller who may not buy an extra episode: 409 without an active largest plan, 503 without a price. */
export function extraEpisodePrice(row: BillingRow | null): string {
  const price = settings().stripe.extraEpisodePriceId;
  if (!price) throw new HttpError(503, 'Extra episodes have no Stripe price configured (STRIPE_PRICE_EXTRA_EPISODE)');
  if (row?.status !== 'active') throw new HttpError(409, 'An active subscription is required to buy an extra episode.');
  if (!isHighestPlan(row.tier)) {
    throw new HttpError(409, `One more episode can be bought on the ${planTitle(HIGHEST_PLAN_TIER)}. Upgrade your plan to submit more episodes.`);
  }
  return price;
}

/** The Checkout session (payment mode) for one extra episode; its address is where the browser goes. */
export async function extraEpisodeCheckout(stripe: Stripe, caller: Caller, customer: string, price: string): Promise<string> {
  const siteUrl = settings().siteUrl;
  const metadata = { user_id: caller.userId, purpose: EXTRA_EPISODE_PURPOSE };
  const session = await stripe.checkout.sessions.create({
    mode: 'payment',
    customer,
    line_items: [{ price, quantity: 1 }],
    client_reference_id: caller.userId,
    metadata,
    success_url: `${siteUrl}/dashboard?${new URLSearchParams({ [EXTRA_EPISODE_RETURN_PARAM]: 'purchased' })}`,
    cancel_url: `${siteUrl}/dashboard`,
  });
  if (!session.url) throw new HttpError(502, 'Stripe did not return a checkout address');
  return session.url;
}
