// One more episode this month on the largest plan (issue 43, item 4), through the `api` function,
// the Stripe sandbox's Checkout in payment mode and the stripe-webhook function: who may buy one,
// the paid session recorded once (a redelivered event adds nothing), the month's allowance that
// counts it, and the submission it lets through.
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { callApi, submitEpisode, tokenOf, uploadEpisodeFile } from '../support/episodes.ts';
import { config, withDb } from '../support/stack.ts';
import { payOnPage, scaleSubscriberAtLimit, sessionIdOf } from '../support/extra-episodes.ts';
import { createUser } from '../support/users.ts';

const sandboxStripe = () =>
  new Stripe(config.env.STRIPE_SECRET_KEY, { host: '127.0.0.1', port: config.ports.sandbox, protocol: 'http', maxNetworkRetries: 0 });
const webhookUrl = `${config.urls.api}/functions/v1/stripe-webhook`;

const statsOf = async (token: string) => (await callApi('GET', 'episodes/stats', token)).body;

describe('POST /api/create-extra-episode-checkout', () => {
  it('is for the largest plan only, with an active subscription', async () => {
    expect((await callApi('POST', 'create-extra-episode-checkout')).status).toBe(401);
    const unsubscribed = await createUser('new');
    expect(await callApi('POST', 'create-extra-episode-checkout', await tokenOf(unsubscribed))).toEqual({
      status: 409,
      body: { message: 'An active subscription is required to buy an extra episode.' },
    });
    const growth = await createUser('onboarded', { tier: 'growth' });
    expect(await callApi('POST', 'create-extra-episode-checkout', await tokenOf(growth))).toEqual({
      status: 409,
      body: { message: 'One more episode can be bought on the Scale Done-For-You Service. Upgrade your plan to submit more episodes.' },
    });
  });

  it('sells one episode through Checkout in payment mode; the paid session adds one to this month, once', async () => {
    const { user, token } = await scaleSubscriberAtLimit();
    expect(await statsOf(token)).toMatchObject({ limit: 4, thisMonth: 4, extraEpisodes: 0, canSubmit: false, blockReason: 'monthly_limit' });
    const file = (await uploadEpisodeFile({ id: user.id, token })).path;
    expect((await submitEpisode({ ...user, token }, [file])).status).toBe(403);

    const started = await callApi('POST', 'create-extra-episode-checkout', token);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const sessionId = sessionIdOf(started.body.checkoutUrl);
    const session = await sandboxStripe().checkout.sessions.retrieve(sessionId, { expand: ['line_items'] });
    expect(session).toMatchObject({ mode: 'payment', metadata: { user_id: user.id, purpose: 'extra_episode' }, amount_total: 29900 });
    expect(session.line_items?.data.map((item) => item.price?.id)).toEqual([config.env.STRIPE_PRICE_EXTRA_EPISODE]);

    // Not paid yet: nothing counts.
    expect(await statsOf(token)).toMatchObject({ limit: 4, extraEpisodes: 0 });
    expect(await payOnPage(sessionId)).toBe(`${config.urls.web}/dashboard?extra_episode=purchased`);
    expect(await statsOf(token)).toMatchObject({ limit: 5, thisMonth: 4, extraEpisodes: 1, canSubmit: true, blockReason: null });

    // Stripe delivers an event again: still one extra episode.
    const { data: events } = await sandboxStripe().events.list({ type: 'checkout.session.completed', limit: 100 });
    const completed = events.find((event) => (event.data.object as Stripe.Checkout.Session).id === sessionId)!;
    const again = await fetch(`${config.urls.sandbox}/_sandbox/stripe/events/${completed.id}/resend`, { method: 'POST' });
    expect(again.status).toBe(200);
    expect((await statsOf(token)).limit).toBe(5);

    // The fifth episode goes through; a sixth does not.
    expect((await submitEpisode({ ...user, token }, [file])).status).toBe(201);
    const other = (await uploadEpisodeFile({ id: user.id, token }, 64 * 1024, 'sixth.mp4')).path;
    const sixth = await submitEpisode({ ...user, token }, [other]);
    expect(sixth.status).toBe(403);
    expect(await statsOf(token)).toMatchObject({ limit: 5, thisMonth: 5, blockReason: 'monthly_limit' });
  });

  it('records only paid sessions bought for an extra episode, whatever else a checkout completes', async () => {
    const user = await createUser('onboarded', { tier: 'scale' });
    const stripe = new Stripe(config.env.STRIPE_SECRET_KEY);
    const deliver = async (session: Record<string, unknown>, id: string) => {
      const payload = JSON.stringify({ id, object: 'event', type: 'checkout.session.completed', created: Math.floor(Date.now() / 1000), livemode: false, data: { object: session } });
      const header = await stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: config.env.STRIPE_WEBHOOK_SECRET });
      return (await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': header }, body: payload })).status;
    };
    const base = { object: 'checkout.session', mode: 'payment', amount_total: 29900, currency: 'usd', customer: 'cus_x', metadata: { user_id: user.id, purpose: 'extra_episode' } };
    expect(await deliver({ ...base, id: `cs_unpaid_${user.id}`, payment_status: 'unpaid' }, `evt_unpaid_${user.id}`)).toBe(200);
    expect(await deliver({ ...base, id: `cs_other_${user.id}`, payment_status: 'paid', metadata: { user_id: user.id } }, `evt_other_${user.id}`)).toBe(200);
    const count = async () => withDb(async (db) => (await db.query('select count(*)::int as n from public.extra_episodes where user_id = $1', [user.id])).rows[0].n);
    expect(await count()).toBe(0);
    expect(await deliver({ ...base, id: `cs_paid_${user.id}`, payment_status: 'paid' }, `evt_paid_${user.id}`)).toBe(200);
    expect(await count()).toBe(1);
  });
});
