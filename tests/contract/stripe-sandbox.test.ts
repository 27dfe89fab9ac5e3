// The Stripe sandbox (local/sandbox/stripe), driven by the unmodified `stripe` SDK as
// Castloop's functions use it. Its own sandbox on port base 26000, no stack needed.
import { rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, type StackConfig } from '../../local/config.ts';
import { type RunningSandbox, startSandbox } from '../../local/sandbox/index.ts';
import { eventTypeName, type Sample, stripeTypeErrors } from './stripe-types.ts';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  event: {
    id: string;
    type: string;
    data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
  };
}

const received: Received[] = [];
/** The object of the one received event of `type`. */
const objectOf = (type: string) => {
  const found = received.filter((r) => r.event.type === type);
  expect(found, type).toHaveLength(1);
  return found[0].event.data.object;
};
/** What checkout with an existing customer sends, in order (Stripe's usual order). */
const checkoutEvents = [
  'customer.subscription.created',
  'invoice.created',
  'invoice.finalized',
  'invoice.paid',
  'invoice.payment_succeeded',
  'checkout.session.completed',
];
let receiverStatus = 200;
let receiver: Server;
let sandbox: RunningSandbox;
let config: StackConfig;
let stripe: Stripe;
let base: string;
const secret = 'whsec_castloop_local';

function sdk(key = 'sk_test_castloop_local'): Stripe {
  return new Stripe(key, { host: '127.0.0.1', port: config.ports.sandbox, protocol: 'http', maxNetworkRetries: 0 });
}

async function startReceiver(): Promise<string> {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (receiverStatus === 200)
        received.push({ headers: req.headers, body, event: JSON.parse(body) as Received['event'] });
      res.writeHead(receiverStatus, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ received: receiverStatus === 200 }));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/functions/v1/stripe-webhook`;
}

function makeConfig(webhookUrl: string, retrySeconds = ''): StackConfig {
  return loadConfig('test', {
    CASTLOOP_TEST_PORT_BASE: '26000',
    CASTLOOP_DATA_DIR: '.local-data/h-sandbox',
    STRIPE_WEBHOOK_URL: webhookUrl,
    STRIPE_SECRET_KEY: 'sk_test_castloop_local',
    STRIPE_WEBHOOK_SECRET: secret,
    STRIPE_PRICE_STARTER: 'price_local_starter',
    STRIPE_PRICE_GROWTH: 'price_local_growth',
    STRIPE_PRICE_SCALE: 'price_local_scale',
    STRIPE_SANDBOX_RETRY_SECONDS: retrySeconds,
  });
}

beforeAll(async () => {
  const webhookUrl = await startReceiver();
  config = makeConfig(webhookUrl);
  await rm(path.join(config.dataDir, 'sandbox'), { recursive: true, force: true });
  sandbox = await startSandbox(config);
  base = config.urls.sandbox;
  stripe = sdk();
});

afterAll(async () => {
  await sandbox?.stop();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

beforeEach(() => {
  received.length = 0;
  receiverStatus = 200;
});

async function checkout(email: string, price = 'price_local_growth') {
  const customer = await stripe.customers.create({ email, metadata: { user_id: 'user-1' } });
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer: customer.id,
    line_items: [{ price, quantity: 1 }],
    success_url: 'http://127.0.0.1:3000/billing/success?session_id={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://127.0.0.1:3000/plans',
    metadata: { user_id: 'user-1', tier: 'growth' },
    subscription_data: { metadata: { user_id: 'user-1' } },
  });
  return { customer, session };
}

async function pay(sessionId: string, form = ''): Promise<Response> {
  return fetch(`${base}/checkout/${sessionId}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
    redirect: 'manual',
  });
}

