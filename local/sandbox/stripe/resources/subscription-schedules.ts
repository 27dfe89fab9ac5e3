// Subscription schedules: what the billing portal creates for a plan change that waits for the
// period's end (a configuration's `schedule_at_period_end`): the current phase until the period
// ends, then the new price for one period, then the schedule releases the subscription. The
// billing simulation moves a schedule through its phases at renewal (simulation.ts); here are the
// API's retrieve, list and release.
import { checkAllowed, listParams, noSuch, paginate, str, fail, type Route } from '../request.ts';
import type { StripeSandbox } from '../sandbox.ts';
import { addMonths, newId, nowSeconds, type Json } from '../primitives.ts';
import { periodOf, type Subscription } from './subscriptions.ts';

interface Phase extends Json {
  start_date: number;
  end_date: number;
  items: Array<{ price: string; plan: string; quantity: number } & Json>;
}

type ScheduleStatus = 'not_started' | 'active' | 'completed' | 'released' | 'canceled';

export interface SubscriptionSchedule extends Json {
  id: string;
  object: 'subscription_schedule';
  created: number;
  customer: string;
  status: ScheduleStatus;
  subscription: string | null;
  current_phase: { start_date: number; end_date: number } | null;
  phases: Phase[];
  released_at: number | null;
  released_subscription: string | null;
  canceled_at: number | null;
}

function buildPhase(currency: string, priceId: string, quantity: number, start: number, end: number): Phase {
  return {
    add_invoice_items: [],
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: null,
    billing_thresholds: null,
    collection_method: null,
    currency,
    default_payment_method: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    end_date: end,
    invoice_settings: null,
    items: [{ billing_thresholds: null, discounts: [], metadata: {}, plan: priceId, price: priceId, quantity, tax_rates: [] }],
    metadata: {},
    on_behalf_of: null,
    proration_behavior: 'create_prorations',
    start_date: start,
    transfer_data: null,
    trial_end: null,
  };
}

/**
 * A schedule for `sub` (stored): the current price until the period ends, then `priceId` for one
 * period; it releases the subscription when that phase ends (`end_behavior: release`).
 */
export function buildScheduleAtPeriodEnd(sandbox: StripeSandbox, sub: Subscription, priceId: string): SubscriptionSchedule {
  const item = sub.items.data[0];
  const { start, end } = periodOf(sub);
  const schedule: SubscriptionSchedule = {
    id: newId('sub_sched_'),
    object: 'subscription_schedule',
    application: null,
    billing_mode: { flexible: null, type: 'classic' },
    canceled_at: null,
    completed_at: null,
    created: nowSeconds(),
    current_phase: { start_date: start, end_date: end },
    customer: sub.customer,
    customer_account: null,
    default_settings: {
      application_fee_percent: null,
      automatic_tax: { disabled_reason: null, enabled: false, liability: null },
      billing_cycle_anchor: 'automatic',
      billing_thresholds: null,
      collection_method: 'charge_automatically',
      default_payment_method: null,
      description: null,
      invoice_settings: { account_tax_ids: null, custom_fields: null, days_until_due: null, description: null, footer: null, issuer: { type: 'self' } },
      on_behalf_of: null,
      transfer_data: null,
    },
    end_behavior: 'release',
    livemode: false,
    metadata: {},
    pause_schedules: [],
    phases: [
      buildPhase(sub.currency, item.price.id, item.quantity, start, end),
      buildPhase(sub.currency, priceId, item.quantity, end, addMonths(end, 1)),
    ],
    released_at: null,
    released_subscription: null,
    status: 'active',
    subscription: sub.id,
    test_clock: null,
  };
  sandbox.state.data.subscriptionSchedules[schedule.id] = schedule;
  return schedule;
}

/** The phase after the current one, if any: what the subscription changes to at the period's end. */
export function nextPhase(schedule: SubscriptionSchedule): Phase | undefined {
  if (schedule.status !== 'active' || !schedule.current_phase) return undefined;
  const end = schedule.current_phase.end_date;
  return schedule.phases.find((phase) => phase.start_date === end);
}

/** The schedule lets go of its subscription, which keeps its current price and renews as usual. */
export function markReleased(schedule: SubscriptionSchedule): void {
  const now = nowSeconds();
  Object.assign(schedule, {
    status: 'released',
    released_at: now,
    released_subscription: schedule.subscription,
    subscription: null,
    current_phase: null,
  });
}

export function markCanceled(schedule: SubscriptionSchedule): void {
  Object.assign(schedule, { status: 'canceled', canceled_at: nowSeconds(), current_phase: null });
}

function getSchedule(sandbox: StripeSandbox, id: string): SubscriptionSchedule {
  return sandbox.state.data.subscriptionSchedules[id] ?? noSuch('subscription_schedule', id);
}

export const subscriptionScheduleRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/v1\/subscription_schedules$/,
    handler: (s, p) => {
      checkAllowed(p, [...listParams, 'customer', 'canceled_at', 'completed_at', 'released_at', 'scheduled', 'created']);
      const customer = str(p, 'customer');
      const schedules = Object.values(s.state.data.subscriptionSchedules).filter((x) => !customer || x.customer === customer);
      return paginate(schedules, p, '/v1/subscription_schedules');
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/subscription_schedules\/([^/]+)$/,
    handler: (s, p, [id]) => {
      checkAllowed(p, []);
      return getSchedule(s, id);
    },
  },
  {
    method: 'POST',
    pattern: /^\/v1\/subscription_schedules\/([^/]+)\/release$/,
    handler: (s, p, [id]) => {
      checkAllowed(p, ['preserve_cancel_date']);
      const schedule = getSchedule(s, id);
      if (schedule.status !== 'active' && schedule.status !== 'not_started')
        fail(400, `You cannot release a subscription schedule that is currently in the \`${schedule.status}\` status. It must be in the \`not_started\` or \`active\` status.`);
      // The events go out after the answer, as for the other API changes.
      void s.billing.releaseSchedule(schedule.id);
      return schedule;
    },
  },
];
