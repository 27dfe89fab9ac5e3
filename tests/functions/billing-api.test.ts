// Checkout, portal and session recovery through the `api` function against the Stripe sandbox:
// happy paths and every refusal.
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { anonClient, config, withDb } from '../support/stack.ts';
import { createUser, type TestUser } from '../support/users.ts';

const api = (path: string) => `${config.urls.api}/functions/v1/api/${path}`;

async function tokenOf(user: TestUser): Promise<string> {
  const { data, error } = await anonClient().auth.signInWithPassword({ email: user.email, password: user.password });
  if (error) throw error;
  return data.session!.access_token;
}

async function call(method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(api(path), {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** Starts a checkout as `user` and pays it on the sandbox's hosted page. */
async function payForPlan(user: TestUser, tier = 'growth'): Promise<string> {
  const { body } = await call('POST', 'create-checkout-session', await tokenOf(user), { tier });
  const sessionId = new URL(body.checkoutUrl).pathname.split('/').pop()!;
  const paid = await fetch(`${config.urls.sandbox}/checkout/${sessionId}/pay`, { method: 'POST', redirect: 'manual' });
  expect(paid.status).toBe(303);
  expect(paid.headers.get('location')).toBe(`${config.urls.web}/?session_id=${sessionId}`);
  return sessionId;
}

async function subscriptionOf(userId: string) {
  return withDb(async (db) => (await db.query('select status, tier, stripe_customer_id from public.subscriptions where user_id = $1', [userId])).rows[0] ?? null);
}

const sandboxStripe = () =>
  new Stripe(config.env.STRIPE_SECRET_KEY, { host: '127.0.0.1', port: config.ports.sandbox, protocol: 'http', maxNetworkRetries: 0 });

const sessionIdOf = (checkoutUrl: string) => new URL(checkoutUrl).pathname.split('/').pop()!;

/** Pays a checkout session on the sandbox's hosted page; answers the page's status. */
const payOnPage = async (sessionId: string) => (await fetch(`${config.urls.sandbox}/checkout/${sessionId}/pay`, { method: 'POST', redirect: 'manual' })).status;

/** The account's subscriptions that Stripe bills (active), whatever the webhook did. */
async function liveSubscriptionsInStripe(customer: string) {
  return (await sandboxStripe().subscriptions.list({ customer, status: 'active' })).data;
}

describe('POST /api/create-checkout-session', () => {
  it('answers a checkout address on the sandbox and stores one customer per user', async () => {
    const user = await createUser('new');
    const token = await tokenOf(user);
    const first = await call('POST', 'create-checkout-session', token, { tier: 'growth' });
    expect(first.status).toBe(200);
    expect(first.body.checkoutUrl).toMatch(new RegExp(`^${config.urls.sandbox}/checkout/cs_test_`));
    const customer = (await subscriptionOf(user.id)).stripe_customer_id;
    expect(customer).toMatch(/^cus_/);
    const second = await call('POST', 'create-checkout-session', token, { tier: 'scale' });
    expect(second.status).toBe(200);
    expect((await subscriptionOf(user.id)).stripe_customer_id).toBe(customer);
  });

  it('activates the subscription once paid (webhook), with the chosen tier', async () => {
    const user = await createUser('new');
    await payForPlan(user, 'scale');
    await expect.poll(async () => (await subscriptionOf(user.id))?.status, { timeout: 10_000 }).toBe('active');
    expect((await subscriptionOf(user.id)).tier).toBe('scale');
  });

  it('refuses a second checkout for an active subscriber with 409: plan changes go through the portal', async () => {
    const user = await createUser('new');
    await payForPlan(user, 'starter');
    await expect.poll(async () => (await subscriptionOf(user.id))?.status, { timeout: 10_000 }).toBe('active');
    const again = await call('POST', 'create-checkout-session', await tokenOf(user), { tier: 'scale' });
    expect(again).toEqual({ status: 409, body: { message: 'You already have an active subscription. Change your plan from the billing portal.' } });
    expect((await subscriptionOf(user.id)).tier).toBe('starter');
  });

  it('a failed renewal (the invoice names its subscription under parent only) makes it past_due, a paid one active', async () => {
    const user = await createUser('new');
    await payForPlan(user, 'growth');
    await expect.poll(async () => (await subscriptionOf(user.id))?.status, { timeout: 10_000 }).toBe('active');
    const subscriptionId = await withDb(async (db) =>
      (await db.query('select stripe_subscription_id from public.subscriptions where user_id = $1', [user.id])).rows[0].stripe_subscription_id as string,
    );
    const failed = await fetch(`${config.urls.sandbox}/_sandbox/stripe/subscriptions/${subscriptionId}/payment_failed`, { method: 'POST' });
    const { invoice } = (await failed.json()) as { invoice: Record<string, unknown> };
    expect(invoice).not.toHaveProperty('subscription');
    expect(invoice.parent).toMatchObject({ subscription_details: { subscription: subscriptionId } });
    await expect.poll(async () => (await subscriptionOf(user.id))?.status, { timeout: 10_000 }).toBe('past_due');
    await fetch(`${config.urls.sandbox}/_sandbox/stripe/subscriptions/${subscriptionId}/advance`, { method: 'POST' });
    await expect.poll(async () => (await subscriptionOf(user.id))?.status, { timeout: 10_000 }).toBe('active');
  });

  // Stripe does not order events; two of the same second about one subscription cannot be
  // ordered by `created`, so the webhook asks Stripe (the sandbox) for the subscription.
  it('two events of the same second that disagree: the state Stripe has now wins, not the last to arrive', async () => {
    const user = await createUser('new');
    await payForPlan(user, 'growth');
    await expect.poll(async () => (await subscriptionOf(user.id))?.status, { timeout: 10_000 }).toBe('active');
    const { subscriptionId, customer } = await withDb(async (db) => {
      const { rows } = await db.query(
        'select stripe_subscription_id as "subscriptionId", stripe_customer_id as customer from public.subscriptions where user_id = $1',
        [user.id],
      );
      return rows[0] as { subscriptionId: string; customer: string };
    });
    const second = Math.floor(Date.now() / 1000) + 60;
    const deliver = async (id: string, status: string, price = config.env.STRIPE_PRICE_GROWTH) => {
      const payload = JSON.stringify({
        id,
        object: 'event',
        type: 'customer.subscription.updated',
        created: second,
        data: {
          object: {
            id: subscriptionId,
            object: 'subscription',
            customer,
            status,
            metadata: { user_id: user.id },
            items: { object: 'list', data: [{ id: 'si_x', price: { id: price }, current_period_end: second + 86400 }] },
          },
        },
      });
      const header = await new Stripe(config.env.STRIPE_SECRET_KEY).webhooks.generateTestHeaderStringAsync({
        payload,
        secret: config.env.STRIPE_WEBHOOK_SECRET,
      });
      const res = await fetch(`${config.urls.api}/functions/v1/stripe-webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': header },
        body: payload,
      });
      return { status: res.status, body: await res.json() };
    };
    // Stripe has it active; a stale past_due of the same second arrives last.
    expect((await deliver(`evt_same_a_${second}_${user.id}`, 'active')).body.outcome).toBe('applied');
    expect(await deliver(`evt_same_b_${second}_${user.id}`, 'past_due')).toEqual({
      status: 200,
      body: { received: true, outcome: 'resolved' },
    });
    expect(await subscriptionOf(user.id)).toMatchObject({ status: 'active', tier: 'growth' });
    // The same for the plan: a stale starter of that second, arriving last, is settled by Stripe too.
    expect((await deliver(`evt_same_c_${second}_${user.id}`, 'active', config.env.STRIPE_PRICE_STARTER)).body.outcome).toBe('resolved');
    expect(await subscriptionOf(user.id)).toMatchObject({ status: 'active', tier: 'growth' });
  });

  // Issue 39, item 8: two checkouts opened before paying both made two subscriptions.
  it('hands the open checkout out again for the same plan, and expires it when another plan is chosen', async () => {
    const user = await createUser('new');
    const token = await tokenOf(user);
    const first = await call('POST', 'create-checkout-session', token, { tier: 'growth' });
    const again = await call('POST', 'create-checkout-session', token, { tier: 'growth' });
    expect(again).toEqual({ status: 200, body: { checkoutUrl: first.body.checkoutUrl } });
    const other = await call('POST', 'create-checkout-session', token, { tier: 'starter' });
    expect(other.status).toBe(200);
    expect(other.body.checkoutUrl).not.toBe(first.body.checkoutUrl);
    expect((await sandboxStripe().checkout.sessions.retrieve(sessionIdOf(first.body.checkoutUrl))).status).toBe('expired');
    // The first tab cannot pay any more; the second can, once.
    expect(await payOnPage(sessionIdOf(first.body.checkoutUrl))).toBe(409);
    expect(await payOnPage(sessionIdOf(other.body.checkoutUrl))).toBe(303);
    await expect.poll(async () => (await subscriptionOf(user.id))?.tier, { timeout: 10_000 }).toBe('starter');
    expect(await liveSubscriptionsInStripe((await subscriptionOf(user.id)).stripe_customer_id)).toHaveLength(1);
  });

  it('refuses a checkout while Stripe bills a live subscription, also before its webhook has landed', async () => {
    const user = await createUser('new');
    await payForPlan(user, 'starter');
    await expect.poll(async () => (await subscriptionOf(user.id))?.status, { timeout: 10_000 }).toBe('active');
    // The stored row is behind Stripe, as it is until the webhook lands.
    await withDb((db) => db.query('update public.subscriptions set status = null, stripe_subscription_id = null, tier = null, last_stripe_event_at = null where user_id = $1', [user.id]));
    const again = await call('POST', 'create-checkout-session', await tokenOf(user), { tier: 'scale' });
    expect(again).toEqual({ status: 409, body: { message: 'You already have an active subscription. Change your plan from the billing portal.' } });
  });

  it('a second subscription paid beside the first (two checkouts raced) is canceled and refunded; the account keeps the first', async () => {
    const user = await createUser('new');
    const first = await call('POST', 'create-checkout-session', await tokenOf(user), { tier: 'growth' });
    const customer = (await subscriptionOf(user.id)).stripe_customer_id as string;
    // A checkout opened for the same customer at the same moment, which the api's check could not see.
    const raced = await sandboxStripe().checkout.sessions.create({
      mode: 'subscription',
      customer,
      line_items: [{ price: config.env.STRIPE_PRICE_SCALE, quantity: 1 }],
      client_reference_id: user.id,
      metadata: { user_id: user.id, tier: 'scale' },
      subscription_data: { metadata: { user_id: user.id, tier: 'scale' } },
      success_url: `${config.urls.web}/?session_id={CHECKOUT_SESSION_ID}`,
    });
    expect(await payOnPage(sessionIdOf(first.body.checkoutUrl))).toBe(303);
    await expect.poll(async () => (await subscriptionOf(user.id))?.status, { timeout: 10_000 }).toBe('active');
    const kept = await subscriptionIdOf(user.id);
    expect(await payOnPage(raced.id)).toBe(303);

    const second = (await sandboxStripe().checkout.sessions.retrieve(raced.id)).subscription as string;
    await expect.poll(async () => (await sandboxStripe().subscriptions.retrieve(second)).status, { timeout: 10_000 }).toBe('canceled');
    const invoice = (await sandboxStripe().subscriptions.retrieve(second)).latest_invoice as string;
    const [payment] = (await sandboxStripe().invoicePayments.list({ invoice })).data;
    const refunds = (await sandboxStripe().refunds.list({ payment_intent: payment.payment.payment_intent as string })).data;
    expect(refunds.map((r) => ({ amount: r.amount, reason: r.reason, status: r.status }))).toEqual([{ amount: 119900, reason: 'duplicate', status: 'succeeded' }]);
    // The account still has its first subscription, growth.
    expect(await subscriptionOf(user.id)).toMatchObject({ status: 'active', tier: 'growth' });
    expect(await subscriptionIdOf(user.id)).toBe(kept);
    expect((await liveSubscriptionsInStripe(customer)).map((x) => x.id)).toEqual([kept]);
    // Recorded for operators, settled.
    const record = await withDb(
      async (db) =>
        (await db.query('select user_id, kept_subscription_id, refunded_cents, refund_ids, settled_at is not null as settled from private.second_subscriptions where stripe_subscription_id = $1', [second])).rows,
    );
    expect(record).toEqual([{ user_id: user.id, kept_subscription_id: kept, refunded_cents: 119900, refund_ids: [refunds[0].id], settled: true }]);
    // What the webhook answered Stripe for the second checkout's events: nothing changed the account.
    const { data: events } = (await (await fetch(`${config.urls.sandbox}/_sandbox/stripe/events?limit=100`)).json()) as {
      data: Array<{ event: { type: string; data: { object: { id: string } } }; deliveries: Array<{ response: string }> }>;
    };
    const answers = events
      .filter((r) => r.event.data.object.id === second || r.event.data.object.id === raced.id)
      .map((r) => [r.event.type, JSON.parse(r.deliveries.at(-1)!.response).outcome]);
    expect(answers).toEqual(
      expect.arrayContaining([
        ['customer.subscription.created', 'second_subscription'],
        ['checkout.session.completed', 'second_subscription'],
        ['customer.subscription.deleted', 'second_subscription'],
      ]),
    );
  });

  it('a new subscription beside a stored one that Stripe has already ended replaces it, and is not refunded', async () => {
    const user = await createUser('new');
    await payForPlan(user, 'starter');
    await expect.poll(async () => (await subscriptionOf(user.id))?.status, { timeout: 10_000 }).toBe('active');
    const ended = await subscriptionIdOf(user.id);
    const customer = (await subscriptionOf(user.id)).stripe_customer_id as string;
    await sandboxStripe().subscriptions.cancel(ended);
    await expect.poll(async () => (await subscriptionOf(user.id))?.status, { timeout: 10_000 }).toBe('canceled');
    // The stored row is behind Stripe: the end of the old subscription has not been applied yet.
    await withDb((db) => db.query(`update public.subscriptions set status = 'active' where user_id = $1`, [user.id]));
    const next = await sandboxStripe().checkout.sessions.create({
      mode: 'subscription',
      customer,
      line_items: [{ price: config.env.STRIPE_PRICE_GROWTH, quantity: 1 }],
      metadata: { user_id: user.id, tier: 'growth' },
      subscription_data: { metadata: { user_id: user.id, tier: 'growth' } },
      success_url: `${config.urls.web}/?session_id={CHECKOUT_SESSION_ID}`,
    });
    expect(await payOnPage(next.id)).toBe(303);
    const replacing = (await sandboxStripe().checkout.sessions.retrieve(next.id)).subscription as string;
    await expect.poll(async () => subscriptionIdOf(user.id), { timeout: 10_000 }).toBe(replacing);
    expect(await subscriptionOf(user.id)).toMatchObject({ status: 'active', tier: 'growth' });
    expect((await sandboxStripe().subscriptions.retrieve(replacing)).status).toBe('active');
    expect(await withDb(async (db) => (await db.query('select count(*)::int as n from private.second_subscriptions where stripe_customer_id = $1', [customer])).rows[0].n)).toBe(0);
  });

  it('refuses an unknown tier with 400', async () => {
    const user = await createUser('new');
    const res = await call('POST', 'create-checkout-session', await tokenOf(user), { tier: 'platinum' });
    expect(res).toEqual({ status: 400, body: { message: 'Unknown plan: platinum' } });
  });

  it('refuses a missing tier with 400, and a signed-out caller with 401', async () => {
    const user = await createUser('new');
    expect((await call('POST', 'create-checkout-session', await tokenOf(user), {})).status).toBe(400);
    expect(await call('POST', 'create-checkout-session', undefined, { tier: 'growth' })).toEqual({ status: 401, body: { message: 'Unauthorized' } });
  });
});

/** Confirms the plan change on the sandbox's portal page; answers where it sends the browser. */
async function confirmPlanChange(portalUrl: string, subscriptionId: string, price: string): Promise<string | null> {
  const res = await fetch(`${portalUrl}/change`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ subscription: subscriptionId, price }).toString(),
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
  return res.headers.get('location');
}

/** What the subscription's invoices collected, in cents. */
async function paidFor(subscriptionId: string): Promise<number> {
  const invoices = await sandboxStripe().invoices.list({ subscription: subscriptionId, limit: 100 });
  return invoices.data.reduce((sum, invoice) => sum + invoice.amount_paid, 0);
}

async function subscriptionIdOf(userId: string): Promise<string> {
  return withDb(async (db) => (await db.query('select stripe_subscription_id from public.subscriptions where user_id = $1', [userId])).rows[0].stripe_subscription_id as string);
}

describe('POST /api/create-portal-session', () => {
  it('answers the portal address for a customer; the portal offers the plan change', async () => {
    const user = await createUser('new');
    await payForPlan(user);
    const res = await call('POST', 'create-portal-session', await tokenOf(user));
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(new RegExp(`^${config.urls.sandbox}/portal/`));
    await expect.poll(async () => (await subscriptionOf(user.id))?.status, { timeout: 10_000 }).toBe('active');
    const page = await (await fetch(res.body.url)).text();
    expect(page).toContain('>Update plan</a>');
    expect(page).toContain(`<a href="${config.urls.web}/subscribe">Return to Castloop</a>`);
  });

  it('uses one portal configuration for the configured prices, created once', async () => {
    const user = await createUser('new');
    await payForPlan(user);
    const token = await tokenOf(user);
    await Promise.all([call('POST', 'create-portal-session', token), call('POST', 'create-portal-session', token)]);
    const configurations = await sandboxStripe().billingPortal.configurations.list({ limit: 100 });
    const ours = configurations.data.filter((c) => c.metadata?.castloop_plan_prices);
    expect(ours).toHaveLength(1);
    expect(ours[0].metadata).toEqual({
      castloop_plan_prices: `starter:${config.env.STRIPE_PRICE_STARTER},growth:${config.env.STRIPE_PRICE_GROWTH},scale:${config.env.STRIPE_PRICE_SCALE}`,
      castloop_plan_change_rules: 'downgrade-at-period-end,upgrade-starts-period',
    });
    expect(ours[0].features.subscription_update).toMatchObject({
      enabled: true,
      default_allowed_updates: ['price'],
      proration_behavior: 'always_invoice',
      billing_cycle_anchor: 'now',
      schedule_at_period_end: { conditions: [{ type: 'decreasing_item_amount' }] },
    });
    expect(ours[0].features.subscription_update.products?.flatMap((p) => p.prices).sort()).toEqual(
      [config.env.STRIPE_PRICE_STARTER, config.env.STRIPE_PRICE_GROWTH, config.env.STRIPE_PRICE_SCALE].sort(),
    );
  });

  it('refuses a user without a customer with 400', async () => {
    const user = await createUser('new');
    const res = await call('POST', 'create-portal-session', await tokenOf(user));
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/choose a plan/);
  });
});

describe('POST /api/create-plan-change-session', () => {
  it('opens the portal on choosing a plan; the change applies the new tier at once and returns to the dashboard', async () => {
    const user = await createUser('new');
    await payForPlan(user, 'starter');
    await expect.poll(async () => (await subscriptionOf(user.id))?.status, { timeout: 10_000 }).toBe('active');
    const res = await call('POST', 'create-plan-change-session', await tokenOf(user), {});
    expect(res.status).toBe(200);
    const page = await (await fetch(res.body.url)).text();
    expect(page).toContain('<legend>Choose a plan</legend>');
    expect(page).toMatch(/value="price_[^"]*" disabled required> Castloop Starter/);
    const location = await confirmPlanChange(res.body.url, await subscriptionIdOf(user.id), config.env.STRIPE_PRICE_GROWTH);
    expect(location).toBe(`${config.urls.web}/dashboard?plan_changed_from=starter`);
    await expect.poll(async () => (await subscriptionOf(user.id))?.tier, { timeout: 10_000 }).toBe('growth');
    expect((await subscriptionOf(user.id)).status).toBe('active');
  });

  it('opens the portal on confirming a given tier: an upgrade starts today, billed today less the unused time', async () => {
    const user = await createUser('new');
    await payForPlan(user, 'growth');
    await expect.poll(async () => (await subscriptionOf(user.id))?.status, { timeout: 10_000 }).toBe('active');
    const res = await call('POST', 'create-plan-change-session', await tokenOf(user), { tier: 'scale' });
    expect(res.status).toBe(200);
    const page = await (await fetch(res.body.url)).text();
    expect(page).toContain('<h1>Confirm your new plan</h1>');
    expect(page).toContain('to <strong>Castloop Scale</strong>');
    expect(page).toContain('starting <span id="starts-on">today</span>');
    expect(page).toMatch(/<th scope="row">Unused time on Castloop Growth<\/th><td>-\$[\d,]+\.\d\d<\/td>/);
    expect(page).toMatch(/Amount due today: <strong id="prorated-amount">\$[\d,]+\.\d\d<\/strong>/);
    await confirmPlanChange(res.body.url, await subscriptionIdOf(user.id), config.env.STRIPE_PRICE_SCALE);
    await expect.poll(async () => (await subscriptionOf(user.id))?.tier, { timeout: 10_000 }).toBe('scale');
  });

  // Issue 39, item 2: upgrading, submitting and downgrading 1.5 s later netted $0.00 (the two
  // prorations cancelled out). A downgrade now waits for the period's end, so the upgrade is paid.
  it('upgrade, then downgrade 1.5 s later: the higher plan and its allowance stay until the period ends, the upgrade is paid, the renewal is the lower plan', async () => {
    const user = await createUser('new');
    await payForPlan(user, 'starter');
    await expect.poll(async () => (await subscriptionOf(user.id))?.status, { timeout: 10_000 }).toBe('active');
    const subscriptionId = await subscriptionIdOf(user.id);
    const token = await tokenOf(user);

    const up = await call('POST', 'create-plan-change-session', token, { tier: 'scale' });
    await confirmPlanChange(up.body.url, subscriptionId, config.env.STRIPE_PRICE_SCALE);
    await expect.poll(async () => (await subscriptionOf(user.id))?.tier, { timeout: 10_000 }).toBe('scale');
    const paidAfterUpgrade = await paidFor(subscriptionId);
    // The first month of starter, then a new month of scale less starter's unused time.
    expect(paidAfterUpgrade - 19900).toBeGreaterThanOrEqual(119900 - 19900);
    expect(paidAfterUpgrade - 19900).toBeLessThanOrEqual(119900);

    // eslint-disable-next-line test-clock/no-fixed-wait -- time between two of the subscriber's actions is the scenario itself (the report's 1.5 s)
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const down = await call('POST', 'create-plan-change-session', token, { tier: 'starter' });
    expect(down.status).toBe(200);
    const confirm = await (await fetch(down.body.url)).text();
    const periodEnd = (await sandboxStripe().subscriptions.retrieve(subscriptionId)).items.data[0].current_period_end;
    const day = new Date(periodEnd * 1000).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
    expect(confirm).toContain(`starting <span id="starts-on">${day}</span>`);
    expect(confirm).toContain('Nothing to pay today');
    expect(await confirmPlanChange(down.body.url, subscriptionId, config.env.STRIPE_PRICE_STARTER)).toBe(`${config.urls.web}/dashboard?plan_changed_from=scale`);

    // Scheduled: the tier, and so the allowance, stay scale until the period's end.
    await expect
      .poll(async () => withDb(async (db) => (await db.query('select tier, scheduled_tier, scheduled_change_at from public.subscriptions where user_id = $1', [user.id])).rows[0]), { timeout: 10_000 })
      .toEqual({ tier: 'scale', scheduled_tier: 'starter', scheduled_change_at: new Date(periodEnd * 1000) });
    const stats = await call('GET', 'episodes/stats', token);
    expect(stats.body).toMatchObject({ subscriptionTier: 'scale', limit: 4 });
    // Nothing was credited back: what was paid for the upgrade stays paid.
    expect(await paidFor(subscriptionId)).toBe(paidAfterUpgrade);
    expect((await sandboxStripe().invoiceItems.list({ customer: (await subscriptionOf(user.id)).stripe_customer_id, pending: true })).data).toEqual([]);
    // Another change waits until this one is done or canceled.
    expect(await call('POST', 'create-plan-change-session', token, { tier: 'growth' })).toEqual({
      status: 409,
      body: { message: `Your plan already changes to the Starter Done-For-You Service on ${day}. To choose another plan, cancel that change in Manage Billing first.` },
    });

    // The period ends: starter from the renewal on, at starter's price.
    await fetch(`${config.urls.sandbox}/_sandbox/stripe/subscriptions/${subscriptionId}/advance`, { method: 'POST' });
    await expect.poll(async () => (await subscriptionOf(user.id))?.tier, { timeout: 10_000 }).toBe('starter');
    expect(await withDb(async (db) => (await db.query('select scheduled_tier, scheduled_change_at from public.subscriptions where user_id = $1', [user.id])).rows[0])).toEqual({
      scheduled_tier: null,
      scheduled_change_at: null,
    });
    expect(await paidFor(subscriptionId)).toBe(paidAfterUpgrade + 19900);
    expect((await call('GET', 'episodes/stats', token)).body).toMatchObject({ subscriptionTier: 'starter', limit: 1 });
  });

  it('a scheduled downgrade can be canceled in the portal: the plan stays and nothing is scheduled', async () => {
    const user = await createUser('new');
    await payForPlan(user, 'growth');
    await expect.poll(async () => (await subscriptionOf(user.id))?.status, { timeout: 10_000 }).toBe('active');
    const subscriptionId = await subscriptionIdOf(user.id);
    const token = await tokenOf(user);
    const down = await call('POST', 'create-plan-change-session', token, { tier: 'starter' });
    await confirmPlanChange(down.body.url, subscriptionId, config.env.STRIPE_PRICE_STARTER);
    await expect.poll(async () => (await withDb(async (db) => (await db.query('select scheduled_tier from public.subscriptions where user_id = $1', [user.id])).rows[0])).scheduled_tier, { timeout: 10_000 }).toBe('starter');
    const portal = await call('POST', 'create-portal-session', token);
    const home = await (await fetch(portal.body.url)).text();
    expect(home).toMatch(/changes to Castloop Starter on \d{1,2} \w+ \d{4}/);
    const kept = await fetch(`${portal.body.url}/keep`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ subscription: subscriptionId }).toString(),
      redirect: 'manual',
    });
    expect(kept.status).toBe(303);
    await expect.poll(async () => (await withDb(async (db) => (await db.query('select tier, scheduled_tier from public.subscriptions where user_id = $1', [user.id])).rows[0])), { timeout: 10_000 }).toEqual({ tier: 'growth', scheduled_tier: null });
    // The renewal (its events delivered when the helper answers) keeps growth.
    await fetch(`${config.urls.sandbox}/_sandbox/stripe/subscriptions/${subscriptionId}/advance`, { method: 'POST' });
    expect(await subscriptionOf(user.id)).toMatchObject({ status: 'active', tier: 'growth' });
    expect(await paidFor(subscriptionId)).toBe(2 * 49900);
  });

  it('refuses the current tier, an unknown tier, no active subscription and a signed-out caller', async () => {
    const user = await createUser('new');
    await payForPlan(user, 'starter');
    await expect.poll(async () => (await subscriptionOf(user.id))?.status, { timeout: 10_000 }).toBe('active');
    const token = await tokenOf(user);
    expect(await call('POST', 'create-plan-change-session', token, { tier: 'starter' })).toEqual({ status: 409, body: { message: 'You are already on the starter plan' } });
    expect(await call('POST', 'create-plan-change-session', token, { tier: 'platinum' })).toEqual({ status: 400, body: { message: 'Unknown plan: platinum' } });
    const newcomer = await createUser('new');
    expect(await call('POST', 'create-plan-change-session', await tokenOf(newcomer), {})).toEqual({
      status: 409,
      body: { message: 'There is no active subscription to change: choose a plan first' },
    });
    expect(await call('POST', 'create-plan-change-session', undefined, {})).toEqual({ status: 401, body: { message: 'Unauthorized' } });
  });
});

describe('POST /api/auth/recover-session', () => {
  const recover = (email: string, sessionId?: string, headers: Record<string, string> = {}) =>
    fetch(api('auth/recover-session'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ email, ...(sessionId ? { session_id: sessionId } : {}) }),
    });

  it('gives a session for a paid, recent checkout with the matching e-mail, once', async () => {
    const user = await createUser('new');
    const sessionId = await payForPlan(user);
    const res = await recover(user.email.toUpperCase(), sessionId);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.user.email).toBe(user.email);
    const { data } = await anonClient().auth.getUser(body.session.access_token);
    expect(data.user?.id).toBe(user.id);
    expect(res.headers.getSetCookie().some((cookie) => cookie.startsWith('sb-access-token='))).toBe(true);

    const again = await recover(user.email, sessionId);
    expect(again.status).toBe(401);
  });

  it('is used up by a signed-out return without the e-mail (204, no session)', async () => {
    const user = await createUser('new');
    const sessionId = await payForPlan(user);
    const claimed = await fetch(api('auth/recover-session'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ session_id: sessionId }),
    });
    expect(claimed.status).toBe(204);
    expect(claimed.headers.getSetCookie()).toEqual([]);
    expect((await recover(user.email, sessionId)).status).toBe(401);
  });

  it('refuses an e-mail alone', async () => {
    const user = await createUser('new');
    const res = await recover(user.email);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'Session could not be recovered' });
  });

  it("refuses someone else's checkout session", async () => {
    const owner = await createUser('new');
    const stranger = await createUser('new');
    const sessionId = await payForPlan(owner);
    expect((await recover(stranger.email, sessionId)).status).toBe(401);
  });

  it('refuses an unpaid checkout session', async () => {
    const user = await createUser('new');
    const { body } = await call('POST', 'create-checkout-session', await tokenOf(user), { tier: 'growth' });
    const sessionId = new URL(body.checkoutUrl).pathname.split('/').pop()!;
    expect((await recover(user.email, sessionId)).status).toBe(401);
  });

  it('refuses an unknown or malformed session id', async () => {
    const user = await createUser('new');
    expect((await recover(user.email, 'cs_test_doesnotexist')).status).toBe(401);
    expect((await recover(user.email, '../../etc/passwd')).status).toBe(401);
  });

  // Login CSRF (issue 23, item 14): a link on another site must not sign the browser in.
  it('is not a GET: a cross-site navigation sets no session cookie', async () => {
    const user = await createUser('new');
    const sessionId = await payForPlan(user);
    const query = new URLSearchParams({ email: user.email, session_id: sessionId });
    const navigation = await fetch(api(`auth/recover-session?${query}`), { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' } });
    // The spec's GET names the request to send instead (issue 39, item 10).
    expect(navigation.status).toBe(405);
    expect(navigation.headers.get('allow')).toBe('POST');
    expect(await navigation.json()).toEqual({
      message: 'Use POST /api/auth/recover-session with a JSON body {"email", "session_id"} (the checkout session id).',
    });
    expect(navigation.headers.getSetCookie()).toEqual([]);
    // Nor a form another site posts: its Origin is refused before anything is read.
    const posted = await recover(user.email, sessionId, { origin: 'https://evil.example' });
    expect(posted.status).toBe(403);
    expect(posted.headers.getSetCookie()).toEqual([]);
    // The checkout session is still the person's own to use.
    expect((await recover(user.email, sessionId)).status).toBe(200);
  });

  // Issue 23, item 13: the checkout session id must not stay a login.
  it('is used up by a signed-in return: the id no longer recovers a session afterwards', async () => {
    const user = await createUser('new');
    const sessionId = await payForPlan(user);
    const claimed = await fetch(api('auth/recover-session'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await tokenOf(user)}` },
      body: JSON.stringify({ session_id: sessionId }),
    });
    expect(claimed.status).toBe(204);
    expect(claimed.headers.getSetCookie()).toEqual([]);
    const later = await recover(user.email, sessionId);
    expect(later.status).toBe(401);
    expect(later.headers.getSetCookie()).toEqual([]);
  });

  it("refuses a signed-in claim of another account's checkout session, which stays its owner's", async () => {
    const owner = await createUser('new');
    const stranger = await createUser('new');
    const sessionId = await payForPlan(owner);
    const res = await fetch(api('auth/recover-session'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await tokenOf(stranger)}` },
      body: JSON.stringify({ session_id: sessionId }),
    });
    expect(res.status).toBe(401);
    expect((await recover(owner.email, sessionId)).status).toBe(200);
  });

  it('refuses once the password changed after the checkout', async () => {
    const user = await createUser('new');
    const sessionId = await payForPlan(user);
    const client = anonClient();
    await client.auth.signInWithPassword({ email: user.email, password: user.password });
    const { error } = await client.auth.updateUser({ password: 'a-brand-new-password' });
    expect(error).toBeNull();
    const res = await recover(user.email, sessionId);
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('refuses once the account signed out everywhere after the checkout', async () => {
    const user = await createUser('new');
    const sessionId = await payForPlan(user);
    const client = anonClient();
    await client.auth.signInWithPassword({ email: user.email, password: user.password });
    const { error } = await client.auth.signOut({ scope: 'global' });
    expect(error).toBeNull();
    const res = await recover(user.email, sessionId);
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie()).toEqual([]);
  });
});
