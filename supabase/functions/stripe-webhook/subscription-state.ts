// A Stripe subscription as Castloop stores it: its customer, user, status, tier and period end,
// and the plan change its schedule makes at the period's end (the billing portal schedules a
// lower price so). Every date is checked to be one Stripe can mean (ImpossibleStripeTime).
import type Stripe from 'stripe';
import { stripeTime } from '../_shared/domain-server/stripe-time.ts';
import { isLiveSubscription, stripeClient, tierForPrice } from '../_shared/stripe.ts';

export interface SubscriptionState {
  customerId: string;
  subscriptionId: string;
  userId: string | null;
  status: string;
  tier: string | null;
  /** ISO timestamps. */
  currentPeriodEnd: string | null;
  scheduledTier: string | null;
  scheduledChangeAt: string | null;
}

export function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

const nothingScheduled = { scheduledTier: null, scheduledChangeAt: null };

/**
 * The tier the subscription's schedule moves it to when the current phase ends, and when; none
 * when it has no schedule, the schedule is not running, or its next phase keeps the tier.
 */
async function scheduledChangeOf(subscription: Stripe.Subscription, tier: string | null) {
  if (!subscription.schedule || !isLiveSubscription(subscription.status)) return nothingScheduled;
  const schedule =
    typeof subscription.schedule === 'string'
      ? await stripeClient().subscriptionSchedules.retrieve(subscription.schedule)
      : subscription.schedule;
  const phaseEnd = schedule.current_phase?.end_date;
  if (schedule.status !== 'active' || phaseEnd === undefined) return nothingScheduled;
  const next = [...schedule.phases].sort((a, b) => a.start_date - b.start_date).find((phase) => phase.start_date >= phaseEnd);
  const price = next?.items[0]?.price;
  const nextTier = tierForPrice(typeof price === 'string' ? price : price?.id);
  if (!next || !nextTier || nextTier === tier) return nothingScheduled;
  return { scheduledTier: nextTier, scheduledChangeAt: stripeTime('subscription_schedule.phases.start_date', next.start_date) };
}

/** The subscription's state; `deleted` for customer.subscription.deleted (canceled, whatever it says). */
export async function stateOf(subscription: Stripe.Subscription, deleted = false): Promise<SubscriptionState> {
  const item = subscription.items?.data?.[0];
  // Newer API versions carry the period on the item; older ones on the subscription.
  const periodEnd =
    (item as { current_period_end?: unknown } | undefined)?.current_period_end ??
    (subscription as { current_period_end?: unknown }).current_period_end ??
    null;
  const status = deleted ? 'canceled' : subscription.status;
  const tier = tierForPrice(item?.price?.id);
  return {
    customerId: idOf(subscription.customer)!,
    subscriptionId: subscription.id,
    userId: subscription.metadata?.user_id ?? null,
    status,
    tier,
    currentPeriodEnd: periodEnd === null ? null : stripeTime('current_period_end', periodEnd),
    ...(deleted ? nothingScheduled : await scheduledChangeOf({ ...subscription, status }, tier)),
  };
}

/** The subscription as Stripe has it now. */
export async function currentStateOf(subscriptionId: string): Promise<SubscriptionState> {
  return stateOf(await stripeClient().subscriptions.retrieve(subscriptionId));
}
