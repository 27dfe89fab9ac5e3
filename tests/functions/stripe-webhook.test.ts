// The stripe-webhook function with real Stripe signatures: valid, bad, duplicate, out of order,
// unknown types, and cancellation.
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { anonClient, config, withDb } from '../support/stack.ts';
import { createUser } from '../support/users.ts';

const stripe = new Stripe(config.env.STRIPE_SECRET_KEY);
const secret = config.env.STRIPE_WEBHOOK_SECRET;
const webhookUrl = `${config.urls.api}/functions/v1/stripe-webhook`;
let sequence = 0;

function subscriptionEvent(
  type: string,
  options: { userId: string; customer: string; status: string; price: string; created: number; id?: string; subscription?: string },
) {
  sequence += 1;
  return {
    id: options.id ?? `evt_test_${Date.now()}_${sequence}`,
    object: 'event',
    type,
    created: options.created,
    livemode: false,
    api_version: '2025-01-27.acacia',
    data: {
      object: {
        id: options.subscription ?? `sub_test_${options.customer}`,
        object: 'subscription',
        customer: options.customer,
        status: options.status,
        metadata: { user_id: options.userId },
        items: { object: 'list', data: [{ id: 'si_test', price: { id: options.price }, current_period_end: options.created + 30 * 86400 }] },
      },
    },
  };
}

async function deliver(event: unknown, signWith = secret) {
  const payload = JSON.stringify(event);
  const header = await stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: signWith });
  const res = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': header }, body: payload });
  return { status: res.status, body: await res.json() };
}

async function subscriptionOf(userId: string) {
  return withDb(async (db) => (await db.query('select status, tier, stripe_customer_id, current_period_end from public.subscriptions where user_id = $1', [userId])).rows[0] ?? null);
}

const now = () => Math.floor(Date.now() / 1000);

