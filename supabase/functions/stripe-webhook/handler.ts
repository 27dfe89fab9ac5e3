import Stripe from 'stripe';
import { z } from 'zod';
import { settings } from '../_shared/config.ts';
import { HttpError, readBodyText } from '../_shared/http-error.ts';
import { db } from '../_shared/db.ts';
import { eventCreatedTime, ImpossibleStripeTime } from '../_shared/domain-server/stripe-time.ts';
import { stripeClient } from '../_shared/stripe.ts';
import { paidExtraEpisode, recordExtraEpisode } from './extra-episode.ts';
import { settleSecondSubscription } from './second-subscription.ts';
import { currentStateOf, idOf, stateOf, type SubscriptionState } from './subscription-state.ts';

const cryptoProvider = Stripe.createSubtleCryptoProvider();

/** Stripe's events stay far below this; anything larger is not one. */
const maxEventBytes = 2_000_000;

const eventShape = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  created: z.number(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

/** Events about a subscription schedule: the plan change scheduled for a period's end. */
const scheduleEvents = new Set([
  'subscription_schedule.created',
  'subscription_schedule.updated',
  'subscription_schedule.released',
  'subscription_schedule.canceled',
  'subscription_schedule.completed',
  'subscription_schedule.aborted',
]);

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** The subscription an event is about, as Stripe has it now (or as the event carries it). */
async function subscriptionStateFor(event: Stripe.Event): Promise<SubscriptionState | null> {
  if (scheduleEvents.has(event.type)) {
    const schedule = event.data.object as Stripe.SubscriptionSchedule;
    const subscriptionId = idOf(schedule.subscription) ?? schedule.released_subscription;
    return subscriptionId ? currentStateOf(subscriptionId) : null;
  }
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      const subscriptionId = idOf(session.subscription);
      if (session.mode !== 'subscription' || !subscriptionId) return null;
      const state = await currentStateOf(subscriptionId);
      return { ...state, userId: state.userId ?? session.metadata?.user_id ?? session.client_reference_id ?? null };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
      return stateOf(event.data.object);
    case 'customer.subscription.deleted':
      return stateOf(event.data.object, true);
    case 'invoice.payment_failed': {
      const invoice = event.data.object as Stripe.Invoice & { subscription?: string | { id: string } };
      const subscriptionId =
        idOf(invoice.subscription) ?? idOf(invoice.parent?.subscription_details?.subscription as string | undefined);
      if (!subscriptionId) return null;
      return currentStateOf(subscriptionId);
    }
    default:
      return null;
  }
}

/**
 * Records the event with what it says about a subscription (nulls for an event about something
 * else), or with Stripe's current state of it (`fromStripe`); answers the outcome
 * (private.record_stripe_event).
 */
async function recordEvent(event: Stripe.Event, createdAt: string, state: SubscriptionState | null, fromStripe: boolean): Promise<string> {
  const [{ outcome }] = await db()<{ outcome: string }[]>`
    select private.record_stripe_event(
      ${event.id}, ${event.type}, ${createdAt}::timestamptz,
      ${state?.userId ?? null}::uuid, ${state?.customerId ?? null}, ${state?.subscriptionId ?? null},
      ${state?.status ?? null}, ${state?.tier ?? null}, ${state?.currentPeriodEnd ?? null}::timestamptz,
      ${fromStripe}, ${state?.scheduledTier ?? null}, ${state?.scheduledChangeAt ?? null}::timestamptz
    ) as outcome`;
  return outcome;
}

/** A signed event Castloop cannot record as it is: answered 400 with the reason, which is logged. */
function refused(event: { id?: unknown; type?: unknown }, reason: string): Response {
  console.error(`stripe-webhook: refused ${String(event.type)} ${String(event.id)}: ${reason}`);
  return json(400, { message: `Malformed event: ${reason}` });
}

/** Why an error of reading or recording an event is the event's fault (400), if it is. */
function eventFault(error: unknown): string | null {
  return error instanceof ImpossibleStripeTime ? error.message : null;
}

export async function handleStripeWebhook(request: Request): Promise<Response> {
  if (request.method !== 'POST') return json(405, { message: 'Method not allowed' });
  const secret = settings().stripe.webhookSecret;
  const signature = request.headers.get('stripe-signature');
  if (!signature) return json(400, { message: 'Missing Stripe-Signature header' });
  let body: string;
  try {
    body = await readBodyText(request, maxEventBytes);
  } catch (error) {
    if (error instanceof HttpError) return json(error.status, { message: error.message });
    throw error;
  }

  let event: Stripe.Event;
  try {
    event = await stripeClient().webhooks.constructEventAsync(body, signature, secret, undefined, cryptoProvider);
  } catch {
    return json(400, { message: 'Invalid signature' });
  }
  // Signed is not well-formed: every field recorded below must be there, and every date possible.
  const shape = eventShape.safeParse(event);
  if (!shape.success) {
    const issue = shape.error.issues[0];
    return refused(event, `${issue?.path.join('.') || 'event'} ${issue?.message ?? 'is invalid'}`);
  }
  let createdAt: string;
  try {
    createdAt = eventCreatedTime(event.created);
  } catch (error) {
    return refused(event, eventFault(error) ?? String(error));
  }

  // An extra episode bought on the largest plan: recorded before the event, so a failure here is
  // a 500 and Stripe's next delivery records it (once per session).
  const extra = paidExtraEpisode(event);
  if (extra) {
    try {
      await recordExtraEpisode(extra, createdAt);
    } catch (error) {
      console.error(`stripe-webhook: could not record the extra episode of ${event.id}`, error);
      return json(500, { message: 'Could not record the extra episode' });
    }
  }

  let state: SubscriptionState | null;
  try {
    state = await subscriptionStateFor(event);
  } catch (error) {
    const fault = eventFault(error);
    if (fault) return refused(event, fault);
    // Stripe retries a failed delivery: answer 5xx so the event is not lost.
    console.error(`stripe-webhook: could not read ${event.type} ${event.id}`, error);
    return json(502, { message: 'Could not read the subscription from Stripe' });
  }

  let outcome: string;
  try {
    outcome = await recordEvent(event, createdAt, state, false);
  } catch (error) {
    console.error(`stripe-webhook: could not record ${event.type} ${event.id}`, error);
    return json(500, { message: 'Could not record the event' });
  }
  if ((outcome === 'conflict' || outcome === 'second_subscription_unsettled') && state) {
    const subscriptionId = state.subscriptionId;
    try {
      // A second live subscription of the account is canceled and refunded; the event is then
      // recorded as about it ('second_subscription').
      if (outcome === 'second_subscription_unsettled' && (await settleSecondSubscription(subscriptionId, state.customerId))) {
        return json(200, { received: true, outcome: await recordEvent(event, createdAt, state, false) });
      }
      // Another event of the same second put the subscription in another state (Stripe does not
      // order events), or the account's stored subscription is behind Stripe: apply Stripe's
      // current state of this one.
      const current = await currentStateOf(subscriptionId);
      state = { ...current, userId: current.userId ?? state.userId };
    } catch (error) {
      const fault = eventFault(error);
      if (fault) return refused(event, fault);
      console.error(`stripe-webhook: could not settle ${subscriptionId} for ${event.id}`, error);
      return json(502, { message: 'Could not read or change the subscription in Stripe' });
    }
    try {
      outcome = await recordEvent(event, createdAt, state, true);
    } catch (error) {
      console.error(`stripe-webhook: could not record ${event.type} ${event.id}`, error);
      return json(500, { message: 'Could not record the event' });
    }
  }
  return json(200, { received: true, outcome });
}
