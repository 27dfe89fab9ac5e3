// Checkout, billing portal and plan change (spec sections 2 and 7). Stripe is reached only from here, with
// the secret key; the subscription itself is written only by the stripe-webhook function.
import { Hono } from 'hono';
import type Stripe from 'stripe';
import { z } from 'zod';
import { settings } from '../../_shared/config.ts';
import { db } from '../../_shared/db.ts';
import { formatChangeDay, isPlanTier, PLAN_CHANGED_FROM_PARAM, planTitle } from '../../_shared/domain/plans.ts';
import { databaseError } from '../../_shared/database-errors.ts';
import { HttpError, parseJsonBody } from '../../_shared/http-error.ts';
import { requireCaller, type Caller } from '../../_shared/session.ts';
import { userClient } from '../../_shared/supabase-clients.ts';
import { isLiveSubscription, priceIdsByTier, stripeClient } from '../../_shared/stripe.ts';
import { extraEpisodeCheckout, extraEpisodePrice, type BillingRow } from '../billing/extra-episode.ts';
import { planChangeConfiguration } from '../billing/portal-configuration.ts';

const siteUrl = () => settings().siteUrl;

const checkoutSchema = z.object({ tier: z.string().max(50) });

const ALREADY_SUBSCRIBED = 'You already have an active subscription. Change your plan from the billing portal.';
/** An open checkout is handed out again only with this much of its life left (Stripe's shortest is 30 minutes). */
const CHECKOUT_REUSE_MIN_SECONDS = 60 * 60;

/** The caller's own subscription row, read as the caller (RLS lets each user read their own). */
async function storedBilling(caller: Caller): Promise<{ customerId: string | null; active: boolean }> {
  const { data, error } = await userClient(caller.accessToken)
    .from('subscriptions')
    .select('stripe_customer_id, status')
    .eq('user_id', caller.userId)
    .maybeSingle();
  if (error) throw databaseError(error, 'Could not read billing data');
  return { customerId: data?.stripe_customer_id ?? null, active: data?.status === 'active' };
}

async function storedCustomerId(caller: Caller): Promise<string | null> {
  return (await storedBilling(caller)).customerId;
}

/** The caller's Stripe customer, created once and remembered. */
async function customerFor(caller: Caller): Promise<string> {
  const existing = await storedCustomerId(caller);
  if (existing) return existing;
  const customer = await stripeClient().customers.create(
    { email: caller.email, metadata: { user_id: caller.userId } },
    // Two quick clicks must not create two customers.
    { idempotencyKey: `customer-for-${caller.userId}` },
  );
  await db()`select private.remember_stripe_customer(${caller.userId}::uuid, ${customer.id})`;
  return (await storedCustomerId(caller)) ?? customer.id;
}

export const billingRoutes = new Hono();

/** Whether Stripe bills a live subscription for the customer (its webhook may not have landed yet). */
async function hasLiveSubscription(stripe: Stripe, customer: string): Promise<boolean> {
  const { data } = await stripe.subscriptions.list({ customer, limit: 100 });
  return data.some((subscription) => isLiveSubscription(subscription.status));
}

/**
 * The customer's open checkout for `tier`, to hand out again; every other open checkout (another
 * plan, or about to expire) is expired, so at most one can still be paid.
 */
async function reusableCheckout(stripe: Stripe, customer: string, tier: string): Promise<string | null> {
  const now = Math.floor(Date.now() / 1000);
  let reusable: string | null = null;
  for await (const session of stripe.checkout.sessions.list({ customer, status: 'open', limit: 100 })) {
    if (!reusable && session.url && session.metadata?.tier === tier && session.expires_at - now >= CHECKOUT_REUSE_MIN_SECONDS) {
      reusable = session.url;
      continue;
    }
    try {
      await stripe.checkout.sessions.expire(session.id);
    } catch (error) {
      // Paid or expired meanwhile: not open any more, which is all this wants.
      if ((await stripe.checkout.sessions.retrieve(session.id)).status === 'open') throw error;
    }
  }
  return reusable;
}

billingRoutes.post('/create-checkout-session', async (c) => {
  const caller = await requireCaller(c);
  const { tier } = await parseJsonBody(c.req.raw, checkoutSchema);
  if (!isPlanTier(tier)) throw new HttpError(400, `Unknown plan: ${tier}`);
  const price = priceIdsByTier()[tier];
  if (!price) throw new HttpError(503, `The ${tier} plan has no Stripe price configured`);
  // A second checkout would start a second subscription: plan changes go through the portal.
  if ((await storedBilling(caller)).active) throw new HttpError(409, ALREADY_SUBSCRIBED);
  const customer = await customerFor(caller);
  const stripe = stripeClient();
  if (await hasLiveSubscription(stripe, customer)) throw new HttpError(409, ALREADY_SUBSCRIBED);
  // Two checkouts opened before paying both would make two subscriptions: one open at a time.
  const open = await reusableCheckout(stripe, customer, tier);
  if (open) return c.json({ checkoutUrl: open });
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer,
    line_items: [{ price, quantity: 1 }],
    client_reference_id: caller.userId,
    metadata: { user_id: caller.userId, tier },
    subscription_data: { metadata: { user_id: caller.userId, tier } },
    success_url: `${siteUrl()}/?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${siteUrl()}/subscribe`,
  });
  if (!session.url) throw new HttpError(502, 'Stripe did not return a checkout address');
  return c.json({ checkoutUrl: session.url });
});