describe('Stripe sandbox through the stripe SDK', () => {
  it('takes a one-time price in payment mode: the hosted page charges it once and sends checkout.session.completed', async () => {
    const customer = await stripe.customers.create({ email: 'once@example.com' });
    const extra = await stripe.prices.retrieve('price_local_extra_episode');
    expect(extra).toMatchObject({ type: 'one_time', recurring: null, unit_amount: 29900 });
    await expect(
      stripe.checkout.sessions.create({ mode: 'payment', customer: customer.id, line_items: [{ price: 'price_local_growth', quantity: 1 }], success_url: 'http://127.0.0.1:3000/ok' }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'line_items[0][price]', message: expect.stringContaining('passed a recurring price') });
    await expect(
      stripe.checkout.sessions.create({ mode: 'subscription', customer: customer.id, line_items: [{ price: extra.id, quantity: 1 }], success_url: 'http://127.0.0.1:3000/ok' }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'line_items[0][price]', message: expect.stringContaining('recurring price in `subscription` mode') });
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      customer: customer.id,
      line_items: [{ price: extra.id, quantity: 1 }],
      metadata: { user_id: 'user-1', purpose: 'extra_episode' },
      success_url: 'http://127.0.0.1:3000/dashboard?extra_episode=purchased',
    });
    expect(session).toMatchObject({ mode: 'payment', status: 'open', payment_status: 'unpaid', amount_total: 29900, payment_intent: null });
    const page = await (await fetch(`${base}/checkout/${session.id}`)).text();
    expect(page).toContain('Pay Castloop');
    expect(page).not.toContain('per month');
    const paid = await pay(session.id);
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe('http://127.0.0.1:3000/dashboard?extra_episode=purchased');
    const done = await stripe.checkout.sessions.retrieve(session.id);
    expect(done).toMatchObject({ status: 'complete', payment_status: 'paid', subscription: null, invoice: null });
    expect(done.payment_intent).toMatch(/^pi_/);
    const about = received.filter((r) => r.event.data.object.id === session.id);
    expect(about.map((r) => r.event.type)).toEqual(['checkout.session.completed']);
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toEqual([]);
  });

  it('runs checkout end to end: session, hosted page, Pay, signed webhooks, redirect', async () => {
    const { customer, session } = await checkout('payer@example.com');
    expect(customer).toMatchObject({
      object: 'customer',
      email: 'payer@example.com',
      livemode: false,
      metadata: { user_id: 'user-1' },
    });
    expect(customer.id).toMatch(/^cus_/);
    expect(session.id).toMatch(/^cs_test_/);
    expect(session).toMatchObject({
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      customer: customer.id,
      amount_total: 49900,
      currency: 'usd',
    });
    expect(session.url).toBe(`${base}/checkout/${session.id}`);
    expect(typeof session.created).toBe('number');
    expect(session.created).toBeGreaterThan(1_700_000_000);

    const again = await stripe.checkout.sessions.retrieve(session.id, { expand: ['line_items'] });
    expect(again.line_items?.data[0]).toMatchObject({
      object: 'item',
      quantity: 1,
      amount_total: 49900,
      price: { id: 'price_local_growth', unit_amount: 49900, currency: 'usd', recurring: { interval: 'month' } },
    });

    const page = await fetch(session.url as string);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<button type="submit">Pay</button>');
    expect(html).toMatch(/<a href="http:\/\/127\.0\.0\.1:3000\/plans">Cancel<\/a>/);
    expect(html).toContain('payer@example.com');
    expect(html).toContain('$499.00');
    expect(html).toContain('<html lang="en">');

    const res = await pay(session.id);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`http://127.0.0.1:3000/billing/success?session_id=${session.id}`);

    expect(received.map((r) => r.event.type)).toEqual(['customer.created', ...checkoutEvents]);
    for (const r of received) {
      const signature = r.headers['stripe-signature'] as string;
      expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(r.headers['content-type']).toContain('application/json');
      const event = await stripe.webhooks.constructEventAsync(r.body, signature, secret);
      expect(event.id).toMatch(/^evt_/);
      expect(event).toMatchObject({ object: 'event', livemode: false, type: r.event.type });
      await expect(
        stripe.webhooks.constructEventAsync(r.body.replace('"livemode": false', '"livemode": true'), signature, secret),
      ).rejects.toThrow();
      await expect(stripe.webhooks.constructEventAsync(r.body, signature, 'whsec_wrong')).rejects.toThrow();
    }

    const completed = objectOf('checkout.session.completed');
    expect(completed).toMatchObject({
      id: session.id,
      object: 'checkout.session',
      status: 'complete',
      payment_status: 'paid',
      customer: customer.id,
      customer_details: { email: 'payer@example.com' },
      metadata: { user_id: 'user-1', tier: 'growth' },
    });
    const subscriptionId = completed.subscription as string;
    expect(subscriptionId).toMatch(/^sub_/);

    const created = objectOf('customer.subscription.created') as unknown as Stripe.Subscription;
    expect(created).toMatchObject({
      id: subscriptionId,
      object: 'subscription',
      status: 'active',
      customer: customer.id,
      metadata: { user_id: 'user-1' },
      cancel_at_period_end: false,
    });
    expect(created.items.data[0].price).toMatchObject({
      id: 'price_local_growth',
      object: 'price',
      unit_amount: 49900,
    });
    // API 2026-10-28: the period is the item's only.
    expect(created).not.toHaveProperty('current_period_end');
    expect(created).not.toHaveProperty('current_period_start');
    expect(created.items.data[0].current_period_end).toBeGreaterThan(created.created + 27 * 86400);
    expect(created.latest_invoice).toMatch(/^in_/);

    const invoice = objectOf('invoice.paid');
    expect(invoice).toMatchObject({
      object: 'invoice',
      status: 'paid',
      customer: customer.id,
      amount_paid: 49900,
      billing_reason: 'subscription_create',
      parent: { subscription_details: { subscription: subscriptionId } },
    });
    // Removed in this API version: the subscription is named under parent only, and `paid` is gone.
    expect(invoice).not.toHaveProperty('subscription');
    expect(invoice).not.toHaveProperty('paid');
    expect(invoice.id).toMatch(/^in_/);
    expect(objectOf('invoice.created')).toMatchObject({ id: invoice.id, status: 'draft' });
    expect(objectOf('invoice.finalized')).toMatchObject({ id: invoice.id, status: 'open' });
    expect(objectOf('invoice.payment_succeeded')).toMatchObject({ id: invoice.id, status: 'paid' });

    const sub = await stripe.subscriptions.retrieve(subscriptionId);
    expect(sub).toMatchObject({
      id: subscriptionId,
      status: 'active',
      customer: customer.id,
      latest_invoice: invoice.id,
    });

    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription', 'line_items'] });
    expect(done.status).toBe('complete');
    expect(done.payment_status).toBe('paid');
    expect(done.url).toBeNull();
    expect((done.subscription as Stripe.Subscription).id).toBe(subscriptionId);
    expect((done.subscription as Stripe.Subscription).items.data[0].price.id).toBe('price_local_growth');
    expect(done.line_items?.data).toHaveLength(1);

    // A second Pay is refused; the page says so.
    const second = await pay(session.id);
    expect(second.status).toBe(409);
  });

  it('creates the customer from the e-mail typed on the checkout page', async () => {
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: 'price_local_starter', quantity: 1 }],
      success_url: 'http://127.0.0.1:3000/ok/{CHECKOUT_SESSION_ID}',
    });
    expect(session.customer).toBeNull();
    const html = await (await fetch(session.url as string)).text();
    expect(html).toMatch(/<label for="email">Email<\/label>/);
    expect(html).not.toContain('>Cancel</a>');
    expect((await pay(session.id, 'email=')).status).toBe(400);
    const res = await pay(session.id, 'email=new.buyer%40example.com');
    expect(res.headers.get('location')).toBe(`http://127.0.0.1:3000/ok/${session.id}`);
    const done = await stripe.checkout.sessions.retrieve(session.id);
    expect(done.customer).toMatch(/^cus_/);
    expect(done.customer_details?.email).toBe('new.buyer@example.com');
    const list = await stripe.customers.list({ email: 'new.buyer@example.com', limit: 1 });
    expect(list.data.map((c) => c.id)).toEqual([done.customer]);
  });

  it('cancels through the billing portal: at period end, renew, then immediately', async () => {
    const { customer, session } = await checkout('portal@example.com', 'price_local_starter');
    await pay(session.id);
    const subscriptionId = (await stripe.checkout.sessions.retrieve(session.id)).subscription as string;
    received.length = 0;

    const portal = await stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: 'http://127.0.0.1:3000/billing',
    });
    expect(portal.id).toMatch(/^bps_/);
    expect(portal).toMatchObject({
      object: 'billing_portal.session',
      customer: customer.id,
      return_url: 'http://127.0.0.1:3000/billing',
      livemode: false,
    });
    expect(portal.url).toBe(`${base}/portal/${portal.id}`);

    const html = await (await fetch(portal.url)).text();
    expect(html).toContain('portal@example.com');
    expect(html).toContain('$199.00');
    expect(html).toContain('<a href="http://127.0.0.1:3000/billing">Return to Castloop</a>');
    expect(html).toContain('>Cancel subscription</button>');

    const post = (action: string, body: string) =>
      fetch(`${base}/portal/${portal.id}/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
        redirect: 'manual',
      });

    const scheduled = await post('cancel', `subscription=${subscriptionId}&when=period_end`);
    expect(scheduled.status).toBe(303);
    expect(scheduled.headers.get('location')).toBe(`/portal/${portal.id}?notice=scheduled`);
    expect(received.map((r) => r.event.type)).toEqual(['customer.subscription.updated']);
    expect(received[0].event.data.object).toMatchObject({
      id: subscriptionId,
      cancel_at_period_end: true,
      status: 'active',
    });
    expect(received[0].event.data.previous_attributes).toMatchObject({ cancel_at_period_end: false });
    expect((await stripe.subscriptions.retrieve(subscriptionId)).cancel_at_period_end).toBe(true);

    await post('renew', `subscription=${subscriptionId}`);
    expect(received.at(-1)?.event.data.object).toMatchObject({ cancel_at_period_end: false });

    received.length = 0;
    const now = await post('cancel', `subscription=${subscriptionId}&when=now`);
    expect(now.headers.get('location')).toBe(`/portal/${portal.id}?notice=canceled`);
    expect(received.map((r) => r.event.type)).toEqual([
      'customer.subscription.updated',
      'customer.subscription.deleted',
    ]);
    expect(received[0].event.data.object).toMatchObject({ id: subscriptionId, status: 'canceled' });
    expect(received[1].event.data.object).toMatchObject({ id: subscriptionId, status: 'canceled' });
    for (const r of received)
      await stripe.webhooks.constructEventAsync(r.body, r.headers['stripe-signature'] as string, secret);
    expect((await stripe.subscriptions.retrieve(subscriptionId)).status).toBe('canceled');
    const after = await (await fetch(`${portal.url}?notice=canceled`)).text();
    expect(after).toContain('Your subscription has been canceled.');
  });

  /** A portal configuration that lets customers move between the three prices, prorating. */
  const planChangeConfiguration = (proration_behavior: 'create_prorations' | 'always_invoice' = 'create_prorations') =>
    stripe.billingPortal.configurations.create({
      features: {
        subscription_cancel: { enabled: true, mode: 'at_period_end' },
        subscription_update: {
          enabled: true,
          default_allowed_updates: ['price'],
          proration_behavior,
          products: ['starter', 'growth', 'scale'].map((tier) => ({
            product: `prod_castloop_${tier}`,
            prices: [`price_local_${tier}`],
          })),
        },
      },
      metadata: { purpose: 'plan-changes' },
    });

  /** Stripe's proration of a price change at `at`: the old price's unused share (negative) and the new price's remaining share. */
  function expectedProration(item: Stripe.SubscriptionItem, from: number, to: number, at: number) {
    const share = (item.current_period_end - at) / (item.current_period_end - item.current_period_start);
    return { unused: -Math.round(from * share), remaining: Math.round(to * share) };
  }

  it('portal configurations: create, retrieve, list, update; the default one offers no plan change', async () => {
    const config = await planChangeConfiguration();
    expect(config.id).toMatch(/^bpc_/);
    expect(config).toMatchObject({
      object: 'billing_portal.configuration',
      active: true,
      is_default: false,
      metadata: { purpose: 'plan-changes' },
      features: {
        subscription_update: {
          enabled: true,
          default_allowed_updates: ['price'],
          proration_behavior: 'create_prorations',
          products: [
            { product: 'prod_castloop_starter', prices: ['price_local_starter'] },
            { product: 'prod_castloop_growth', prices: ['price_local_growth'] },
            { product: 'prod_castloop_scale', prices: ['price_local_scale'] },
          ],
        },
      },
    });
    expect(await stripe.billingPortal.configurations.retrieve(config.id)).toMatchObject({ id: config.id });
    const listed = await stripe.billingPortal.configurations.list({ is_default: true });
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0].features.subscription_update).toMatchObject({ enabled: false, proration_behavior: 'none' });
    const renamed = await stripe.billingPortal.configurations.update(config.id, { metadata: { version: '2' } });
    expect(renamed.metadata).toEqual({ purpose: 'plan-changes', version: '2' });

    await expect(
      stripe.billingPortal.configurations.create({
        features: { subscription_update: { enabled: true, default_allowed_updates: ['price'], products: [{ product: 'prod_nope', prices: ['price_local_growth'] }] } },
      }),
    ).rejects.toMatchObject({ statusCode: 400, code: 'resource_missing', message: "No such product: 'prod_nope'" });
    await expect(
      stripe.billingPortal.configurations.create({
        features: { subscription_update: { enabled: true, default_allowed_updates: ['price'], products: [{ product: 'prod_castloop_growth', prices: ['price_local_scale'] }] } },
      }),
    ).rejects.toMatchObject({ statusCode: 400, message: 'The price price_local_scale does not belong to the product prod_castloop_growth.' });
    await expect(stripe.billingPortal.sessions.create({ customer: (await stripe.customers.create({ email: 'c@example.com' })).id, configuration: 'bpc_missing' })).rejects.toMatchObject({
      statusCode: 400,
      code: 'resource_missing',
      param: 'configuration',
    });
  });

  it('changes plan in the portal: choose, see the proration, confirm; prorations go on the next invoice', async () => {
    const { customer, session } = await checkout('upgrade@example.com', 'price_local_starter');
    await pay(session.id);
    const subscriptionId = (await stripe.checkout.sessions.retrieve(session.id)).subscription as string;
    const before = await stripe.subscriptions.retrieve(subscriptionId);
    const config = await planChangeConfiguration();

    // The account's default configuration offers cancelling only.
    const plain = await stripe.billingPortal.sessions.create({ customer: customer.id });
    expect(plain.configuration).toBe('bpc_castloop_local');
    expect(await (await fetch(plain.url)).text()).not.toContain('Update plan');
    expect((await fetch(`${base}/portal/${plain.id}/update?subscription=${subscriptionId}`)).status).toBe(409);

    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, configuration: config.id, return_url: 'http://127.0.0.1:3000/subscribe' });
    expect(portal.configuration).toBe(config.id);
    const home = await (await fetch(portal.url)).text();
    const updateHref = `/portal/${portal.id}/update?subscription=${subscriptionId}`;
    expect(home).toContain(`<a href="${updateHref}">Update plan</a>`);

    // Choose: a labelled radio per configured price, the current one disabled.
    const choose = await (await fetch(`${base}${updateHref}`)).text();
    expect(choose).toContain('<legend>Choose a plan</legend>');
    expect(choose).toMatch(/<label class="choice" for="price-price_local_growth"><input type="radio" id="price-price_local_growth" name="price" value="price_local_growth" required> Castloop Growth: <strong>\$499.00 \/ month<\/strong><\/label>/);
    expect(choose).toMatch(/value="price_local_starter" disabled required> Castloop Starter: .*\(current plan\)/);
    expect((await fetch(`${base}/portal/${portal.id}/confirm?subscription=${subscriptionId}&price=price_local_starter`)).status).toBe(400);

    // Confirm: the proration of the rest of the period, added to the next invoice.
    const confirmAt = Math.floor(Date.now() / 1000);
    const confirm = await (await fetch(`${base}/portal/${portal.id}/confirm?subscription=${subscriptionId}&price=price_local_growth`)).text();
    const shown = expectedProration(before.items.data[0], 19900, 49900, confirmAt);
    const dollars = (cents: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);
    expect(confirm).toContain('<h1>Confirm your new plan</h1>');
    expect(confirm).toContain(`<th scope="row">Unused time on Castloop Starter</th><td>${dollars(shown.unused)}</td>`);
    expect(confirm).toContain(`<th scope="row">Remaining time on Castloop Growth</th><td>${dollars(shown.remaining)}</td>`);
    expect(confirm).toContain(`<strong id="prorated-amount">${dollars(shown.unused + shown.remaining)}</strong>`);
    expect(confirm).toContain(`<strong id="next-invoice">${dollars(shown.unused + shown.remaining + 49900)}</strong>`);
    expect(confirm).toContain('<button type="submit">Confirm</button>');

    received.length = 0;
    const changed = await fetch(`${base}/portal/${portal.id}/change`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `subscription=${subscriptionId}&price=price_local_growth`,
      redirect: 'manual',
    });
    expect(changed.status).toBe(303);
    expect(changed.headers.get('location')).toBe(`/portal/${portal.id}?notice=updated`);
    expect(received.map((r) => r.event.type)).toEqual(['invoiceitem.created', 'invoiceitem.created', 'customer.subscription.updated']);
    for (const r of received) await stripe.webhooks.constructEventAsync(r.body, r.headers['stripe-signature'] as string, secret);

    const updated = received[2].event;
    const after = updated.data.object as unknown as Stripe.Subscription;
    expect(after.items.data[0]).toMatchObject({ id: before.items.data[0].id, price: { id: 'price_local_growth', unit_amount: 49900 } });
    expect(after.items.data[0].current_period_end).toBe(before.items.data[0].current_period_end);
    const previous = updated.data.previous_attributes as { items: Stripe.ApiList<Stripe.SubscriptionItem> };
    expect(previous.items.data[0].price.id).toBe('price_local_starter');

    const [credit, charge] = received.slice(0, 2).map((r) => r.event.data.object as unknown as Stripe.InvoiceItem);
    const applied = expectedProration(before.items.data[0], 19900, 49900, credit.date);
    expect(credit).toMatchObject({
      object: 'invoiceitem',
      amount: applied.unused,
      proration: true,
      invoice: null,
      customer: customer.id,
      parent: { subscription_details: { subscription: subscriptionId, subscription_item: before.items.data[0].id } },
      pricing: { price_details: { price: 'price_local_starter' } },
      period: { start: credit.date, end: before.items.data[0].current_period_end },
    });
    expect(credit.description).toMatch(/^Unused time on Castloop Starter after \d{1,2} \w{3} \d{4}$/);
    expect(charge).toMatchObject({ amount: applied.remaining, proration: true, invoice: null, pricing: { price_details: { price: 'price_local_growth' } } });
    expect(charge.description).toMatch(/^Remaining time on Castloop Growth after /);
    const pending = await stripe.invoiceItems.list({ customer: customer.id, pending: true });
    expect(pending.data.map((i) => i.id).sort()).toEqual([credit.id, charge.id].sort());
    expect((await stripe.subscriptions.retrieve(subscriptionId)).items.data[0].price.id).toBe('price_local_growth');
    expect(await (await fetch(`${portal.url}?notice=updated`)).text()).toContain('Your plan has been updated.');

    // The next invoice takes the prorations with the new price's period.
    received.length = 0;
    await fetch(`${base}/_sandbox/stripe/subscriptions/${subscriptionId}/advance`, { method: 'POST' });
    const renewal = objectOf('invoice.paid') as unknown as Stripe.Invoice;
    expect(renewal.lines.data.map((l) => l.amount)).toEqual([applied.unused, applied.remaining, 49900]);
    expect(renewal.amount_paid).toBe(applied.unused + applied.remaining + 49900);
    expect((await stripe.invoiceItems.list({ customer: customer.id, pending: true })).data).toEqual([]);
    expect((await stripe.invoiceItems.retrieve(credit.id)).invoice).toBe(renewal.id);

    // A subscription set to cancel offers no plan change.
    await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
    expect(await (await fetch(portal.url)).text()).not.toContain('Update plan');
    expect((await fetch(`${base}${updateHref}`)).status).toBe(409);
  });

  it('a subscription_update_confirm flow opens on the chosen price and redirects after completion', async () => {
    const { customer, session } = await checkout('flow@example.com', 'price_local_growth');
    await pay(session.id);
    const sub = await stripe.subscriptions.retrieve((await stripe.checkout.sessions.retrieve(session.id)).subscription as string);
    const config = await planChangeConfiguration('always_invoice');
    const portal = await stripe.billingPortal.sessions.create({
      customer: customer.id,
      configuration: config.id,
      return_url: 'http://127.0.0.1:3000/subscribe',
      flow_data: {
        type: 'subscription_update_confirm',
        subscription_update_confirm: { subscription: sub.id, items: [{ id: sub.items.data[0].id, price: 'price_local_scale' }] },
        after_completion: { type: 'redirect', redirect: { return_url: 'http://127.0.0.1:3000/dashboard?plan=changed' } },
      },
    });
    expect(portal.flow).toMatchObject({
      type: 'subscription_update_confirm',
      after_completion: { type: 'redirect', redirect: { return_url: 'http://127.0.0.1:3000/dashboard?plan=changed' } },
      subscription_update_confirm: { subscription: sub.id, items: [{ id: sub.items.data[0].id, price: 'price_local_scale' }] },
    });
    const page = await (await fetch(portal.url)).text();
    expect(page).toContain('<h1>Confirm your new plan</h1>');
    expect(page).toContain('Amount due today:');
    // The flow's pages lead back to the portal's home.
    expect(await (await fetch(`${portal.url}?home=1`)).text()).toContain('<h1>Manage your Castloop billing</h1>');

    received.length = 0;
    const changed = await fetch(`${base}/portal/${portal.id}/change`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `subscription=${sub.id}&price=price_local_scale`,
      redirect: 'manual',
    });
    expect(changed.headers.get('location')).toBe('http://127.0.0.1:3000/dashboard?plan=changed');
    // always_invoice: the prorations are invoiced and paid at once.
    expect(received.map((r) => r.event.type)).toEqual([
      'invoiceitem.created',
      'invoiceitem.created',
      'invoice.created',
      'invoice.finalized',
      'invoice.paid',
      'invoice.payment_succeeded',
      'customer.subscription.updated',
    ]);
    const invoice = objectOf('invoice.paid') as unknown as Stripe.Invoice;
    const items = received.slice(0, 2).map((r) => r.event.data.object as unknown as Stripe.InvoiceItem);
    expect(invoice).toMatchObject({ billing_reason: 'subscription_update', amount_paid: items[0].amount + items[1].amount });
    expect(invoice.lines.data).toHaveLength(2);
    expect(objectOf('customer.subscription.updated')).toMatchObject({ latest_invoice: invoice.id });

    // A flow needs a configuration that allows plan changes.
    await expect(
      stripe.billingPortal.sessions.create({ customer: customer.id, flow_data: { type: 'subscription_update', subscription_update: { subscription: sub.id } } }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'flow_data[type]' });
  });

  /** Castloop's rules: a lower price waits for the period's end; a higher one starts a new period now. */
  const periodEndConfiguration = () =>
    stripe.billingPortal.configurations.create({
      features: {
        subscription_update: {
          enabled: true,
          default_allowed_updates: ['price'],
          proration_behavior: 'always_invoice',
          billing_cycle_anchor: 'now',
          schedule_at_period_end: { conditions: [{ type: 'decreasing_item_amount' }] },
          products: ['starter', 'growth', 'scale'].map((tier) => ({ product: `prod_castloop_${tier}`, prices: [`price_local_${tier}`] })),
        },
      },
    });

  const change = (portalId: string, subscription: string, price: string) =>
    fetch(`${base}/portal/${portalId}/change`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `subscription=${subscription}&price=${price}`,
      redirect: 'manual',
    });

  it('a configuration with billing_cycle_anchor now: an upgrade starts a new period, invoiced at once less the unused time', async () => {
    const { customer, session } = await checkout('anchor@example.com', 'price_local_starter');
    await pay(session.id);
    const subscriptionId = (await stripe.checkout.sessions.retrieve(session.id)).subscription as string;
    const before = await stripe.subscriptions.retrieve(subscriptionId);
    const config = await periodEndConfiguration();
    expect(config.features.subscription_update).toMatchObject({
      billing_cycle_anchor: 'now',
      proration_behavior: 'always_invoice',
      schedule_at_period_end: { conditions: [{ type: 'decreasing_item_amount' }] },
    });
    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, configuration: config.id });
    const confirm = await (await fetch(`${base}/portal/${portal.id}/confirm?subscription=${subscriptionId}&price=price_local_growth`)).text();
    expect(confirm).toContain('starting <span id="starts-on">today</span>');
    expect(confirm).toContain('<th scope="row">Unused time on Castloop Starter</th>');
    expect(confirm).toMatch(/<th scope="row">Castloop Growth until \d{1,2} \w+ \d{4}<\/th><td>\$499\.00<\/td>/);

    received.length = 0;
    expect((await change(portal.id, subscriptionId, 'price_local_growth')).status).toBe(303);
    expect(received.map((r) => r.event.type)).toEqual([
      'invoiceitem.created',
      'invoice.created',
      'invoice.finalized',
      'invoice.paid',
      'invoice.payment_succeeded',
      'customer.subscription.updated',
    ]);
    const credit = received[0].event.data.object as unknown as Stripe.InvoiceItem;
    const applied = expectedProration(before.items.data[0], 19900, 49900, credit.date);
    expect(credit.amount).toBe(applied.unused);
    const invoice = objectOf('invoice.paid') as unknown as Stripe.Invoice;
    expect(invoice).toMatchObject({ billing_reason: 'subscription_update', amount_paid: 49900 + applied.unused });
    expect(invoice.lines.data.map((line) => line.amount)).toEqual([applied.unused, 49900]);
    const after = objectOf('customer.subscription.updated') as unknown as Stripe.Subscription;
    expect(after.items.data[0].price.id).toBe('price_local_growth');
    expect(after.items.data[0].current_period_start).toBe(credit.date);
    expect(after.billing_cycle_anchor).toBe(credit.date);
    expect(after.latest_invoice).toBe(invoice.id);
    expect(after.schedule).toBeNull();
  });

  it('schedule_at_period_end: a lower price waits for the period end as a subscription schedule, applied at renewal, released after', async () => {
    const { customer, session } = await checkout('schedule@example.com', 'price_local_scale');
    await pay(session.id);
    const subscriptionId = (await stripe.checkout.sessions.retrieve(session.id)).subscription as string;
    const before = await stripe.subscriptions.retrieve(subscriptionId);
    const periodEnd = before.items.data[0].current_period_end;
    const config = await periodEndConfiguration();
    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, configuration: config.id, return_url: 'http://127.0.0.1:3000/subscribe' });
    const day = new Date(periodEnd * 1000).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
    const confirm = await (await fetch(`${base}/portal/${portal.id}/confirm?subscription=${subscriptionId}&price=price_local_starter`)).text();
    expect(confirm).toContain(`starting <span id="starts-on">${day}</span>`);
    expect(confirm).toContain('Nothing to pay today: <strong>Castloop Scale</strong> stays until');
    expect(confirm).toContain(`Next invoice on ${day}: <strong id="next-invoice">$199.00</strong>`);

    received.length = 0;
    expect((await change(portal.id, subscriptionId, 'price_local_starter')).status).toBe(303);
    expect(received.map((r) => r.event.type)).toEqual(['subscription_schedule.created', 'customer.subscription.updated']);
    const schedule = objectOf('subscription_schedule.created') as unknown as Stripe.SubscriptionSchedule;
    expect(schedule).toMatchObject({
      object: 'subscription_schedule',
      status: 'active',
      subscription: subscriptionId,
      customer: customer.id,
      end_behavior: 'release',
      current_phase: { start_date: before.items.data[0].current_period_start, end_date: periodEnd },
    });
    expect(schedule.phases.map((phase) => [phase.items[0].price, phase.start_date])).toEqual([
      ['price_local_scale', before.items.data[0].current_period_start],
      ['price_local_starter', periodEnd],
    ]);
    const updated = received[1].event;
    expect(updated.data.object).toMatchObject({ schedule: schedule.id, items: { data: [{ price: { id: 'price_local_scale' } }] } });
    expect(updated.data.previous_attributes).toEqual({ schedule: null });
    expect(await stripe.subscriptionSchedules.retrieve(schedule.id)).toMatchObject({ id: schedule.id, status: 'active' });
    expect((await stripe.subscriptionSchedules.list({ customer: customer.id })).data.map((x) => x.id)).toEqual([schedule.id]);
    // Nothing billed, and no other plan change while one is scheduled; the portal shows it.
    expect((await stripe.invoiceItems.list({ customer: customer.id, pending: true })).data).toEqual([]);
    const home = await (await fetch(portal.url)).text();
    expect(home).toContain(`changes to Castloop Starter on ${day}`);
    expect(home).toContain('<button type="submit">Cancel scheduled change</button>');
    expect(home).not.toContain('Update plan');
    expect((await fetch(`${base}/portal/${portal.id}/update?subscription=${subscriptionId}`)).status).toBe(409);

    // The renewal: the next phase's price for the new period.
    received.length = 0;
    await fetch(`${base}/_sandbox/stripe/subscriptions/${subscriptionId}/advance`, { method: 'POST' });
    expect(received.map((r) => r.event.type)).toEqual([
      'invoice.created',
      'invoice.finalized',
      'invoice.paid',
      'invoice.payment_succeeded',
      'customer.subscription.updated',
      'subscription_schedule.updated',
    ]);
    expect((objectOf('invoice.paid') as unknown as Stripe.Invoice).amount_paid).toBe(19900);
    expect(objectOf('customer.subscription.updated')).toMatchObject({ schedule: schedule.id, items: { data: [{ price: { id: 'price_local_starter' } }] } });
    const moved = objectOf('subscription_schedule.updated') as unknown as Stripe.SubscriptionSchedule;
    expect(moved.current_phase?.start_date).toBe(moved.phases[1].start_date);

    // The last phase ends: the schedule lets the subscription go, which renews as it is.
    received.length = 0;
    await fetch(`${base}/_sandbox/stripe/subscriptions/${subscriptionId}/advance`, { method: 'POST' });
    expect(received.map((r) => r.event.type)[0]).toBe('subscription_schedule.released');
    expect(objectOf('subscription_schedule.released')).toMatchObject({ status: 'released', subscription: null, released_subscription: subscriptionId });
    expect(objectOf('customer.subscription.updated')).toMatchObject({ schedule: null, items: { data: [{ price: { id: 'price_local_starter' } }] } });
    await expect(stripe.subscriptionSchedules.release(schedule.id)).rejects.toMatchObject({ statusCode: 400 });
  });

  it('a scheduled change is dropped by releasing its schedule: the portal\'s Cancel scheduled change, or the API', async () => {
    const { customer, session } = await checkout('keep@example.com', 'price_local_growth');
    await pay(session.id);
    const subscriptionId = (await stripe.checkout.sessions.retrieve(session.id)).subscription as string;
    const config = await periodEndConfiguration();
    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, configuration: config.id });
    await change(portal.id, subscriptionId, 'price_local_starter');
    const scheduleId = (await stripe.subscriptions.retrieve(subscriptionId)).schedule as string;

    received.length = 0;
    const kept = await fetch(`${portal.url}/keep`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `subscription=${subscriptionId}`,
      redirect: 'manual',
    });
    expect(kept.headers.get('location')).toBe(`/portal/${portal.id}?notice=kept`);
    expect(received.map((r) => r.event.type)).toEqual(['subscription_schedule.released', 'customer.subscription.updated']);
    expect(received[1].event.data.previous_attributes).toEqual({ schedule: scheduleId });
    expect(await stripe.subscriptions.retrieve(subscriptionId)).toMatchObject({ schedule: null, items: { data: [{ price: { id: 'price_local_growth' } }] } });
    expect(await (await fetch(portal.url)).text()).toContain('Update plan');

    // The same through the API.
    await change(portal.id, subscriptionId, 'price_local_starter');
    const again = (await stripe.subscriptions.retrieve(subscriptionId)).schedule as string;
    const released = await stripe.subscriptionSchedules.release(again);
    expect(released).toMatchObject({ status: 'released', released_subscription: subscriptionId, subscription: null });
    await expect.poll(async () => (await stripe.subscriptions.retrieve(subscriptionId)).schedule).toBeNull();
  });

  it('refunds what a paid invoice collected: its invoice payment names the payment intent', async () => {
    const { session } = await checkout('refund@example.com', 'price_local_growth');
    await pay(session.id);
    const invoiceId = (await stripe.checkout.sessions.retrieve(session.id)).invoice as string;
    const payments = await stripe.invoicePayments.list({ invoice: invoiceId, status: 'paid' });
    expect(payments.data).toHaveLength(1);
    expect(payments.data[0]).toMatchObject({ object: 'invoice_payment', invoice: invoiceId, amount_paid: 49900, status: 'paid', payment: { type: 'payment_intent' } });
    const intent = payments.data[0].payment.payment_intent as string;
    expect(intent).toMatch(/^pi_/);

    received.length = 0;
    const part = await stripe.refunds.create({ payment_intent: intent, amount: 900, reason: 'duplicate' });
    expect(part).toMatchObject({ object: 'refund', amount: 900, payment_intent: intent, reason: 'duplicate', status: 'succeeded', currency: 'usd' });
    const rest = await stripe.refunds.create({ payment_intent: intent });
    expect(rest.amount).toBe(49000);
    await expect(stripe.refunds.create({ payment_intent: intent })).rejects.toMatchObject({ statusCode: 400, code: 'charge_already_refunded' });
    await expect(stripe.refunds.create({ payment_intent: 'pi_nope' })).rejects.toMatchObject({ statusCode: 400, code: 'resource_missing' });
    expect((await stripe.refunds.list({ payment_intent: intent })).data.map((r) => r.amount).sort((a, b) => a - b)).toEqual([900, 49000]);
    expect(await stripe.refunds.retrieve(part.id)).toMatchObject({ id: part.id, amount: 900 });
    await expect.poll(() => received.map((r) => r.event.type)).toEqual(['refund.created', 'refund.created']);
  });

  it('simulates a failed renewal payment and resends an event with the same id', async () => {
    const { session } = await checkout('late@example.com');
    await pay(session.id);
    const subscriptionId = (await stripe.checkout.sessions.retrieve(session.id)).subscription as string;
    received.length = 0;

    const res = await fetch(`${base}/_sandbox/stripe/events/${subscriptionId}/payment_failed`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(received.map((r) => r.event.type)).toEqual([
      'invoice.created',
      'invoice.finalized',
      'invoice.payment_failed',
      'customer.subscription.updated',
    ]);
    expect(objectOf('invoice.payment_failed')).toMatchObject({
      object: 'invoice',
      status: 'open',
      billing_reason: 'subscription_cycle',
      parent: { subscription_details: { subscription: subscriptionId } },
      amount_paid: 0,
      attempt_count: 1,
    });
    expect(objectOf('customer.subscription.updated')).toMatchObject({ status: 'past_due' });
    expect((await stripe.subscriptions.retrieve(subscriptionId)).status).toBe('past_due');

    const failed = received[2];
    const eventId = failed.event.id;
    const resend = await fetch(`${base}/_sandbox/stripe/events/${eventId}/resend`, { method: 'POST' });
    expect(resend.status).toBe(200);
    expect(received).toHaveLength(5);
    expect(received[4].event.id).toBe(eventId);
    expect(received[4].body).toBe(failed.body);
    await stripe.webhooks.constructEventAsync(
      received[4].body,
      received[4].headers['stripe-signature'] as string,
      secret,
    );

    // The period renews and the subscription is active again.
    await fetch(`${base}/_sandbox/stripe/subscriptions/${subscriptionId}/advance`, { method: 'POST' });
    expect((await stripe.subscriptions.retrieve(subscriptionId)).status).toBe('active');
    expect((await stripe.events.retrieve(eventId)).type).toBe('invoice.payment_failed');
  });

  it('keeps undelivered events, lists them on GET / and delivers them on resend', async () => {
    receiverStatus = 503;
    const { session } = await checkout('down@example.com');
    const res = await pay(session.id);
    expect(res.status).toBe(303);
    const events = (await (await fetch(`${base}/_sandbox/stripe/events?limit=3`)).json()) as {
      data: Array<{ status: string; event: { id: string; type: string }; deliveries: Array<{ status: number }> }>;
    };
    expect(events.data.map((r) => r.event.type)).toEqual([
      'checkout.session.completed',
      'invoice.payment_succeeded',
      'invoice.paid',
    ]);
    expect(events.data.every((r) => r.status === 'failed' && r.deliveries[0].status === 503)).toBe(true);

    const home = await (await fetch(`${base}/`)).text();
    expect(home).toContain('<h1>Castloop local sandboxes</h1>');
    expect(home).toContain('<h2 id="stripe">Stripe</h2>');
    expect(home).toContain(events.data[0].event.id);
    expect(home).toContain('HTTP 503');
    expect(home).toMatch(/have not been delivered/);
    expect(home).toContain(`aria-label="Resend ${events.data[0].event.id}"`);

    receiverStatus = 200;
    const resend = await fetch(`${base}/_sandbox/stripe/events/${events.data[0].event.id}/resend`, {
      method: 'POST',
      headers: { accept: 'text/html' },
      redirect: 'manual',
    });
    expect(resend.status).toBe(303);
    expect(received.map((r) => r.event.type)).toEqual(['checkout.session.completed']);
    const record = (await (await fetch(`${base}/_sandbox/stripe/events/${events.data[0].event.id}`)).json()) as {
      status: string;
    };
    expect(record.status).toBe('delivered');
  });

  it('supports customer retrieve, update, list by email, search and idempotency keys', async () => {
    const email = `find-${Date.now()}@example.com`;
    const c = await stripe.customers.create({ email, name: 'Ada' }, { idempotencyKey: `k-${email}` });
    const replay = await stripe.customers.create({ email, name: 'Ada' }, { idempotencyKey: `k-${email}` });
    expect(replay.id).toBe(c.id);
    await expect(
      stripe.customers.create({ email, name: 'Other' }, { idempotencyKey: `k-${email}` }),
    ).rejects.toMatchObject({ type: 'StripeIdempotencyError' });

    const updated = await stripe.customers.update(c.id, { metadata: { user_id: 'u-9', plan: 'x' }, name: 'Ada L.' });
    expect(updated).toMatchObject({ name: 'Ada L.', metadata: { user_id: 'u-9', plan: 'x' } });
    const unset = await stripe.customers.update(c.id, { metadata: { plan: '' } });
    expect(unset.metadata).toEqual({ user_id: 'u-9' });
    const got = await stripe.customers.retrieve(c.id);
    expect(got).toMatchObject({ id: c.id, email, name: 'Ada L.' });
    const listed = await stripe.customers.list({ email, limit: 1 });
    expect(listed).toMatchObject({ object: 'list', has_more: false, url: '/v1/customers' });
    expect(listed.data.map((x) => x.id)).toEqual([c.id]);
    expect((await stripe.customers.list({ email: 'nobody@example.com' })).data).toEqual([]);
    const found = await stripe.customers.search({ query: `email:'${email}'` });
    expect(found.data.map((x) => x.id)).toEqual([c.id]);
    const prices = await stripe.prices.list();
    expect(prices.data.map((p) => [p.id, p.unit_amount]).sort()).toEqual([
      ['price_local_extra_episode', 29900],
      ['price_local_growth', 49900],
      ['price_local_scale', 119900],
      ['price_local_starter', 19900],
    ]);
  });

  it('answers errors in Stripe’s format', async () => {
    await expect(stripe.customers.retrieve('cus_doesnotexist')).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 404,
      code: 'resource_missing',
      param: 'id',
      message: "No such customer: 'cus_doesnotexist'",
    });
    const raw = await fetch(`${base}/v1/customers/cus_doesnotexist`, {
      headers: { authorization: 'Bearer sk_test_castloop_local' },
    });
    expect(raw.status).toBe(404);
    expect(raw.headers.get('request-id')).toMatch(/^req_/);
    const body = (await raw.json()) as { error: Record<string, string> };
    expect(body.error).toMatchObject({
      type: 'invalid_request_error',
      code: 'resource_missing',
      param: 'id',
      message: "No such customer: 'cus_doesnotexist'",
    });

    const noAuth = await fetch(`${base}/v1/customers`);
    expect(noAuth.status).toBe(401);
    expect(noAuth.headers.get('request-id')).toMatch(/^req_/);
    expect(((await noAuth.json()) as { error: { type: string; message: string } }).error).toMatchObject({
      type: 'invalid_request_error',
      message: expect.stringContaining('You did not provide an API key'),
    });
    await expect(sdk('sk_test_wrong').customers.list()).rejects.toMatchObject({
      type: 'StripeAuthenticationError',
      statusCode: 401,
    });

    await expect(
      stripe.checkout.sessions.create({ mode: 'subscription', success_url: 'http://127.0.0.1:3000/ok' }),
    ).rejects.toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'line_items' });
    await expect(
      stripe.checkout.sessions.create({
        mode: 'subscription',
        line_items: [{ price: 'price_nope', quantity: 1 }],
        success_url: 'http://127.0.0.1:3000/ok',
      }),
    ).rejects.toMatchObject({
      statusCode: 400,
      code: 'resource_missing',
      param: 'line_items[0][price]',
      message: "No such price: 'price_nope'",
    });
    await expect(
      stripe.customers.create({ emale: 'x@example.com' } as unknown as Stripe.CustomerCreateParams),
    ).rejects.toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'emale' });
    await expect(stripe.customers.create({ email: 'not-an-email' })).rejects.toMatchObject({
      statusCode: 400,
      code: 'email_invalid',
    });
    await expect(stripe.billingPortal.sessions.create({ customer: 'cus_missing' })).rejects.toMatchObject({
      statusCode: 400,
      code: 'resource_missing',
      param: 'customer',
    });
    await expect(stripe.subscriptions.retrieve('sub_missing')).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
  });

  it('works with the fetch HTTP client the Deno functions use', async () => {
    const viaFetch = new Stripe('sk_test_castloop_local', {
      host: '127.0.0.1',
      port: config.ports.sandbox,
      protocol: 'http',
      httpClient: Stripe.createFetchHttpClient(),
    });
    const c = await viaFetch.customers.create({ email: 'fetch@example.com', metadata: { user_id: 'u-fetch' } });
    const session = await viaFetch.checkout.sessions.create({
      mode: 'subscription',
      customer: c.id,
      line_items: [{ price: 'price_local_scale', quantity: 1 }],
      success_url: 'http://127.0.0.1:3000/ok?session_id={CHECKOUT_SESSION_ID}',
    });
    expect(session.amount_total).toBe(119900);
    await expect(viaFetch.customers.retrieve('cus_nope')).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
  });

  it('keeps its state across restarts', async () => {
    const c = await stripe.customers.create({ email: 'persist@example.com' });
    await sandbox.stop();
    sandbox = await startSandbox(config);
    expect((await stripe.customers.retrieve(c.id)) as Stripe.Customer).toMatchObject({ email: 'persist@example.com' });
  });

  it('retries a failed delivery automatically', async () => {
    await sandbox.stop();
    sandbox = await startSandbox(makeConfig(config.env.STRIPE_WEBHOOK_URL, '0.2,0.2'));
    receiverStatus = 503;
    const { session } = await checkout('retry@example.com');
    await pay(session.id);
    expect(received).toHaveLength(0);
    receiverStatus = 200;
    const deadline = Date.now() + 8000;
    const expected = ['customer.created', ...checkoutEvents];
    while (received.length < expected.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(received.map((r) => r.event.type)).toEqual(expected);
    const events = (await (await fetch(`${base}/_sandbox/stripe/events?limit=3`)).json()) as {
      data: Array<{ status: string; deliveries: Array<{ reason: string }> }>;
    };
    expect(events.data.every((r) => r.status === 'delivered' && r.deliveries.at(-1)?.reason === 'retry')).toBe(true);
  });
});

describe('the sandbox against Stripe\'s published API description (the stripe package\'s types)', () => {
  it('every object and event it sends type-checks as API version 2026-10-28', async () => {
    const raw = async (method: string, path: string, form?: string): Promise<Record<string, unknown>> => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: 'Bearer sk_test_castloop_local', 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
      });
      expect(res.status, `${method} ${path}`).toBe(200);
      return (await res.json()) as Record<string, unknown>;
    };
    const samples: Sample[] = [];
    const sample = (type: string, label: string, value: unknown) => samples.push({ type, label, value });

    // A customer typed on the checkout page, a renewal, a failed payment, both cancellations.
    const session = await raw(
      'POST',
      '/v1/checkout/sessions',
      'mode=subscription&line_items[0][price]=price_local_growth&line_items[0][quantity]=1&success_url=http%3A%2F%2F127.0.0.1%3A3000%2Fok&metadata[user_id]=u-shape',
    );
    sample('Checkout.Session', 'POST /v1/checkout/sessions', session);
    await pay(session.id as string, 'email=shape%40example.com');
    const done = await raw('GET', `/v1/checkout/sessions/${session.id}?expand[]=line_items`);
    sample('Checkout.Session', 'GET /v1/checkout/sessions/{id}?expand[]=line_items', done);
    const subscriptionId = done.subscription as string;
    const customerId = done.customer as string;
    // A plan change through the portal: configuration, a flow session, prorations.
    const configuration = await raw(
      'POST',
      '/v1/billing_portal/configurations',
      'features[subscription_update][enabled]=true&features[subscription_update][default_allowed_updates][0]=price&features[subscription_update][proration_behavior]=create_prorations&features[subscription_update][products][0][product]=prod_castloop_scale&features[subscription_update][products][0][prices][0]=price_local_scale&features[subscription_update][products][1][product]=prod_castloop_growth&features[subscription_update][products][1][prices][0]=price_local_growth',
    );
    sample('BillingPortal.Configuration', 'POST /v1/billing_portal/configurations', configuration);
    const flowSession = await raw(
      'POST',
      '/v1/billing_portal/sessions',
      `customer=${customerId}&configuration=${configuration.id}&flow_data[type]=subscription_update&flow_data[subscription_update][subscription]=${subscriptionId}&flow_data[after_completion][type]=redirect&flow_data[after_completion][redirect][return_url]=http%3A%2F%2F127.0.0.1%3A3000%2Fdashboard`,
    );
    sample('BillingPortal.Session', 'POST /v1/billing_portal/sessions (flow)', flowSession);
    await fetch(`${base}/portal/${flowSession.id}/change`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `subscription=${subscriptionId}&price=price_local_scale`,
      redirect: 'manual',
    });
    sample('ApiList<Stripe.InvoiceItem>', 'GET /v1/invoiceitems', await raw('GET', `/v1/invoiceitems?customer=${customerId}&pending=true`));
    // Castloop's rules: an upgrade starts a new period now; a downgrade is a subscription schedule.
    const rules = await raw(
      'POST',
      '/v1/billing_portal/configurations',
      'features[subscription_update][enabled]=true&features[subscription_update][default_allowed_updates][0]=price&features[subscription_update][proration_behavior]=always_invoice&features[subscription_update][billing_cycle_anchor]=now&features[subscription_update][schedule_at_period_end][conditions][0][type]=decreasing_item_amount&features[subscription_update][products][0][product]=prod_castloop_scale&features[subscription_update][products][0][prices][0]=price_local_scale&features[subscription_update][products][1][product]=prod_castloop_growth&features[subscription_update][products][1][prices][0]=price_local_growth',
    );
    sample('BillingPortal.Configuration', 'POST /v1/billing_portal/configurations (schedule_at_period_end)', rules);
    const rulesSession = await raw('POST', '/v1/billing_portal/sessions', `customer=${customerId}&configuration=${rules.id}`);
    await fetch(`${base}/portal/${rulesSession.id}/change`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `subscription=${subscriptionId}&price=price_local_growth`,
      redirect: 'manual',
    });
    const scheduled = await raw('GET', `/v1/subscriptions/${subscriptionId}`);
    sample('SubscriptionSchedule', 'GET /v1/subscription_schedules/{id}', await raw('GET', `/v1/subscription_schedules/${scheduled.schedule}`));
    sample('ApiList<Stripe.SubscriptionSchedule>', 'GET /v1/subscription_schedules', await raw('GET', `/v1/subscription_schedules?customer=${customerId}`));
    // Its phase at renewal, then released; then an upgrade, which starts a new period.
    await fetch(`${base}/_sandbox/stripe/subscriptions/${subscriptionId}/advance`, { method: 'POST' });
    await fetch(`${base}/_sandbox/stripe/subscriptions/${subscriptionId}/advance`, { method: 'POST' });
    await fetch(`${base}/portal/${rulesSession.id}/change`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `subscription=${subscriptionId}&price=price_local_scale`,
      redirect: 'manual',
    });
    const payments = await raw('GET', `/v1/invoice_payments?invoice=${done.invoice}`);
    sample('ApiList<Stripe.InvoicePayment>', 'GET /v1/invoice_payments', payments);
    const intent = ((payments.data as Array<{ payment: { payment_intent: string } }>)[0]).payment.payment_intent;
    sample('Refund', 'POST /v1/refunds', await raw('POST', '/v1/refunds', `payment_intent=${intent}&amount=100&reason=duplicate`));
    sample('ApiList<Stripe.Refund>', 'GET /v1/refunds', await raw('GET', `/v1/refunds?payment_intent=${intent}`));
    await fetch(`${base}/_sandbox/stripe/subscriptions/${subscriptionId}/advance`, { method: 'POST' });
    await fetch(`${base}/_sandbox/stripe/subscriptions/${subscriptionId}/payment_failed`, { method: 'POST' });
    await raw('POST', `/v1/subscriptions/${subscriptionId}`, 'cancel_at_period_end=true');
    const expired = await raw('POST', '/v1/checkout/sessions', 'mode=subscription&line_items[0][price]=price_local_starter&success_url=http%3A%2F%2F127.0.0.1%3A3000%2Fok');
    await raw('POST', `/v1/checkout/sessions/${expired.id}/expire`);
    const portal = await raw('POST', '/v1/billing_portal/sessions', `customer=${customerId}`);
    sample('BillingPortal.Session', 'POST /v1/billing_portal/sessions', portal);
    sample('Subscription', 'GET /v1/subscriptions/{id}', await raw('GET', `/v1/subscriptions/${subscriptionId}`));
    sample('Customer', 'GET /v1/customers/{id}', await raw('GET', `/v1/customers/${customerId}`));
    sample('ApiList<Stripe.Invoice>', 'GET /v1/invoices', await raw('GET', `/v1/invoices?subscription=${subscriptionId}`));
    sample('ApiList<Stripe.Price>', 'GET /v1/prices', await raw('GET', '/v1/prices'));
    sample('Product', 'GET /v1/products/{id}', await raw('GET', '/v1/products/prod_castloop_growth'));
    sample('ApiList<Stripe.Subscription>', 'GET /v1/subscriptions', await raw('GET', `/v1/subscriptions?customer=${customerId}&status=all`));
    await raw('DELETE', `/v1/subscriptions/${subscriptionId}`);
    const other = await raw('POST', '/v1/customers', 'email=gone%40example.com');
    sample('DeletedCustomer', 'DELETE /v1/customers/{id}', await raw('DELETE', `/v1/customers/${other.id}`));

    // Until the last webhook has arrived.
    await expect.poll(() => [...new Set(received.map((r) => r.event.type))].sort(), { timeout: 5000 }).toEqual([
      'checkout.session.completed',
      'checkout.session.expired',
      'customer.created',
      'customer.deleted',
      'customer.subscription.created',
      'customer.subscription.deleted',
      'customer.subscription.updated',
      'invoice.created',
      'invoice.finalized',
      'invoice.paid',
      'invoice.payment_failed',
      'invoice.payment_succeeded',
      'invoiceitem.created',
      'refund.created',
      'subscription_schedule.created',
      'subscription_schedule.released',
      'subscription_schedule.updated',
    ]);
    // The last event of each type, as its own SDK type (InvoicePaidEvent, ...).
    const lastOfType = new Map(received.map((r) => [r.event.type, r]));
    for (const [type, r] of lastOfType) sample(eventTypeName(type), `event ${type}`, JSON.parse(r.body));
    expect(stripeTypeErrors(samples)).toEqual([]);
  });
});