describe('stripe-webhook', () => {
  it('applies a signed subscription event: active growth with its period end', async () => {
    const user = await createUser('new');
    const created = now();
    const res = await deliver(subscriptionEvent('customer.subscription.created', { userId: user.id, customer: `cus_${sequence}a`, status: 'active', price: config.env.STRIPE_PRICE_GROWTH, created }));
    expect(res).toEqual({ status: 200, body: { received: true, outcome: 'applied' } });
    const row = await subscriptionOf(user.id);
    expect(row).toMatchObject({ status: 'active', tier: 'growth' });
    expect(new Date(row.current_period_end).getTime()).toBe((created + 30 * 86400) * 1000);
  });

  it('refuses a bad signature with 400 and changes nothing', async () => {
    const user = await createUser('new');
    const res = await deliver(subscriptionEvent('customer.subscription.created', { userId: user.id, customer: 'cus_forged', status: 'active', price: config.env.STRIPE_PRICE_SCALE, created: now() }), 'whsec_not_the_secret');
    expect(res).toEqual({ status: 400, body: { message: 'Invalid signature' } });
    expect(await subscriptionOf(user.id)).toBeNull();
  });

  it('refuses a request without a signature', async () => {
    const res = await fetch(webhookUrl, { method: 'POST', body: '{}' });
    expect(res.status).toBe(400);
  });

  it('processes each event id once', async () => {
    const user = await createUser('new');
    const event = subscriptionEvent('customer.subscription.created', { userId: user.id, customer: `cus_${sequence}d`, status: 'active', price: config.env.STRIPE_PRICE_STARTER, created: now() });
    expect((await deliver(event)).body.outcome).toBe('applied');
    expect((await deliver(event)).body).toEqual({ received: true, outcome: 'duplicate' });
    expect(await subscriptionOf(user.id)).toMatchObject({ status: 'active', tier: 'starter' });
    // Recorded once, processed, in the schema the API does not expose.
    const recorded = await withDb(
      async (db) => (await db.query('select count(*)::int as n, bool_and(processed_at is not null) as processed from private.stripe_events where id = $1', [event.id])).rows[0],
    );
    expect(recorded).toEqual({ n: 1, processed: true });
  });

  it('does not let an older event roll the state back', async () => {
    const user = await createUser('new');
    const customer = `cus_${sequence}o`;
    const later = now();
    const newer = subscriptionEvent('customer.subscription.updated', { userId: user.id, customer, status: 'past_due', price: config.env.STRIPE_PRICE_GROWTH, created: later });
    const older = subscriptionEvent('customer.subscription.created', { userId: user.id, customer, status: 'active', price: config.env.STRIPE_PRICE_GROWTH, created: later - 60 });
    expect((await deliver(newer)).body.outcome).toBe('applied');
    expect((await deliver(older)).body.outcome).toBe('stale');
    expect(await subscriptionOf(user.id)).toMatchObject({ status: 'past_due' });
  });

  it('marks a deleted subscription canceled', async () => {
    const user = await createUser('new');
    const customer = `cus_${sequence}x`;
    const created = now();
    await deliver(subscriptionEvent('customer.subscription.created', { userId: user.id, customer, status: 'active', price: config.env.STRIPE_PRICE_GROWTH, created: created - 10 }));
    const res = await deliver(subscriptionEvent('customer.subscription.deleted', { userId: user.id, customer, status: 'canceled', price: config.env.STRIPE_PRICE_GROWTH, created }));
    expect(res.body.outcome).toBe('applied');
    expect(await subscriptionOf(user.id)).toMatchObject({ status: 'canceled' });
  });

  // Stripe does not order events and `created` has whole seconds: the subscription's own state
  // decides (a canceled subscription is final), not the order of arrival.
  it('keeps a deleted subscription canceled when an active update of the same second arrives after it', async () => {
    const user = await createUser('new');
    const customer = `cus_${sequence}s`;
    const second = now();
    const event = (type: string, status: string, created: number, subscription?: string) =>
      subscriptionEvent(type, { userId: user.id, customer, status, price: config.env.STRIPE_PRICE_GROWTH, created, subscription });
    expect((await deliver(event('customer.subscription.created', 'active', second - 30))).body.outcome).toBe('applied');
    expect((await deliver(event('customer.subscription.deleted', 'canceled', second))).body.outcome).toBe('applied');
    expect(await deliver(event('customer.subscription.updated', 'active', second))).toEqual({
      status: 200,
      body: { received: true, outcome: 'stale' },
    });
    expect(await subscriptionOf(user.id)).toMatchObject({ status: 'canceled' });
    // Nor by a later event about the same subscription.
    expect((await deliver(event('customer.subscription.updated', 'active', second + 5))).body.outcome).toBe('stale');
    expect(await subscriptionOf(user.id)).toMatchObject({ status: 'canceled' });
    // A new subscription (a new checkout) is applied.
    const renewed = event('customer.subscription.created', 'active', second + 10, `sub_test_${customer}_new`);
    expect((await deliver(renewed)).body.outcome).toBe('applied');
    expect(await subscriptionOf(user.id)).toMatchObject({ status: 'active' });
  });

  // A plan change (issue 26, item 8): Stripe sends customer.subscription.updated with the new price.
  it('applies a plan change at once: the new price sets the tier, and so the monthly limit', async () => {
    const user = await createUser('new');
    const customer = `cus_${sequence}p`;
    const second = now();
    const event = (type: string, price: string, created: number) =>
      subscriptionEvent(type, { userId: user.id, customer, status: 'active', price, created });
    expect((await deliver(event('customer.subscription.created', config.env.STRIPE_PRICE_STARTER, second - 60))).body.outcome).toBe('applied');
    expect((await deliver(event('customer.subscription.updated', config.env.STRIPE_PRICE_SCALE, second))).body.outcome).toBe('applied');
    expect(await subscriptionOf(user.id)).toMatchObject({ status: 'active', tier: 'scale' });
    // What the dashboard reads: the scale plan's limit.
    const { data } = await anonClient().auth.signInWithPassword({ email: user.email, password: user.password });
    const stats = await fetch(`${config.urls.api}/functions/v1/api/episodes/stats`, { headers: { authorization: `Bearer ${data.session!.access_token}` } });
    expect(await stats.json()).toMatchObject({ subscriptionTier: 'scale', limit: 4 });
    // A late event from before the change does not take the plan back.
    expect((await deliver(event('customer.subscription.updated', config.env.STRIPE_PRICE_STARTER, second - 30))).body.outcome).toBe('stale');
    expect(await subscriptionOf(user.id)).toMatchObject({ tier: 'scale' });
  });

  it('does not let a late event about an older subscription replace the current one', async () => {
    const user = await createUser('new');
    const customer = `cus_${sequence}n`;
    const second = now();
    const event = (type: string, status: string, created: number, subscription: string) =>
      subscriptionEvent(type, { userId: user.id, customer, status, price: config.env.STRIPE_PRICE_GROWTH, created, subscription });
    const oldSub = `sub_test_${customer}_old`;
    const newSub = `sub_test_${customer}_new`;
    expect((await deliver(event('customer.subscription.created', 'active', second - 60, oldSub))).body.outcome).toBe('applied');
    expect((await deliver(event('customer.subscription.updated', 'past_due', second - 50, oldSub))).body.outcome).toBe('applied');
    // A new checkout's subscription replaces the past_due one.
    expect((await deliver(event('customer.subscription.created', 'active', second - 40, newSub))).body.outcome).toBe('applied');
    // Later events about the old one (its retries failing, its end) change nothing.
    expect((await deliver(event('customer.subscription.updated', 'unpaid', second - 20, oldSub))).body.outcome).toBe('stale');
    expect((await deliver(event('customer.subscription.deleted', 'canceled', second, oldSub))).body.outcome).toBe('stale');
    const row = await withDb(async (db) => (await db.query('select status, stripe_subscription_id from public.subscriptions where user_id = $1', [user.id])).rows[0]);
    expect(row).toEqual({ status: 'active', stripe_subscription_id: newSub });
    // The current subscription's own end still applies.
    expect((await deliver(event('customer.subscription.deleted', 'canceled', second + 5, newSub))).body.outcome).toBe('applied');
    expect(await subscriptionOf(user.id)).toMatchObject({ status: 'canceled' });
  });

  // Issue 39, item 9: a date no Stripe object can have was a 500 (an Invalid Date thrown while
  // recording), which Stripe delivers again and again; it is the event's fault: 400 and why.
  it('refuses a signed event with an impossible date with 400 and the reason, recording nothing', async () => {
    const user = await createUser('new');
    const customer = `cus_${sequence}i`;
    const base = subscriptionEvent('customer.subscription.created', { userId: user.id, customer, status: 'active', price: config.env.STRIPE_PRICE_GROWTH, created: now() });
    const farFuture = { ...base, id: `${base.id}_created`, created: 1e15 };
    expect(await deliver(farFuture)).toEqual({ status: 400, body: { message: 'Malformed event: created is not a possible date (1000000000000000)' } });
    const nextWeek = { ...base, id: `${base.id}_week`, created: now() + 7 * 86400 };
    expect((await deliver(nextWeek)).status).toBe(400);
    const beforeStripe = { ...base, id: `${base.id}_1970`, created: 86400 };
    expect((await deliver(beforeStripe)).body).toEqual({ message: 'Malformed event: created is not a possible date (86400)' });
    const badPeriod = structuredClone(base);
    badPeriod.id = `${base.id}_period`;
    badPeriod.data.object.items.data[0].current_period_end = 1e15;
    expect(await deliver(badPeriod)).toEqual({ status: 400, body: { message: 'Malformed event: current_period_end is not a possible date (1000000000000000)' } });
    const recorded = await withDb(
      async (db) => (await db.query('select count(*)::int as n from private.stripe_events where id like $1', [`${base.id}%`])).rows[0].n,
    );
    expect(recorded).toBe(0);
    expect(await subscriptionOf(user.id)).toBeNull();
    // The same event with possible dates is applied.
    expect((await deliver(base)).body.outcome).toBe('applied');
  });

  it('acknowledges an unknown event type with 200', async () => {
    const res = await deliver({ id: `evt_unknown_${now()}`, object: 'event', type: 'customer.tax_id.created', created: now(), data: { object: { id: 'txi_1', object: 'tax_id' } } });
    expect(res).toEqual({ status: 200, body: { received: true, outcome: 'ignored' } });
  });
});