billingRoutes.post('/create-portal-session', async (c) => {
  const caller = await requireCaller(c);
  const customer = await storedCustomerId(caller);
  if (!customer) throw new HttpError(400, 'No billing account yet: choose a plan first');
  // The portal also offers the plan change (the account's default configuration does not).
  const portal = await stripeClient().billingPortal.sessions.create({
    customer,
    configuration: await planChangeConfiguration(),
    return_url: `${siteUrl()}/subscribe`,
  });
  return c.json({ url: portal.url });
});

const planChangeSchema = z.object({ tier: z.string().max(50).optional() });

/**
 * The portal opened on the plan change of the caller's active subscription: choosing a plan, or
 * confirming `tier`. After the change Stripe sends the browser to the dashboard, which waits for
 * the new tier (PLAN_CHANGED_FROM_PARAM).
 */
billingRoutes.post('/create-plan-change-session', async (c) => {
  const caller = await requireCaller(c);
  const { tier } = await parseJsonBody(c.req.raw, planChangeSchema);
  if (tier !== undefined && !isPlanTier(tier)) throw new HttpError(400, `Unknown plan: ${tier}`);
  const { data: row, error } = await userClient(caller.accessToken)
    .from('subscriptions')
    .select('stripe_customer_id, stripe_subscription_id, status, tier, scheduled_tier, scheduled_change_at')
    .eq('user_id', caller.userId)
    .maybeSingle();
  if (error) throw databaseError(error, 'Could not read billing data');
  if (!row?.stripe_customer_id || !row.stripe_subscription_id || row.status !== 'active') {
    throw new HttpError(409, 'There is no active subscription to change: choose a plan first');
  }
  if (tier !== undefined && tier === row.tier) throw new HttpError(409, `You are already on the ${tier} plan`);
  // Stripe's portal changes no plan while one change waits for the period's end.
  if (row.scheduled_tier && row.scheduled_change_at) {
    throw new HttpError(
      409,
      `Your plan already changes to the ${planTitle(row.scheduled_tier)} on ${formatChangeDay(row.scheduled_change_at, 'UTC')}. To choose another plan, cancel that change in Manage Billing first.`,
    );
  }
  const stripe = stripeClient();
  const subscription = tier === undefined ? null : await stripe.subscriptions.retrieve(row.stripe_subscription_id);
  const item = subscription?.items.data[0];
  if (subscription && !item) throw new HttpError(502, 'Stripe returned a subscription without items');
  const price = tier === undefined ? undefined : priceIdsByTier()[tier];
  if (tier !== undefined && !price) throw new HttpError(503, `The ${tier} plan has no Stripe price configured`);
  const done = `${siteUrl()}/dashboard?${new URLSearchParams({ [PLAN_CHANGED_FROM_PARAM]: row.tier ?? '' })}`;
  const portal = await stripe.billingPortal.sessions.create({
    customer: row.stripe_customer_id,
    configuration: await planChangeConfiguration(),
    return_url: `${siteUrl()}${tier === undefined ? '/dashboard' : '/subscribe'}`,
    flow_data:
      item && price
        ? {
            type: 'subscription_update_confirm',
            subscription_update_confirm: { subscription: row.stripe_subscription_id, items: [{ id: item.id, price }] },
            after_completion: { type: 'redirect', redirect: { return_url: done } },
          }
        : {
            type: 'subscription_update',
            subscription_update: { subscription: row.stripe_subscription_id },
            after_completion: { type: 'redirect', redirect: { return_url: done } },
          },
  });
  return c.json({ url: portal.url });
});

/**
 * POST /api/create-extra-episode-checkout: on the largest plan, Checkout (payment mode) for one
 * more episode this month; answers {checkoutUrl}. 409 without an active largest plan.
 */
billingRoutes.post('/create-extra-episode-checkout', async (c) => {
  const caller = await requireCaller(c);
  const { data: row, error } = await userClient(caller.accessToken)
    .from('subscriptions')
    .select('stripe_customer_id, status, tier')
    .eq('user_id', caller.userId)
    .maybeSingle<BillingRow>();
  if (error) throw databaseError(error, 'Could not read billing data');
  const price = extraEpisodePrice(row);
  const customer = row?.stripe_customer_id ?? (await customerFor(caller));
  return c.json({ checkoutUrl: await extraEpisodeCheckout(stripeClient(), caller, customer, price) });
});
